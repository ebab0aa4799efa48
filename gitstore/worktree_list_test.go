package gitstore

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// TestWorktreeSnapshotListError: a directory read that fails, even with
// no entries, fails the listing instead of giving part of it.
func TestWorktreeSnapshotListError(t *testing.T) {
	root := newWorkspace(t)
	y := mkdirAll(t, root, ".yoi/knowledge")
	writeFile(t, y, "a.md", []byte("a\n"), 0o644)
	errIO := errors.New("input/output error")
	failing := func(d *os.File, buf []byte) ([]dirEntry, error) {
		des, err := readDirents(d, buf)
		if filepath.Base(d.Name()) == "knowledge" && errors.Is(err, io.EOF) {
			return nil, errIO // the rest of the directory could not be read
		}
		return des, err
	}
	snap, err := worktreeSnapshot(failing, root, 0)
	if !errors.Is(err, errIO) {
		t.Fatalf("WorktreeSnapshot = %v, %v; want %v", entryPaths(snap), err, errIO)
	}
	if !strings.Contains(err.Error(), y) {
		t.Errorf("error %q does not name the directory %s", err, y)
	}
}

// TestWorktreeSnapshotVanished: a file removed between reading the
// directory and stat'ing it (an editor's temporary file renamed away) is
// gone from the listing, not an error.
func TestWorktreeSnapshotVanished(t *testing.T) {
	root := newWorkspace(t)
	y := mkdirAll(t, root, ".yoi/knowledge")
	writeFile(t, y, "a.md", []byte("a\n"), 0o644)
	writeFile(t, y, ".a.md.swp", []byte("tmp\n"), 0o644)
	writeFile(t, y, "b.md", []byte("b\n"), 0o644)
	racing := func(d *os.File, buf []byte) ([]dirEntry, error) {
		des, err := readDirents(d, buf)
		if filepath.Base(d.Name()) == "knowledge" && len(des) > 0 {
			if err := os.Rename(filepath.Join(y, ".a.md.swp"), filepath.Join(root, "elsewhere")); err != nil {
				t.Error(err)
			}
		}
		return des, err
	}
	snap, err := worktreeSnapshot(racing, root, 0)
	if err != nil {
		t.Fatalf("WorktreeSnapshot: %v", err)
	}
	want := []string{"knowledge", "knowledge/a.md", "knowledge/b.md"}
	if got := entryPaths(snap); !reflect.DeepEqual(got, want) {
		t.Errorf("listed %q, want %q", got, want)
	}
	if e := mustLookup(t, snap, "knowledge/b.md"); e.Size != 2 || e.Stamp.IsZero() {
		t.Errorf("b.md listed as %+v", e)
	}
}

// TestWorktreeSnapshotSubdirVanished: a directory removed between listing
// its parent and listing it is empty, not an error.
func TestWorktreeSnapshotSubdirVanished(t *testing.T) {
	root := newWorkspace(t)
	y := mkdirAll(t, root, ".yoi/knowledge/sub")
	writeFile(t, filepath.Dir(y), "a.md", []byte("a\n"), 0o644)
	removing := func(d *os.File, buf []byte) ([]dirEntry, error) {
		des, err := readDirents(d, buf)
		if filepath.Base(d.Name()) == "knowledge" && len(des) > 0 {
			if err := os.Remove(y); err != nil {
				t.Error(err)
			}
		}
		return des, err
	}
	snap, err := worktreeSnapshot(removing, root, 0)
	if err != nil {
		t.Fatalf("worktreeSnapshot: %v", err)
	}
	if _, ok := snap.Lookup("knowledge/a.md"); !ok {
		t.Errorf("listed %q without knowledge/a.md", entryPaths(snap))
	}
}

// TestWorktreeSnapshotOrder: the listing is in path order, subdirectories
// included ("sub-a.md" sorts between "sub" and "sub/x.md"), and many
// names read in several batches are all found by Lookup.
func TestWorktreeSnapshotOrder(t *testing.T) {
	root := newWorkspace(t)
	y := mkdirAll(t, root, ".yoi/knowledge/sub")
	k := filepath.Dir(y)
	writeFile(t, y, "x.md", []byte("x\n"), 0o644)
	writeFile(t, k, "sub-a.md", []byte("a\n"), 0o644)
	writeFile(t, k, "a.md", []byte("a\n"), 0o644)
	for i := range 1500 {
		writeFile(t, k, "r"+strconv.Itoa(i*7919%10000)+".md", []byte("r\n"), 0o644)
	}
	snap, err := WorktreeSnapshotOf(root, 0, "knowledge")
	if err != nil {
		t.Fatal(err)
	}
	paths := entryPaths(snap)
	if !slices.IsSorted(paths) {
		t.Errorf("listing not in path order")
	}
	if len(paths) != 1504 {
		t.Errorf("listed %d entries, want 1504", len(paths))
	}
	for _, p := range []string{"knowledge/a.md", "knowledge/sub", "knowledge/sub-a.md", "knowledge/sub/x.md", "knowledge/r7919.md"} {
		mustLookup(t, snap, p)
	}
}

// TestByName: names are ordered as their bytes are, whether they differ
// within their first eight bytes or after them, or one is the start of
// another.
func TestByName(t *testing.T) {
	names := []string{"b", "a", "abcdefgh", "abcdefg", "abcdefghi", "abcdefgh-", "abcdefgh.md", "é.md", "z", "A", "abcdefgg-zz", ".x"}
	var b []record.Entry
	for _, n := range names {
		b = append(b, record.Entry{Path: "knowledge/" + n})
	}
	var got []string
	for _, k := range byName([][]record.Entry{b[:5], b[5:]}, len(b), len("knowledge")) {
		got = append(got, b[int(k.batch)*5+int(k.i)].Path)
	}
	want := slices.Clone(got)
	slices.Sort(want)
	if !slices.Equal(got, want) || len(got) != len(names) {
		t.Errorf("byName order %q, want %q", got, want)
	}
}
