//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/internal/capture"
	"github.com/yoimem/git-yoimem/internal/fixture"
)

// Hostile peers: a model command printing gigabytes, a loose object that
// inflates to gigabytes past the size its header declares. Each test runs
// the real program (the test binary as git-yoimem) as a child and reads
// its peak RSS from wait4's rusage: every read is bounded by a limit, so
// it stays far below what the peer sends.

// rssLimit is the peak RSS the issue allows the reader.
const rssLimit = 256 << 20

// runMeasured runs git-yoimem to the end (bounded) and returns what it
// printed, its exit status and its peak RSS.
func (r *extractRepo) runMeasured(args ...string) (stdout, stderr string, code int, rss int64) {
	r.t.Helper()
	cmd := r.command(args...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		r.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(120 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		r.t.Fatalf("git-yoimem %s: still running after 120s", strings.Join(args, " "))
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		r.t.Fatal(err)
	}
	return out.String(), errb.String(), code, fixture.PeakRSS(cmd)
}

func (r *extractRepo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// TestPreCommitLooseObjectBomb: a staged record whose loose object's
// header says 203 bytes but which inflates to 3 GB (from 3 MB on disk) is
// reported as a corrupt object, naming it, by a hook that reads at most
// the declared size and one byte more.
func TestPreCommitLooseObjectBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("writes a 3 MB object")
	}
	r := newExtractRepo(t)
	bomb, err := fixture.ZlibBomb("blob 203\x00", 3<<30)
	if err != nil {
		t.Fatal(err)
	}
	const hash = "deadbeefdeadbeefdeadbeefdeadbeefdeadbeef"
	obj := r.path(filepath.Join(".git", "objects", hash[:2], hash[2:]))
	if err := os.MkdirAll(filepath.Dir(obj), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(obj, bomb, 0o444); err != nil {
		t.Fatal(err)
	}
	r.git("update-index", "--add", "--cacheinfo", "100644,"+hash+",.yoi/knowledge/bomb.md")
	stdout, stderr, code, rss := r.runMeasured("hook", "pre-commit")
	t.Logf("pre-commit over a %s-byte object inflating to 3 GiB: exit %d, peak RSS %s bytes", capture.Thousands(int64(len(bomb))), code, capture.Thousands(rss))
	if code != 1 || !strings.Contains(stderr, ".yoi/knowledge/bomb.md:1:1: error read-error") || !strings.Contains(stderr, "object "+hash) || !strings.Contains(stderr, "203") {
		t.Errorf("exit %d, want 1 with a read error naming the object and its declared size\n%s%s", code, stdout, stderr)
	}
	if rss <= 0 || rss > rssLimit {
		t.Errorf("peak RSS %s bytes, want under %s", capture.Thousands(rss), capture.Thousands(rssLimit))
	}
}
