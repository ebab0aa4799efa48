//go:build unix

package gitstore

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestWorktreeSnapshotReadIntoNoFollow: ReadFileInto, like Read, does not
// follow a listed directory swapped for a symlink after the listing.
func TestWorktreeSnapshotReadIntoNoFollow(t *testing.T) {
	root := newWorkspace(t)
	y := mkdirAll(t, root, ".yoi")
	writeFile(t, root, "outside/secret.md", []byte(secretText), 0o644)
	writeFile(t, y, "knowledge/secret.md", []byte("# harmless\n"), 0o644)
	snap := mustSnapshot(t, root, 0)
	if err := os.Rename(filepath.Join(y, "knowledge"), filepath.Join(root, "old")); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(root, "outside"), filepath.Join(y, "knowledge"))
	got, err := snap.ReadFileInto("knowledge/secret.md", make([]byte, 0, 4096))
	if err == nil || bytes.Contains(got, []byte("SECRET")) {
		t.Fatalf("ReadFileInto followed a symlinked directory: %q, %v", got, err)
	}
}
