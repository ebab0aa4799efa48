//go:build linux

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gofrs/flock"
)

// ccLockFile is the in-flight lock of the Claude Code fixture's session.
var ccLockFile = filepath.Join(".git", "yoimem", "extract", "claude-code-"+ccSession+"-session.lock")

// procAlive reports whether pid runs (a zombie waiting for a parent that
// does not reap it has stopped).
func procAlive(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	s := string(stat)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
	return len(f) > 0 && f[0] != "Z" && f[0] != "X"
}

// waitGone waits up to 10 s for pid to stop.
func waitGone(t *testing.T, what string, pid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); procAlive(pid); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("%s (pid %d) still runs 10 s later", what, pid)
		}
	}
}

// lockFree reports whether the session's in-flight lock can be taken.
func (r *extractRepo) lockFree() bool {
	l := flock.New(r.path(ccLockFile))
	ok, err := l.TryLock()
	if ok {
		l.Unlock()
	}
	return ok && err == nil
}

// TestExtractSignals: SIGHUP, SIGTERM and SIGINT stop a run that waits
// for its model: exit 130 and "interrupted", the model's process group
// killed, the in-flight lock released, nothing moved.
func TestExtractSignals(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGHUP, syscall.SIGTERM, syscall.SIGINT} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			r := newExtractRepo(t)
			r.mustRun("extract", "--log", "session.jsonl", "--check")
			before := r.read(ccStateFile)
			var stdout, stderr bytes.Buffer
			cmd, exited, modelPID := r.startBlocked(&stdout, &stderr)
			if r.lockFree() {
				t.Fatal("the lock is free while a run is in flight")
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
				t.Errorf("after %v: exit %d (%v), want 130 and \"interrupted\"\n%s%s", sig, code, cmd.ProcessState, stdout.String(), stderr.String())
			}
			waitGone(t, "the model", modelPID)
			if !r.lockFree() {
				t.Error("the in-flight lock is still held")
			}
			r.assertNothingMoved(before)
		})
	}
}

// TestExtractGitWrapperKilled: `git yoimem extract` runs git-yoimem as
// git's child; when that git is killed (kill -9: it cannot pass anything
// on), git-yoimem and its model stop too, and the lock is released.
func TestExtractGitWrapperKilled(t *testing.T) {
	t.Parallel()
	r := newExtractRepo(t)
	r.mustRun("extract", "--log", "session.jsonl", "--check")
	before := r.read(ccStateFile)
	model, pidFile := r.gateModel()
	git := exec.Command("git", "yoimem", "extract", "--log", "session.jsonl", "--force", "--model", model)
	git.Dir, git.Env = r.dir, r.env
	// A file, not a pipe: git-yoimem would hold a pipe open after git died,
	// and Wait would wait for it.
	outFile, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer outFile.Close()
	git.Stdout, git.Stderr = outFile, outFile
	out := func() string { b, _ := os.ReadFile(outFile.Name()); return string(b) }
	if err := git.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { _ = git.Wait(); close(exited) }()
	t.Cleanup(func() { _ = git.Process.Kill(); <-exited })
	waitFor(t, pidFile, exited)
	var modelPID int
	if _, err := fmt.Sscan(r.read("model.pid"), &modelPID); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(modelPID, syscall.SIGKILL) })
	var children []byte
	children, err = os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", git.Process.Pid, git.Process.Pid))
	if err != nil {
		t.Skipf("no /proc children list: %v", err)
	}
	f := strings.Fields(string(children))
	if len(f) != 1 {
		t.Fatalf("git's children: %q, want git-yoimem alone\n%s", f, out())
	}
	yoimemPID, _ := strconv.Atoi(f[0])
	t.Cleanup(func() { _ = syscall.Kill(yoimemPID, syscall.SIGKILL) })

	if err := git.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	waitGone(t, "git-yoimem", yoimemPID)
	waitGone(t, "the model", modelPID)
	if !r.lockFree() {
		t.Error("the in-flight lock is still held")
	}
	r.assertNothingMoved(before)
	if !strings.Contains(out(), "git-yoimem: interrupted") {
		t.Errorf("git-yoimem did not stop as interrupted:\n%s", out())
	}
}

// TestDetachedRunSurvivesItsStarter: a run started by anything but git
// (an agent hook starting a detached background run) does not stop when
// its starter exits.
func TestDetachedRunSurvivesItsStarter(t *testing.T) {
	t.Parallel()
	r := newExtractRepo(t)
	r.mustRun("extract", "--log", "session.jsonl", "--check")
	model, pidFile := r.gateModel()
	// sh starts git-yoimem in the background and exits at once.
	starter := exec.Command("sh", "-c", `"$0" extract --log session.jsonl --force --model "$1" >run.out 2>&1 & echo $! > yoimem.pid`, r.bin, model)
	starter.Dir, starter.Env = r.dir, r.env
	if out, err := starter.CombinedOutput(); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	waitFor(t, pidFile, nil)
	var pid int
	if _, err := fmt.Sscan(r.read("yoimem.pid"), &pid); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	time.Sleep(300 * time.Millisecond) // a pdeathsig would have fired by now
	if !procAlive(pid) {
		t.Fatalf("the detached run stopped with its starter:\n%s", r.read("run.out"))
	}
	r.write("release", "")
	waitGone(t, "the detached run", pid)
	if out := r.read("run.out"); !strings.Contains(out, "extracted entries 1-32: ") {
		t.Errorf("the detached run:\n%s", out)
	}
}
