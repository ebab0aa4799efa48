package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkWorktreeSnapshotKnowledge lists a knowledge/ of 3,500 records,
// as a search of the bench corpus does (most of a warm search).
func BenchmarkWorktreeSnapshotKnowledge(b *testing.B) {
	root := b.TempDir()
	dir := filepath.Join(root, ".yoi", "knowledge")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		b.Fatal(err)
	}
	for i := range 3500 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("record-%04d-about-something.md", (i*7919)%10000)), []byte("x\n"), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		snap, err := WorktreeSnapshotOf(root, 0, "knowledge")
		if err != nil || len(snap.Entries) != 3500 {
			b.Fatalf("%d entries, %v", len(snap.Entries), err)
		}
	}
}
