//go:build linux

package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestConsolidateInterrupted: SIGINT, SIGTERM and SIGHUP stop a run whose
// model (the llm engine, over the Anthropic API) has not answered yet:
// exit 130 and "interrupted", no memory commit, the staging entry kept
// and the lock released, so that the next run does it all again.
func TestConsolidateInterrupted(t *testing.T) {
	helper := apiHelperDir(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			r := newExtractRepo(t, "ANTHROPIC_API_KEY=sk-ant-test-0123456789")
			r.withPath(helper)
			fixSample(t, r)
			r.git("add", "-A")
			r.git("commit", "-q", "-m", "fix the sample")
			entry := filepath.Join(".yoi", "memory", "_staging", "0194d29f-0c00-7000-8000-000000000001.json")
			if err := os.MkdirAll(r.path(filepath.Dir(entry)), 0o755); err != nil {
				t.Fatal(err)
			}
			r.write(entry, `{"version": 1, "id": "0194d29f-0c00-7000-8000-000000000001", "created_at": "2026-01-01T10:00:00Z",
 "source": {"session_id": "s1", "range": [1, 9]}, "agent": "native", "model": "recorded",
 "activity": {"decisions": [{"topic": "Use SQLite for storage", "options": ["SQLite", "Postgres"], "chosen": "SQLite", "rationale": "Embedded."}],
              "discussions": [], "attempts": [], "requests": []}}`)
			asked, done := make(chan struct{}, 1), make(chan struct{})
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
				select {
				case asked <- struct{}{}:
				default:
				}
				select { // never answers: the client goes away
				case <-req.Context().Done():
				case <-done:
				}
			}))
			t.Cleanup(func() { close(done); srv.Close() })

			var stdout, stderr bytes.Buffer
			cmd := r.command("-c", "yoimem.consolidate.model=anthropic:claude-test", "-c", "yoimem.llm.anthropicBaseURL="+srv.URL, "consolidate")
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			exited := make(chan struct{})
			go func() { _ = cmd.Wait(); close(exited) }()
			t.Cleanup(func() { _ = cmd.Process.Kill(); <-exited })
			select {
			case <-asked:
			case <-exited:
				t.Fatalf("consolidate ended before it asked the model:\n%s%s", stdout.String(), stderr.String())
			case <-time.After(30 * time.Second):
				t.Fatal("the model was not asked within 30 s")
			}
			if _, err := os.Stat(r.path(filepath.Join(".yoi", "memory", "_staging", "consolidate.lock"))); err != nil {
				t.Fatalf("no lock while the run works: %v", err)
			}
			if err := cmd.Process.Signal(sig); err != nil {
				t.Fatal(err)
			}
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
				t.Fatalf("git-yoimem still runs 10 s after %v", sig)
			}
			if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(stderr.String(), "git-yoimem: interrupted") {
				t.Errorf("after %v: exit %d, want 130 and \"interrupted\"\n%s%s", sig, code, stdout.String(), stderr.String())
			}
			if _, err := os.Stat(r.path(entry)); err != nil {
				t.Errorf("the staging entry is gone: %v", err)
			}
			if _, err := os.Stat(r.path(filepath.Join(".yoi", "memory", "_staging", "consolidate.lock"))); err == nil {
				t.Error("the lock is still there")
			}
			if out, err := r.command("log").Output(); err != nil || strings.Contains(string(out), "commit ") {
				t.Errorf("a memory commit was made: %s %v", out, err)
			}
		})
	}
}
