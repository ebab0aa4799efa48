package gitstore

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unsafe"

	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/yoimem/git-yoimem/record"
)

// TestStagedDiffAllocations: comparing a large directory of the index
// with HEAD's tree costs allocations for what changed, not for every entry
// (the pre-commit hook runs this on each commit, on knowledge/ of
// thousands of records).
func TestStagedDiffAllocations(t *testing.T) {
	dir, env := newRepo(t)
	for i := 0; i < 1000; i++ {
		writeFile(t, dir, fmt.Sprintf(".yoi/knowledge/record-%04d.md", i), []byte(fmt.Sprintf("record %d\n", i)), 0o644)
	}
	runGit(t, dir, env, "add", "-A")
	runGit(t, dir, env, "commit", "-q", "-m", "many")
	writeFile(t, dir, ".yoi/knowledge/record-0517.md", []byte("changed\n"), 0o644)
	runGit(t, dir, env, "add", ".yoi")
	objs := objectsOf(t, dir, env)
	idx := mustParseIndex(t, filepath.Join(dir, ".git/index"), ".yoi")
	head, err := objs.headDir(".yoi")
	if err != nil {
		t.Fatal(err)
	}
	var changed, deleted []string
	allocs := testing.AllocsPerRun(5, func() {
		changed, deleted, err = objs.stagedDiff(idx, ".yoi", head)
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(changed, []string{".yoi/knowledge/record-0517.md"}) || deleted != nil {
		t.Errorf("stagedDiff = %q, %q; want the one change", changed, deleted)
	}
	// Reading the trees costs a few dozen; one per entry would be 1,000.
	if allocs > 300 {
		t.Errorf("stagedDiff of a 1,000-file directory with one change: %.0f allocations, want at most 300", allocs)
	}
}

// TestStagedFastUnsortedTree: a HEAD tree whose entries are out of git's
// order (written by a broken tool) cannot be compared in one pass; the
// fast path declines and git answers.
func TestStagedFastUnsortedTree(t *testing.T) {
	dir, env := newRepo(t)
	a := runGitInput(t, dir, env, []byte("a\n"), "hash-object", "-w", "--stdin")
	b := runGitInput(t, dir, env, []byte("b\n"), "hash-object", "-w", "--stdin")
	// knowledge/ with b.md before a.md.
	var raw strings.Builder
	for _, e := range []struct{ name, hash string }{{"b.md", b}, {"a.md", a}} {
		raw.WriteString("100644 " + e.name + "\x00")
		raw.Write(hashBytes(t, e.hash))
	}
	know := runGitInput(t, dir, env, []byte(raw.String()), "hash-object", "-w", "-t", "tree", "--literally", "--stdin")
	yoi := runGitInput(t, dir, env, []byte("040000 tree "+know+"\tknowledge\n"), "mktree")
	root := runGitInput(t, dir, env, []byte("040000 tree "+yoi+"\t.yoi\n"), "mktree")
	commit := runGit(t, dir, env, "commit-tree", root, "-m", "unsorted")
	runGit(t, dir, env, "update-ref", "HEAD", commit)
	runGit(t, dir, env, "read-tree", "HEAD")
	writeFile(t, dir, ".yoi/knowledge/c.md", []byte("c\n"), 0o644)
	runGit(t, dir, env, "add", ".yoi/knowledge/c.md")
	if _, _, _, err := StagedFast(objectsOf(t, dir, env), filepath.Join(dir, ".git/index"), ".yoi"); err == nil {
		t.Errorf("StagedFast on a HEAD tree out of order: no error, want one (git must answer)")
	}
}

func hashBytes(t *testing.T, hex string) []byte {
	t.Helper()
	var b []byte
	if _, err := fmt.Sscanf(hex, "%x", &b); err != nil || len(b) != 20 {
		t.Fatalf("hash %q: %v", hex, err)
	}
	return b
}

// TestStagedEntriesOrder: the listing of the staged .yoi/ is the entries
// and their directories in path order, as sorting them all would give,
// for names that sort around the slash.
func TestStagedEntriesOrder(t *testing.T) {
	paths := []string{"a", "a-b/c.md", "a.md", "a/b/c.md", "a/b-c/d.md", "a/b.md", "a/b/d/e.md", "a0/x", "b/c/d/e/f.md", "b/c0", "é/x.md", "z"}
	idx := &indexFile{}
	var want []record.Entry
	for _, p := range paths {
		idx.entries = append(idx.entries, indexEntry{path: ".yoi/" + p, mode: filemode.Regular})
		want = append(want, record.Entry{Path: p, Mode: record.ModeRegular, Size: -1})
	}
	slices.SortFunc(idx.entries, func(a, b indexEntry) int { return strings.Compare(a.path, b.path) })
	ref := record.Snapshot{Entries: withDirs(want)}
	ref.Sort()
	if got := stagedEntries(idx, ".yoi"); !reflect.DeepEqual(got, ref.Entries) {
		t.Errorf("stagedEntries:\n got %v\nwant %v", got, ref.Entries)
	}
}

// TestParseIndexAllocations: reading the index costs allocations for the
// file and the listing, not one per entry under the prefix (the hook
// reads an index of 10,000 records on every commit).
func TestParseIndexAllocations(t *testing.T) {
	dir, env := newRepo(t)
	for i := 0; i < 1000; i++ {
		writeFile(t, dir, fmt.Sprintf(".yoi/knowledge/record-%04d.md", i), []byte(fmt.Sprintf("record %d\n", i)), 0o644)
	}
	runGit(t, dir, env, "add", "-A")
	file := filepath.Join(dir, ".git/index")
	var idx *indexFile
	var err error
	allocs := testing.AllocsPerRun(5, func() { idx, err = parseIndex(file, ".yoi") })
	if err != nil {
		t.Fatal(err)
	}
	if len(idx.entries) != 1000 || idx.entries[517].path != ".yoi/knowledge/record-0517.md" {
		t.Fatalf("parseIndex: %d entries, entry 517 %q", len(idx.entries), idx.entries[517].path)
	}
	if allocs > 100 {
		t.Errorf("parseIndex of 1,000 entries: %.0f allocations, want at most 100", allocs)
	}
}

// TestParseIndexBytes: the listing parseIndex makes is allocated to size
// (its entries and one string of names), and the file is mapped, not read
// into the heap: memory a short-lived hook process pays for in page
// faults.
func TestParseIndexBytes(t *testing.T) {
	dir, env := newRepo(t)
	for i := 0; i < 1000; i++ {
		writeFile(t, dir, fmt.Sprintf(".yoi/knowledge/record-%04d.md", i), []byte(fmt.Sprintf("record %d\n", i)), 0o644)
	}
	for i := 0; i < 1000; i++ {
		writeFile(t, dir, fmt.Sprintf("src/file-%04d.go", i), []byte("package src\n"), 0o644)
	}
	runGit(t, dir, env, "add", "-A")
	file := filepath.Join(dir, ".git/index")
	if fi, err := os.Stat(file); err != nil || fi.Size() < 64<<10 {
		t.Fatalf("index: %v, %v (the test needs one that is mapped)", fi, err)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	idx, err := parseIndex(file, ".yoi")
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatal(err)
	}
	names := 0
	for _, e := range idx.entries {
		names += len(e.path)
	}
	// Per entry under .yoi/ the entry, its name and an offset; a little
	// for the cache tree and the checksum's goroutine.
	limit := int64(len(idx.entries))*int64(unsafe.Sizeof(indexEntry{})+8) + int64(names) + 16<<10
	if got := int64(after.TotalAlloc - before.TotalAlloc); got > limit {
		t.Errorf("parseIndex of %d entries (%d under .yoi/) allocated %d bytes, want at most %d", 2000, len(idx.entries), got, limit)
	}
}
