package handler

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestStateFilesBounded: a status file or a pending job that is a FIFO,
// a directory or huge is named as such, never waited on or read whole
// (before: os.ReadFile blocked on a FIFO for ever, and read any size).
func TestStateFilesBounded(t *testing.T) {
	dir := t.TempDir()
	runs := filepath.Join(dir, "runs", "claude-code")
	if err := os.MkdirAll(runs, 0o755); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(runs, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	huge := filepath.Join(runs, "huge.json")
	if err := os.WriteFile(huge, []byte(`{"agent":"`+strings.Repeat("x", maxStateBytes)+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { _, err := LastRuns(dir); done <- err }()
	select {
	case err := <-done:
		var se *StatusFileError
		if !errors.As(err, &se) || !strings.Contains(err.Error(), "not a regular file") || !strings.Contains(err.Error(), "over the limit") {
			t.Errorf("LastRuns: %v; want both files named", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("LastRuns waited on a FIFO")
	}
	pending := filepath.Join(dir, "pending.fifo")
	if err := syscall.Mkfifo(pending, 0o644); err != nil {
		t.Fatal(err)
	}
	go func() { _, _, err := take(pending); done <- err }()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("take of a FIFO: %v; want it named", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("take waited on a FIFO")
	}
}
