package consolidate

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/record"
)

func stagingFile(t testing.TB, id, session string, from, to int, act extract.Activity) []byte {
	t.Helper()
	s := extract.Staging{Version: extract.StagingVersion, ID: id, CreatedAt: now, Source: extract.Source{SessionID: session, Range: [2]int{from, to}}, Agent: "native", Activity: act}
	b, err := s.Marshal()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestReadEntries: the consumed entries are read in ID order; a file that
// does not parse, names another ID, is too large or is missing is
// reported with its path and why, left in place, and not consumed.
func TestReadEntries(t *testing.T) {
	dir := t.TempDir()
	put := func(name string, b []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put(id2+".json", stagingFile(t, id2, "s2", 1, 5, extract.Activity{}))
	put(id1+".json", stagingFile(t, id1, "s1", 3, 9, extract.Activity{}))
	put(id3+".json", []byte("{not json"))
	version := "0194d29f-0c00-7000-8000-000000000008"
	put(version+".json", []byte(`{"version": 9, "id": "`+version+`"}`))
	other := "0194d29f-0c00-7000-8000-000000000004"
	put(other+".json", stagingFile(t, id1, "s1", 3, 9, extract.Activity{}))
	big := "0194d29f-0c00-7000-8000-000000000005"
	put(big+".json", append(stagingFile(t, big, "s5", 1, 2, extract.Activity{}), make([]byte, 4096)...))
	missing := "0194d29f-0c00-7000-8000-000000000006"
	if err := os.Symlink(filepath.Join(dir, id1+".json"), filepath.Join(dir, "0194d29f-0c00-7000-8000-000000000007.json")); err != nil {
		t.Fatal(err)
	}
	ids := []string{version, id3, id2, id1, other, big, missing, "0194d29f-0c00-7000-8000-000000000007", "../escape", id1}
	entries, problems := ReadEntries(dir, ids, 4096)
	var got []string
	for _, e := range entries {
		got = append(got, e.ID)
	}
	if !slices.Equal(got, []string{id1, id2}) {
		t.Errorf("entries = %v, want %s and %s in order", got, id1, id2)
	}
	want := map[string]string{
		id3:                                    "invalid character",
		other:                                  `names entry "` + id1 + `"`,
		version:                                "version 9; this git-yoimem reads version 1",
		big:                                    "over the limit of 4,096",
		missing:                                "no such file",
		"0194d29f-0c00-7000-8000-000000000007": "not a regular file",
		"../escape":                            "not a staging entry ID",
	}
	if len(problems) != len(want) {
		t.Errorf("%d problems, want %d: %v", len(problems), len(want), problems)
	}
	for _, p := range problems {
		w, ok := want[p.ID]
		if !ok || !strings.Contains(p.Err.Error(), w) {
			t.Errorf("problem %s: %v; want it to say %q", p.ID, p.Err, w)
		}
		if p.ID != "../escape" && !strings.Contains(p.Error(), ".yoi/memory/_staging/"+p.ID+".json") {
			t.Errorf("problem does not name its file: %v", p)
		}
	}
	for _, name := range []string{id3, other, big, version} {
		if _, err := os.Stat(filepath.Join(dir, name+".json")); err != nil {
			t.Errorf("a bad entry was not left in place: %v", err)
		}
	}
}

// TestBaseSnapshot: the base is the tree the commit will be written on
// (the base branch tip, then the unmerged memory tip), never the working
// tree.
func TestBaseSnapshot(t *testing.T) {
	r := newTestRepo(t, map[string]string{".yoi/knowledge/a.md": "committed\n"})
	m := r.branch(t)
	ctx := context.Background()
	r.write(t, ".yoi/knowledge/a.md", "edited in the working tree\n")
	r.write(t, ".yoi/knowledge/new.md", "untracked\n")
	commit, snap, err := BaseSnapshot(ctx, m, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if main := r.git(t, "rev-parse", "main"); commit != main {
		t.Errorf("base commit %s, want main %s", commit, main)
	}
	if b, err := snap.Read("knowledge/a.md"); err != nil || string(b) != "committed\n" {
		t.Errorf("base reads %q, %v; want the committed content", b, err)
	}
	if _, ok := snap.Lookup("knowledge/new.md"); ok {
		t.Error("an untracked file is in the base")
	}
	var cs record.ChangeSet
	_ = cs.Put(record.Change{Path: "knowledge/b.md", Content: []byte("on the memory branch\n")})
	res, err := m.Commit(ctx, gitstore.CommitRequest{Changes: &cs, Message: "yoimem: test\n\nYoimem-Run: r\nYoimem-Engine: rules\nYoimem-Categories: outdated=0 superseded=0 unused=0 noisy=0\n", Author: gitstore.Signature{Name: "a", Email: "b", When: now}})
	if err != nil {
		t.Fatal(err)
	}
	commit, snap, err = BaseSnapshot(ctx, m, 1<<20)
	if err != nil || commit != res.Commit {
		t.Fatalf("base after a memory commit: %s, %v; want %s", commit, err, res.Commit)
	}
	if b, err := snap.Read("knowledge/b.md"); err != nil || string(b) != "on the memory branch\n" {
		t.Errorf("base reads %q, %v", b, err)
	}
}

// TestLockedPaths: records whose working-tree file is read-only, and the
// paths or patterns the configuration lists (as printed or .yoi/-relative;
// a pattern matching a directory locks what is under it), matched against
// the records of the working tree and of the base.
func TestLockedPaths(t *testing.T) {
	r := newTestRepo(t, map[string]string{
		".yoi/knowledge/ro.md":            "x\n",
		".yoi/knowledge/rw.md":            "x\n",
		".yoi/memory/decisions/ro-dec.md": "x\n",
		".yoi/memory/decisions/db-old.md": "x\n",
		".yoi/memory/_staging/entry.json": "{}",
		".yoi/workflow/deploy.md":         "x\n",
	})
	for _, p := range []string{".yoi/knowledge/ro.md", ".yoi/memory/decisions/ro-dec.md", ".yoi/memory/_staging/entry.json", ".yoi/workflow/deploy.md"} {
		if err := os.Chmod(filepath.Join(r.dir, filepath.FromSlash(p)), 0o444); err != nil {
			t.Fatal(err)
		}
	}
	base := record.MapSnapshot(map[string][]byte{
		"memory/decisions/db-new.md": []byte("x\n"), // on the memory branch only
		"memory/requests/a.md":       []byte("x\n"),
		"knowledge/other.md":         []byte("x\n"),
	})
	locked, patterns, err := LockedPaths(r.dir, base, []string{".yoi/knowledge/cfg.md", " memory/decisions/db-*.md ", "memory/requests/"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for p, ok := range locked {
		if ok {
			got = append(got, p)
		}
	}
	slices.Sort(got)
	want := []string{"knowledge/cfg.md", "knowledge/ro.md", "memory/decisions/db-new.md", "memory/decisions/db-old.md", "memory/decisions/ro-dec.md", "memory/requests/a.md"}
	if !slices.Equal(got, want) {
		t.Errorf("locked = %v, want %v", got, want)
	}
	if !slices.Equal(patterns, []string{"knowledge/cfg.md", "memory/decisions/db-*.md", "memory/requests"}) {
		t.Errorf("patterns = %v", patterns)
	}
	for _, bad := range []string{"../outside.md", "memory/[x", "a.md, b.md"} {
		if _, _, err := LockedPaths(r.dir, base, []string{bad}); err == nil || !strings.Contains(err.Error(), bad) {
			t.Errorf("locked path %q: %v", bad, err)
		}
	}
	none, _, err := LockedPaths(filepath.Join(r.dir, "src"), record.MapSnapshot(nil), nil)
	if err != nil || len(none) != 0 {
		t.Errorf("a workspace without .yoi/: %v, %v", none, err)
	}
}
