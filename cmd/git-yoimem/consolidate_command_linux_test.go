package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestConsolidateCommandInterrupted: Ctrl-C while the agent CLI of a
// command: consolidation model is at work kills the CLI's process group
// (the CLI and the server it started), exits 130, commits nothing,
// keeps the staging and leaves no socket behind.
func TestConsolidateCommandInterrupted(t *testing.T) {
	r := newExtractRepo(t)
	binDir := filepath.Dir(r.bin)
	if err := os.Symlink(os.Args[0], filepath.Join(binDir, "agentstub")); err != nil {
		t.Fatal(err)
	}
	r.env = append(r.env, "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	staged := filepath.Join(".yoi", "memory", "_staging", "0194d29f-0c00-7000-8000-000000000001.json")
	if err := os.MkdirAll(r.path(filepath.Dir(staged)), 0o755); err != nil {
		t.Fatal(err)
	}
	r.write(staged, `{"version": 1, "id": "0194d29f-0c00-7000-8000-000000000001", "created_at": "2026-01-01T10:00:00Z",
 "source": {"session_id": "s1", "range": [1, 9]}, "agent": "native", "model": "recorded",
 "activity": {"decisions": [{"topic": "Retry checkout twice", "options": [], "chosen": "twice", "rationale": "flaky"}], "discussions": [], "attempts": [], "requests": []}}`)
	pidFile := filepath.Join(t.TempDir(), "pid")
	r.write("hang.json", `{"steps": [{"tool": "memory_read", "input": {"path": "memory/summary.md"}}], "sleep_seconds": 600, "pid_file": "`+pidFile+`"}`)
	r.git("config", "yoimem.consolidate.model", "command:agentstub --mcp-config {mcp_config} --script hang.json")

	cmd := r.command("consolidate")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	// The CLI has called a tool (the run's log says so): it is at work.
	runs := r.path(filepath.Join(".git", "yoimem", "runs"))
	for deadline := time.Now().Add(60 * time.Second); !called(runs); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the agent CLI made no tool call\n%s", stderr.String())
		}
	}
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("still running after the interrupt\n%s", stderr.String())
	}
	if code := cmd.ProcessState.ExitCode(); code != 130 || !strings.Contains(stderr.String(), "git-yoimem: interrupted") {
		t.Errorf("exit %d, stderr:\n%s", code, stderr.String())
	}
	if _, err := os.Stat(r.path(staged)); err != nil {
		t.Errorf("the staging entry is gone: %v", err)
	}
	verify := exec.Command("git", "rev-parse", "-q", "--verify", "yoimem/memory")
	verify.Dir, verify.Env = r.dir, r.env
	if out, err := verify.Output(); err == nil {
		t.Errorf("a memory commit was made: %s", out)
	}
	b, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(string(b))
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Errorf("the agent CLI (pid %d) outlived the interrupt: %v", pid, err)
	}
	entries, _ := os.ReadDir(runs)
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".sock") || strings.HasSuffix(e.Name(), ".addr") || e.IsDir() {
			t.Errorf("%s left in %s", e.Name(), runs)
		}
	}
}

// called says whether a run's log under runs records a tool call.
func called(runs string) bool {
	logs, _ := filepath.Glob(filepath.Join(runs, "*.log"))
	for _, l := range logs {
		if b, _ := os.ReadFile(l); bytes.Contains(b, []byte("\ntool memory_read")) {
			return true
		}
	}
	return false
}
