package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// Ctrl-C while a command reads standard input, with real processes. Linux
// only: the test knows the process has read its input, and so has set up
// its signal handling, when the pipe is empty (FIONREAD).

const partialRecord = `---
kind: rule
description: The first half, see #r
model_invokation: false
user_invocable: true
created_at: 2026-01-05T09:30:00Z
updated_at: 2026-01-05T09:30:00Z
last_sources: []
---
The first half of a record.
`

// startReading starts git-yoimem with args, gives it partial input on a
// pipe it keeps open, and returns once the process has read that input:
// it is then blocked reading more, with its signal handling set up.
func startReading(t *testing.T, r *extractRepo, args ...string) (cmd *exec.Cmd, stdin *os.File, stdout, stderr *bytes.Buffer) {
	t.Helper()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd = r.command(args...)
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = pr, stdout, stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	t.Cleanup(func() { pw.Close(); _ = cmd.Process.Kill() })
	// A whole record as far as it goes: only the open input says more
	// may follow.
	if _, err := pw.WriteString(partialRecord); err != nil {
		t.Fatal(err)
	}
	// The pipe empties when the process reads it.
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		n, err := unix.IoctlGetInt(int(pw.Fd()), unix.TIOCINQ) // FIONREAD
		if err != nil {
			t.Skipf("FIONREAD on a pipe: %v", err)
		}
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("git-yoimem %s did not read its input", strings.Join(args, " "))
		}
	}
	return cmd, pw, stdout, stderr
}

// interrupt sends SIGINT and waits (bounded) for the process to end. The
// input stays open: a command that ignores the signal does not end.
func interrupt(t *testing.T, cmd *exec.Cmd, stdin *os.File) int {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		stdin.Close() // the input ends: what does it do with half a record?
		err = <-done
		t.Errorf("still running 30s after SIGINT; ended when its input did")
	}
	var ee *exec.ExitError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &ee):
		return ee.ExitCode()
	}
	t.Fatal(err)
	return -1
}

// TestMemoryWriteInterrupted: Ctrl-C while memory write reads its record
// from standard input stops it with 130 and writes nothing.
func TestMemoryWriteInterrupted(t *testing.T) {
	r := memoryRepo(t)
	cmd, stdin, _, stderr := startReading(t, r, "memory", "write", "knowledge/half.md")
	if code := interrupt(t, cmd, stdin); code != 130 {
		t.Errorf("exit %d, want 130; stderr:\n%s", code, stderr)
	}
	if !strings.Contains(stderr.String(), "git-yoimem: interrupted") {
		t.Errorf("stderr:\n%s", stderr)
	}
	if _, err := os.Stat(r.path(".yoi/knowledge/half.md")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("half a record written: %v", err)
	}
}

// TestExpandInterrupted: the same for expand, which prints nothing.
func TestExpandInterrupted(t *testing.T) {
	r := memoryRepo(t)
	cmd, stdin, stdout, stderr := startReading(t, r, "expand")
	if code := interrupt(t, cmd, stdin); code != 130 {
		t.Errorf("exit %d, want 130; stderr:\n%s", code, stderr)
	}
	if stdout.Len() > 0 {
		t.Errorf("printed a partial expansion:\n%s", stdout)
	}
}
