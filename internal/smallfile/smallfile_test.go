package smallfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	ok := filepath.Join(dir, "ok.json")
	if err := os.WriteFile(ok, []byte(`{"a":1}`), 0o644); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big.json")
	if err := os.WriteFile(big, []byte(strings.Repeat("x", 101)), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if b, err := Read(ok, 100); err != nil || string(b) != `{"a":1}` {
		t.Errorf("Read(ok) = %q, %v", b, err)
	}
	if _, err := Read(filepath.Join(dir, "none"), 100); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Read(missing) = %v; want ErrNotExist", err)
	}
	if _, err := Read(big, 100); err == nil || !strings.Contains(err.Error(), "is 101 bytes, over the limit of 100") {
		t.Errorf("Read(big) = %v; want the size and the limit named", err)
	}
	if _, err := Read(fifo, 100); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Read(fifo) = %v; want it named, not waited on", err)
	}
	if _, err := Read(dir, 100); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Read(dir) = %v", err)
	}
}
