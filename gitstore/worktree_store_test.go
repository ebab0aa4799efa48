package gitstore

import (
	"os"
	"path/filepath"
	"testing"
)

func TestWorktreeStore(t *testing.T) {
	root := t.TempDir()
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, ".yoi", "knowledge"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := WorktreeStore{Root: root}
	if err := s.Write("memory/decisions/a.md", []byte("A")); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(root, ".yoi/memory/decisions/a.md")); string(b) != "A" {
		t.Fatalf("content %q", b)
	}
	if err := os.Symlink(outside, filepath.Join(root, ".yoi", "memory", "requests")); err != nil {
		t.Fatal(err)
	}
	if err := s.Write("memory/requests/r.md", []byte("R")); err == nil {
		t.Fatal("wrote through a symlinked directory")
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Fatalf("wrote outside .yoi/: %v", entries)
	}
	for _, bad := range []string{"../x.md", "/etc/passwd", "knowledge/.git/config"} {
		if err := s.Write(bad, []byte("x")); err == nil {
			t.Errorf("wrote %q", bad)
		}
	}
	if err := s.Delete("memory/decisions/a.md"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, ".yoi/memory/decisions/a.md")); !os.IsNotExist(err) {
		t.Fatal("not deleted")
	}
}
