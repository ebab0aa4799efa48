package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/gofrs/flock"
	"github.com/yoimem/git-yoimem/record"
)

func newStore(t *testing.T) (*WorktreeStore, string) {
	t.Helper()
	root := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".yoi", "knowledge"), 0o755); err != nil {
		t.Fatal(err)
	}
	return &WorktreeStore{Root: root, LockFile: filepath.Join(t.TempDir(), "yoimem", "records.lock")}, root
}

func TestWorktreeStore(t *testing.T) {
	s, root := newStore(t)
	outside := t.TempDir()
	if err := s.Write("memory/decisions/a.md", []byte("A"), ""); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, ".yoi/memory/decisions/a.md")); string(b) != "A" {
		t.Fatalf("content %q", b)
	}
	if err := os.Symlink(outside, filepath.Join(root, ".yoi", "memory", "requests")); err != nil {
		t.Fatal(err)
	}
	if err := s.Write("memory/requests/r.md", []byte("R"), ""); err == nil {
		t.Fatal("wrote through a symlinked directory")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("wrote outside .yoi/: %v", entries)
	}
	for _, bad := range []string{"../x.md", "/etc/passwd", "knowledge/.git/config"} {
		if err := s.Write(bad, []byte("x"), ""); err == nil {
			t.Errorf("wrote %q", bad)
		}
	}
	if err := s.Delete("memory/decisions/a.md", record.BlobID([]byte("A"))); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".yoi/memory/decisions/a.md")); !os.IsNotExist(err) {
		t.Fatal("not deleted")
	}
}

// TestWorktreeStoreKeepsMode: replacing a record keeps its permission bits
// (an executable bit git tracks, a mode its owner narrowed); a new record
// is 0644.
func TestWorktreeStoreKeepsMode(t *testing.T) {
	s, root := newStore(t)
	for _, mode := range []os.FileMode{0o755, 0o640, 0o600} {
		const p = "knowledge/k.md"
		file := filepath.Join(root, ".yoi", p)
		if err := os.WriteFile(file, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(file, mode); err != nil {
			t.Fatal(err)
		}
		if err := s.Write(p, []byte("new"), record.BlobID([]byte("old"))); err != nil {
			t.Fatal(err)
		}
		if fi, err := os.Stat(file); err != nil || fi.Mode().Perm() != mode {
			t.Errorf("mode %v after a write over a %v file (%v)", fi.Mode().Perm(), mode, err)
		}
	}
	if err := s.Write("knowledge/new.md", []byte("n"), ""); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(root, ".yoi", "knowledge", "new.md")); fi.Mode().Perm() != 0o644 {
		t.Errorf("new record: mode %v", fi.Mode().Perm())
	}
}

// TestWorktreeStoreChanged: a write or delete whose file is no longer the
// version read is refused with record.ErrChanged and changes nothing.
func TestWorktreeStoreChanged(t *testing.T) {
	s, root := newStore(t)
	const p = "knowledge/k.md"
	file := filepath.Join(root, ".yoi", p)
	if err := os.WriteFile(file, []byte("now"), 0o644); err != nil {
		t.Fatal(err)
	}
	read := record.BlobID([]byte("before"))
	tests := []struct {
		name string
		op   func() error
	}{
		{"write over a file read as absent", func() error { return s.Write(p, []byte("new"), "") }},
		{"write over another version", func() error { return s.Write(p, []byte("new"), read) }},
		{"delete another version", func() error { return s.Delete(p, read) }},
		{"write where the file is gone", func() error { return s.Write("knowledge/gone.md", []byte("new"), read) }},
		{"delete a file gone", func() error { return s.Delete("knowledge/gone.md", read) }},
	}
	for _, tt := range tests {
		if err := tt.op(); !errors.Is(err, record.ErrChanged) {
			t.Errorf("%s: %v, want record.ErrChanged", tt.name, err)
		}
		if b, _ := os.ReadFile(file); string(b) != "now" {
			t.Fatalf("%s: the file holds %q", tt.name, b)
		}
	}
	if err := s.Write(p, []byte("new"), record.BlobID([]byte("now"))); err != nil {
		t.Fatal(err)
	}
}

// TestWorktreeStoreLock: the writers' lock excludes other processes (an
// flock of the same file) and waits a bounded time, or until the context
// ends.
func TestWorktreeStoreLock(t *testing.T) {
	s, _ := newStore(t)
	s.LockWait = 100 * time.Millisecond
	unlock, err := s.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	other := flock.New(s.LockFile)
	if ok, err := other.TryLock(); !ok || err != nil {
		t.Fatalf("the lock is still held after unlock: %v", err)
	}
	if _, err := s.Lock(context.Background()); !errors.Is(err, ErrRecordsLocked) {
		t.Errorf("Lock while another holds it = %v, want ErrRecordsLocked", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	s.LockWait = time.Hour
	if _, err := s.Lock(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Lock with a cancelled context = %v, want context.Canceled", err)
	}
	other.Unlock()
	if unlock, err := s.Lock(context.Background()); err != nil {
		t.Errorf("Lock after the other let go: %v", err)
	} else {
		unlock()
	}
}
