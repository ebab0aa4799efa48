package gitstore

import (
	"bytes"
	"context"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/yoimem/git-yoimem/record"
)

// This file checks StagedFast against git itself: in every scenario the
// staged changes must be what `git diff --cached --name-status` prints and
// the snapshot what `git ls-files --stage` lists, read from the same index.

// stagedBase is the content most scenarios start from; "->" marks a
// symlink, mode 0o755 an executable.
var stagedBase = []struct {
	path, content string
	perm          os.FileMode
}{
	{".yoi/top.md", "top\n", 0o644},
	{".yoi/knowledge/a.md", "a\n", 0o644},
	{".yoi/knowledge/b.md", "b\n", 0o644},
	{".yoi/knowledge/deep/c.md", "c\n", 0o644},
	{".yoi/decisions/d.md", "d\n", 0o644},
	{".yoi/tools/run.sh", "#!/bin/sh\n", 0o755},
	{".yoi/link", "->knowledge/a.md", 0},
	{".yoi.md", "not in .yoi\n", 0o644},
	{".yoi-other/x.md", "x\n", 0o644},
	{".yoi0/z.md", "z\n", 0o644},
	{"src/main.go", "package main\n", 0o644},
	{"sub/.yoi/knowledge/s.md", "s\n", 0o644},
	{"README.md", "readme\n", 0o644},
}

// stagedRepo makes a repository holding stagedBase, committed unless unborn.
func stagedRepo(t testing.TB, unborn bool) (dir string, env []string) {
	t.Helper()
	if unborn {
		root, e := newGitEnv(t)
		dir, env = filepath.Join(root, "repo"), e
		runGit(t, root, env, "init", "-q", dir)
	} else {
		dir, env = newRepo(t)
	}
	for _, f := range stagedBase {
		if target, ok := strings.CutPrefix(f.content, "->"); ok {
			mkdirAll(t, dir, filepath.Dir(f.path))
			if err := os.Symlink(target, filepath.Join(dir, f.path)); err != nil {
				t.Fatal(err)
			}
			continue
		}
		writeFile(t, dir, f.path, []byte(f.content), f.perm)
	}
	runGit(t, dir, env, "add", "-A")
	if !unborn {
		runGit(t, dir, env, "commit", "-q", "-m", "base")
	}
	return dir, env
}

// objectsOf opens the object store of the repository at dir.
func objectsOf(t testing.TB, dir string, env []string) *Objects {
	t.Helper()
	return openBranch(t, dir, env).Objects
}

// gitStaged is what git says is staged under prefix/, prefix-relative.
func gitStaged(t testing.TB, dir string, env []string, prefix string) (changed, deleted []string) {
	t.Helper()
	out := runGit(t, dir, env, "diff", "--cached", "--name-status", "--no-renames", "-z", "--", prefix+"/")
	return parseNameStatus(t, []byte(out), prefix)
}

func parseNameStatus(t testing.TB, out []byte, prefix string) (changed, deleted []string) {
	t.Helper()
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	if len(fields) == 1 && fields[0] == "" {
		return nil, nil
	}
	if len(fields)%2 != 0 {
		t.Fatalf("git diff --name-status -z: odd output %q", out)
	}
	for i := 0; i < len(fields); i += 2 {
		rel, ok := strings.CutPrefix(fields[i+1], prefix+"/")
		if !ok {
			t.Fatalf("git diff listed %q outside %s/", fields[i+1], prefix)
		}
		switch fields[i] {
		case "A", "M", "T":
			changed = append(changed, rel)
		case "D":
			deleted = append(deleted, rel)
		default:
			t.Fatalf("git diff: unexpected status %q for %s", fields[i], fields[i+1])
		}
	}
	slices.Sort(changed)
	slices.Sort(deleted)
	return changed, deleted
}

// stagedEntry is one line of `git ls-files --stage`.
type stagedEntry struct {
	mode, hash, stage, rel string
}

func gitLsStage(t testing.TB, dir string, env []string, prefix string) []stagedEntry {
	t.Helper()
	out := runGit(t, dir, env, "ls-files", "--stage", "-z", "--", prefix+"/")
	return parseLsStage(t, []byte(out), prefix)
}

func parseLsStage(t testing.TB, out []byte, prefix string) []stagedEntry {
	t.Helper()
	var es []stagedEntry
	for _, rec := range strings.Split(string(out), "\x00") {
		if rec == "" {
			continue
		}
		meta, p, ok := strings.Cut(rec, "\t")
		f := strings.Fields(meta)
		rel, inside := strings.CutPrefix(p, prefix+"/")
		if !ok || len(f) != 3 || !inside {
			t.Fatalf("git ls-files --stage: unexpected record %q", rec)
		}
		es = append(es, stagedEntry{mode: f[0], hash: f[1], stage: f[2], rel: rel})
	}
	return es
}

// catBlob is a blob's exact content, as git reads it.
func catBlob(t testing.TB, dir string, env []string, hash string) []byte {
	t.Helper()
	out, err := runGitErr(dir, env, "cat-file", "blob", hash)
	if err != nil {
		t.Fatal(err)
	}
	return []byte(out)
}

// catBlobs reads many blobs with one git process.
func catBlobs(t testing.TB, dir string, env []string, hashes []string) [][]byte {
	t.Helper()
	if len(hashes) == 0 {
		return nil
	}
	out, err := Git{Dir: dir, Env: env}.RunInput(context.Background(), []byte(strings.Join(hashes, "\n")+"\n"), "cat-file", "--batch")
	if err != nil {
		t.Fatal(err)
	}
	var blobs [][]byte
	for _, h := range hashes {
		header, rest, ok := bytes.Cut(out, []byte{'\n'})
		f := strings.Fields(string(header))
		if !ok || len(f) != 3 || f[0] != h || f[1] != "blob" {
			t.Fatalf("git cat-file --batch: unexpected header %q for %s", header, h)
		}
		var size int
		if _, err := fmt.Sscan(f[2], &size); err != nil || size+1 > len(rest) {
			t.Fatalf("git cat-file --batch: bad size in %q", header)
		}
		blobs = append(blobs, rest[:size])
		out = rest[size+1:]
	}
	return blobs
}

// checkStagedLikeGit runs StagedFast on indexFile and compares it with git
// run with extraEnv (GIT_INDEX_FILE for a temporary index).
func checkStagedLikeGit(t *testing.T, dir string, env []string, objs *Objects, indexFile, prefix string) (changed, deleted []string) {
	t.Helper()
	changed, deleted, snap, err := StagedFast(objs, indexFile, prefix)
	if err != nil {
		t.Fatalf("StagedFast: %v", err)
	}
	wantC, wantD := gitStaged(t, dir, env, prefix)
	if !slices.Equal(changed, wantC) || !slices.Equal(deleted, wantD) {
		t.Errorf("StagedFast = changed %q, deleted %q\ngit diff --cached  = changed %q, deleted %q", changed, deleted, wantC, wantD)
	}
	if snap == nil {
		t.Fatal("StagedFast returned no snapshot function")
	}
	checkSnapshotLikeGit(t, dir, env, snap(0), gitLsStage(t, dir, env, prefix))
	return changed, deleted
}

// checkSnapshotLikeGit compares a snapshot with git's listing of the index
// and reads every file back.
func checkSnapshotLikeGit(t *testing.T, dir string, env []string, snap record.Snapshot, ls []stagedEntry) {
	t.Helper()
	var want []record.Entry
	hashes := map[string]string{}
	for _, e := range ls {
		if e.stage != "0" {
			continue
		}
		we := record.Entry{Path: e.rel, Mode: modeOf(e.mode), Size: -1}
		if we.Mode == record.ModeSymlink {
			we.Target = string(catBlob(t, dir, env, e.hash))
		}
		hashes[e.rel] = e.hash
		want = append(want, we)
	}
	want = withDirs(want)
	wantSnap := record.Snapshot{Entries: want}
	wantSnap.Sort()
	if len(snap.Entries) != len(wantSnap.Entries) || (len(want) > 0 && !reflect.DeepEqual(snap.Entries, wantSnap.Entries)) {
		t.Errorf("snapshot entries:\n got %+v\nwant %+v (git ls-files --stage)", snap.Entries, wantSnap.Entries)
	}
	if snap.Read == nil {
		t.Fatal("snapshot without Read")
	}
	var regular []string
	for _, e := range snap.Entries {
		if e.Mode == record.ModeRegular {
			regular = append(regular, e.Path)
		}
	}
	var hs []string
	for _, p := range regular {
		hs = append(hs, hashes[p])
	}
	blobs := catBlobs(t, dir, env, hs)
	for i, p := range regular {
		got, err := snap.Read(p)
		if err != nil {
			t.Errorf("Read(%q): %v", p, err)
			continue
		}
		if !bytes.Equal(got, blobs[i]) {
			t.Errorf("Read(%q) = %q, want the staged blob %q", p, got, blobs[i])
		}
	}
	for _, p := range []string{"no/such.md", "zzz", ""} {
		if _, err := snap.Read(p); !errors.Is(err, record.ErrNotExist) {
			t.Errorf("Read(%q) = %v, want ErrNotExist", p, err)
		}
	}
}

// cacheTreeAt is the cache-tree node of a slash path ("" the root).
func cacheTreeAt(idx *indexFile, p string) *cacheTree {
	ct := idx.tree
	if p == "" {
		return ct
	}
	for _, name := range strings.Split(p, "/") {
		ct = ct.child(name)
	}
	return ct
}

func mustParseIndex(t *testing.T, file, prefix string) *indexFile {
	t.Helper()
	idx, err := parseIndex(file, prefix)
	if err != nil {
		t.Fatalf("parseIndex: %v", err)
	}
	return idx
}

// treeHash is git's hash of rev:path.
func treeHash(t *testing.T, dir string, env []string, revPath string) plumbing.Hash {
	t.Helper()
	return plumbing.NewHash(runGit(t, dir, env, "rev-parse", revPath))
}

func TestStagedFastLikeGit(t *testing.T) {
	type scenario struct {
		name   string
		prefix string // "" is .yoi
		unborn bool
		// setup stages the scenario; it returns extra environment for git
		// (a GIT_INDEX_FILE) when the index is not .git/index.
		setup func(t *testing.T, dir string, env []string) []string
		// check, if set, verifies that the index is what the scenario says
		// (its cache tree, mostly).
		check                    func(t *testing.T, dir string, env []string, idx *indexFile)
		wantChanged, wantDeleted []string
	}
	add := func(paths ...string) func(t *testing.T, dir string, env []string) []string {
		return func(t *testing.T, dir string, env []string) []string {
			runGit(t, dir, env, append([]string{"add", "--"}, paths...)...)
			return nil
		}
	}
	edit := func(t *testing.T, dir, rel, content string) {
		t.Helper()
		writeFile(t, dir, rel, []byte(content), 0o644)
	}
	yoiTreeInvalid := func(t *testing.T, dir string, env []string, idx *indexFile) {
		t.Helper()
		if ct := cacheTreeAt(idx, ".yoi"); ct != nil && ct.count >= 0 {
			t.Fatalf("scenario wants the .yoi cache tree invalidated; it is valid (%d entries)", ct.count)
		}
	}
	yoiTreeValid := func(t *testing.T, dir string, env []string, idx *indexFile) {
		t.Helper()
		for _, p := range []string{"", ".yoi", ".yoi/knowledge", ".yoi/knowledge/deep", ".yoi/decisions"} {
			if _, ok := cacheTreeAt(idx, p).validHash(); !ok {
				t.Fatalf("scenario wants a valid cache tree; %q is not", p)
			}
		}
		head := treeHash(t, dir, env, "HEAD:.yoi")
		if h, _ := cacheTreeAt(idx, ".yoi").validHash(); h == head {
			t.Fatalf("cache tree of .yoi equals HEAD's: nothing staged, the scenario is wrong")
		}
		if h, _ := cacheTreeAt(idx, ".yoi/decisions").validHash(); h != treeHash(t, dir, env, "HEAD:.yoi/decisions") {
			t.Fatalf("cache tree of .yoi/decisions differs from HEAD's: the shortcut is not exercised")
		}
	}
	noCacheTree := func(t *testing.T, dir string, env []string, idx *indexFile) {
		t.Helper()
		if idx.tree != nil {
			t.Fatal("scenario wants no cache tree")
		}
	}

	scenarios := []scenario{
		{name: "nothing staged",
			setup: func(*testing.T, string, []string) []string { return nil },
			check: func(t *testing.T, dir string, env []string, idx *indexFile) {
				if h, ok := cacheTreeAt(idx, ".yoi").validHash(); !ok || h != treeHash(t, dir, env, "HEAD:.yoi") {
					t.Fatal("after a commit the cache tree of .yoi should be valid and equal HEAD's")
				}
			}},
		{name: "nothing staged but files modified in the worktree",
			setup: func(t *testing.T, dir string, env []string) []string {
				edit(t, dir, ".yoi/knowledge/a.md", "changed, not staged\n")
				if err := os.Remove(filepath.Join(dir, ".yoi/top.md")); err != nil {
					t.Fatal(err)
				}
				edit(t, dir, ".yoi/untracked.md", "untracked\n")
				return nil
			}},
		{name: "one file modified and staged",
			setup: func(t *testing.T, dir string, env []string) []string {
				edit(t, dir, ".yoi/knowledge/a.md", "a, revised\n")
				return add(".yoi/knowledge/a.md")(t, dir, env)
			},
			check:       yoiTreeInvalid,
			wantChanged: []string{"knowledge/a.md"}},
		{name: "new file in a new directory",
			setup: func(t *testing.T, dir string, env []string) []string {
				edit(t, dir, ".yoi/plans/2025/p.md", "plan\n")
				return add(".yoi/plans")(t, dir, env)
			},
			wantChanged: []string{"plans/2025/p.md"}},
		{name: "a file deleted",
			setup: func(t *testing.T, dir string, env []string) []string {
				runGit(t, dir, env, "rm", "-q", ".yoi/decisions/d.md")
				return nil
			},
			wantDeleted: []string{"decisions/d.md"}},
		{name: "a file deleted from the index only",
			setup: func(t *testing.T, dir string, env []string) []string {
				runGit(t, dir, env, "rm", "-q", "--cached", ".yoi/top.md")
				return nil
			},
			wantDeleted: []string{"top.md"}},
		{name: "a whole directory deleted",
			setup: func(t *testing.T, dir string, env []string) []string {
				runGit(t, dir, env, "rm", "-r", "-q", ".yoi/knowledge")
				return nil
			},
			wantDeleted: []string{"knowledge/a.md", "knowledge/b.md", "knowledge/deep/c.md"}},
		{name: "everything under the prefix deleted",
			setup: func(t *testing.T, dir string, env []string) []string {
				runGit(t, dir, env, "rm", "-r", "-q", ".yoi")
				return nil
			},
			wantDeleted: []string{"decisions/d.md", "knowledge/a.md", "knowledge/b.md", "knowledge/deep/c.md", "link", "tools/run.sh", "top.md"}},
		{name: "a file replaced by a symlink",
			setup: func(t *testing.T, dir string, env []string) []string {
				p := filepath.Join(dir, ".yoi/top.md")
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink("knowledge/b.md", p); err != nil {
					t.Fatal(err)
				}
				return add(".yoi/top.md")(t, dir, env)
			},
			wantChanged: []string{"top.md"}},
		{name: "a symlink replaced by a file",
			setup: func(t *testing.T, dir string, env []string) []string {
				p := filepath.Join(dir, ".yoi/link")
				if err := os.Remove(p); err != nil {
					t.Fatal(err)
				}
				edit(t, dir, ".yoi/link", "knowledge/a.md") // same bytes as the target
				return add(".yoi/link")(t, dir, env)
			},
			wantChanged: []string{"link"}},
		{name: "executable bit set and cleared",
			setup: func(t *testing.T, dir string, env []string) []string {
				runGit(t, dir, env, "update-index", "--chmod=+x", ".yoi/knowledge/b.md")
				runGit(t, dir, env, "update-index", "--chmod=-x", ".yoi/tools/run.sh")
				return nil
			},
			wantChanged: []string{"knowledge/b.md", "tools/run.sh"}},
		{name: "changes outside .yoi only",
			setup: func(t *testing.T, dir string, env []string) []string {
				edit(t, dir, "src/main.go", "package main // changed\n")
				edit(t, dir, ".yoi-other/new.md", "new\n")
				edit(t, dir, ".yoi0/z.md", "z changed\n")
				edit(t, dir, ".yoi.md", "changed\n")
				edit(t, dir, "sub/.yoi/knowledge/s.md", "s changed\n")
				runGit(t, dir, env, "add", "-A", "--", "src", ".yoi-other", ".yoi0", ".yoi.md", "sub")
				runGit(t, dir, env, "rm", "-q", "README.md")
				return nil
			},
			check: func(t *testing.T, dir string, env []string, idx *indexFile) {
				if _, ok := cacheTreeAt(idx, "").validHash(); ok {
					t.Fatal("the root cache tree should be invalidated")
				}
				if h, ok := cacheTreeAt(idx, ".yoi").validHash(); !ok || h != treeHash(t, dir, env, "HEAD:.yoi") {
					t.Fatal("the .yoi cache tree should still equal HEAD's")
				}
			}},
		{name: "staged then restored to HEAD's content",
			setup: func(t *testing.T, dir string, env []string) []string {
				edit(t, dir, ".yoi/knowledge/deep/c.md", "c, revised\n")
				add(".yoi/knowledge/deep/c.md")(t, dir, env)
				edit(t, dir, ".yoi/knowledge/deep/c.md", "c\n")
				return add(".yoi/knowledge/deep/c.md")(t, dir, env)
			},
			check: yoiTreeInvalid},
		{name: "unborn branch with staged .yoi files", unborn: true,
			setup:       func(*testing.T, string, []string) []string { return nil },
			wantChanged: []string{"decisions/d.md", "knowledge/a.md", "knowledge/b.md", "knowledge/deep/c.md", "link", "tools/run.sh", "top.md"}},
		{name: "unborn branch with a valid cache tree", unborn: true,
			setup: func(t *testing.T, dir string, env []string) []string {
				runGit(t, dir, env, "write-tree")
				return nil
			},
			check: func(t *testing.T, dir string, env []string, idx *indexFile) {
				if _, ok := cacheTreeAt(idx, ".yoi").validHash(); !ok {
					t.Fatal("write-tree should have made the cache tree valid")
				}
			},
			wantChanged: []string{"decisions/d.md", "knowledge/a.md", "knowledge/b.md", "knowledge/deep/c.md", "link", "tools/run.sh", "top.md"}},
		{name: "temporary index (GIT_INDEX_FILE) differs from .git/index",
			setup: func(t *testing.T, dir string, env []string) []string {
				tmp := filepath.Join(t.TempDir(), "tmp-index")
				b, err := os.ReadFile(filepath.Join(dir, ".git/index"))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(tmp, b, 0o644); err != nil {
					t.Fatal(err)
				}
				// .git/index stages one change, the temporary index another.
				edit(t, dir, ".yoi/decisions/d.md", "only in .git/index\n")
				add(".yoi/decisions/d.md")(t, dir, env)
				edit(t, dir, ".yoi/knowledge/a.md", "only in the temporary index\n")
				edit(t, dir, ".yoi/knowledge/new.md", "new, temporary index\n")
				tmpEnv := []string{"GIT_INDEX_FILE=" + tmp}
				runGit(t, dir, append(env[:len(env):len(env)], tmpEnv...), "add", ".yoi/knowledge")
				if c, _ := gitStaged(t, dir, env, ".yoi"); !slices.Equal(c, []string{"decisions/d.md"}) {
					t.Fatalf(".git/index stages %q, want only decisions/d.md", c)
				}
				return tmpEnv
			},
			wantChanged: []string{"knowledge/a.md", "knowledge/new.md"}},
		{name: "temporary index named relative to the top level",
			setup: func(t *testing.T, dir string, env []string) []string {
				b, err := os.ReadFile(filepath.Join(dir, ".git/index"))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, ".git/other-index"), b, 0o644); err != nil {
					t.Fatal(err)
				}
				tmpEnv := []string{"GIT_INDEX_FILE=.git/other-index"}
				runGit(t, dir, append(env[:len(env):len(env)], tmpEnv...), "rm", "-q", "--cached", ".yoi/knowledge/b.md")
				return tmpEnv
			},
			wantDeleted: []string{"knowledge/b.md"}},
		{name: "cache tree invalidated",
			setup: func(t *testing.T, dir string, env []string) []string {
				edit(t, dir, ".yoi/knowledge/deep/c.md", "c, revised\n")
				return add(".yoi/knowledge/deep/c.md")(t, dir, env)
			},
			check: func(t *testing.T, dir string, env []string, idx *indexFile) {
				for _, p := range []string{"", ".yoi", ".yoi/knowledge", ".yoi/knowledge/deep"} {
					if _, ok := cacheTreeAt(idx, p).validHash(); ok {
						t.Fatalf("cache tree of %q should be invalidated", p)
					}
				}
				if h, ok := cacheTreeAt(idx, ".yoi/decisions").validHash(); !ok || h != treeHash(t, dir, env, "HEAD:.yoi/decisions") {
					t.Fatal("cache tree of .yoi/decisions should be valid and equal HEAD's")
				}
			},
			wantChanged: []string{"knowledge/deep/c.md"}},
		{name: "cache tree fully valid (write-tree)",
			setup: func(t *testing.T, dir string, env []string) []string {
				edit(t, dir, ".yoi/knowledge/deep/c.md", "c, revised\n")
				runGit(t, dir, env, "rm", "-q", ".yoi/top.md")
				edit(t, dir, ".yoi/knowledge/new.md", "new\n")
				add(".yoi")(t, dir, env)
				runGit(t, dir, env, "write-tree")
				return nil
			},
			check:       yoiTreeValid,
			wantChanged: []string{"knowledge/deep/c.md", "knowledge/new.md"},
			wantDeleted: []string{"top.md"}},
		{name: "cache tree valid, HEAD moved back (reset --soft)",
			setup: func(t *testing.T, dir string, env []string) []string {
				edit(t, dir, ".yoi/knowledge/deep/c.md", "c, committed then uncommitted\n")
				runGit(t, dir, env, "rm", "-q", ".yoi/top.md")
				add(".yoi")(t, dir, env)
				runGit(t, dir, env, "commit", "-q", "-m", "to undo")
				runGit(t, dir, env, "reset", "-q", "--soft", "HEAD~1")
				return nil
			},
			check:       yoiTreeValid,
			wantChanged: []string{"knowledge/deep/c.md"},
			wantDeleted: []string{"top.md"}},
		{name: "cache tree valid, HEAD moved forward (reset --soft to a later commit)",
			setup: func(t *testing.T, dir string, env []string) []string {
				old := runGit(t, dir, env, "rev-parse", "HEAD")
				edit(t, dir, ".yoi/decisions/e.md", "later\n")
				add(".yoi")(t, dir, env)
				runGit(t, dir, env, "commit", "-q", "-m", "later")
				later := runGit(t, dir, env, "rev-parse", "HEAD")
				runGit(t, dir, env, "reset", "-q", "--hard", old)
				runGit(t, dir, env, "reset", "-q", "--soft", later)
				return nil
			},
			check: func(t *testing.T, dir string, env []string, idx *indexFile) {
				if _, ok := cacheTreeAt(idx, ".yoi/decisions").validHash(); !ok {
					t.Fatal("the decisions cache tree should be valid")
				}
			},
			wantDeleted: []string{"decisions/e.md"}},
		{name: "no cache tree extension",
			setup: func(t *testing.T, dir string, env []string) []string {
				edit(t, dir, ".yoi/knowledge/a.md", "a, revised\n")
				runGit(t, dir, env, "rm", "-q", ".yoi/decisions/d.md")
				add(".yoi")(t, dir, env)
				runGit(t, dir, env, "write-tree")
				stripIndexExtension(t, filepath.Join(dir, ".git/index"), "TREE")
				runGit(t, dir, env, "ls-files", "--stage") // git still reads it
				return nil
			},
			check:       noCacheTree,
			wantChanged: []string{"knowledge/a.md"},
			wantDeleted: []string{"decisions/d.md"}},
		{name: "no cache tree extension, nothing staged",
			setup: func(t *testing.T, dir string, env []string) []string {
				stripIndexExtension(t, filepath.Join(dir, ".git/index"), "TREE")
				return nil
			},
			check: noCacheTree},
		{name: "prefix sub/.yoi", prefix: "sub/.yoi",
			setup: func(t *testing.T, dir string, env []string) []string {
				edit(t, dir, "sub/.yoi/knowledge/s.md", "s, revised\n")
				edit(t, dir, "sub/.yoi/knowledge/t.md", "t\n")
				edit(t, dir, ".yoi/top.md", "top, revised (other workspace)\n")
				return add("sub", ".yoi")(t, dir, env)
			},
			wantChanged: []string{"knowledge/s.md", "knowledge/t.md"}},
		{name: "prefix sub/.yoi, valid cache tree", prefix: "sub/.yoi",
			setup: func(t *testing.T, dir string, env []string) []string {
				runGit(t, dir, env, "rm", "-q", "sub/.yoi/knowledge/s.md")
				edit(t, dir, ".yoi/top.md", "top, revised (other workspace)\n")
				add(".yoi")(t, dir, env)
				runGit(t, dir, env, "write-tree")
				return nil
			},
			wantDeleted: []string{"knowledge/s.md"}},
		{name: "prefix absent from HEAD and index", prefix: "nowhere/.yoi",
			setup: add(".")},
		{name: "a file becomes a directory",
			setup: func(t *testing.T, dir string, env []string) []string {
				runGit(t, dir, env, "rm", "-q", ".yoi/top.md")
				edit(t, dir, ".yoi/top.md/x.md", "x\n")
				return add(".yoi/top.md")(t, dir, env)
			},
			wantChanged: []string{"top.md/x.md"},
			wantDeleted: []string{"top.md"}},
		{name: "a directory becomes a file",
			setup: func(t *testing.T, dir string, env []string) []string {
				runGit(t, dir, env, "rm", "-r", "-q", ".yoi/knowledge/deep")
				edit(t, dir, ".yoi/knowledge/deep", "now a file\n")
				return add(".yoi/knowledge/deep")(t, dir, env)
			},
			wantChanged: []string{"knowledge/deep"},
			wantDeleted: []string{"knowledge/deep/c.md"}},
		{name: "names sorting around the slash",
			setup: func(t *testing.T, dir string, env []string) []string {
				for _, p := range []string{"knowledge/a-b.md", "knowledge/a.md.bak", "knowledge/a0.md", "knowledge/a/x.md",
					"knowledge/deep-er/y.md", "knowledge/deep.md", "knowledge/deep0", "knowledge/with space.md", "knowledge/été.md", "knowledge/tab\there.md"} {
					edit(t, dir, ".yoi/"+p, p+"\n")
				}
				return add(".yoi")(t, dir, env)
			},
			wantChanged: []string{"knowledge/a-b.md", "knowledge/a.md.bak", "knowledge/a/x.md", "knowledge/a0.md",
				"knowledge/deep-er/y.md", "knowledge/deep.md", "knowledge/deep0", "knowledge/tab\there.md", "knowledge/with space.md", "knowledge/été.md"}},
		{name: "a submodule (gitlink) staged",
			setup: func(t *testing.T, dir string, env []string) []string {
				head := runGit(t, dir, env, "rev-parse", "HEAD")
				runGit(t, dir, env, "update-index", "--add", "--cacheinfo", "160000,"+head+",.yoi/vendored")
				return nil
			},
			wantChanged: []string{"vendored"}},
		{name: "HEAD detached",
			setup: func(t *testing.T, dir string, env []string) []string {
				runGit(t, dir, env, "checkout", "-q", "--detach")
				edit(t, dir, ".yoi/knowledge/b.md", "b, revised\n")
				return add(".yoi")(t, dir, env)
			},
			wantChanged: []string{"knowledge/b.md"}},
		{name: "refs packed, objects packed",
			setup: func(t *testing.T, dir string, env []string) []string {
				runGit(t, dir, env, "gc", "-q")
				edit(t, dir, ".yoi/knowledge/b.md", "b, revised\n")
				runGit(t, dir, env, "rm", "-q", ".yoi/knowledge/deep/c.md")
				return add(".yoi")(t, dir, env)
			},
			check: func(t *testing.T, dir string, env []string, idx *indexFile) {
				if _, err := os.Stat(filepath.Join(dir, ".git/refs/heads/main")); err == nil {
					t.Fatal("git gc left refs/heads/main loose")
				}
			},
			wantChanged: []string{"knowledge/b.md"},
			wantDeleted: []string{"knowledge/deep/c.md"}},
		{name: "index version 3",
			setup: func(t *testing.T, dir string, env []string) []string {
				runGit(t, dir, env, "update-index", "--index-version", "3")
				edit(t, dir, ".yoi/knowledge/a.md", "a, revised\n")
				return add(".yoi")(t, dir, env)
			},
			wantChanged: []string{"knowledge/a.md"}},
		{name: "index version 2 explicitly",
			setup: func(t *testing.T, dir string, env []string) []string {
				runGit(t, dir, env, "update-index", "--index-version", "2")
				runGit(t, dir, env, "rm", "-q", "--cached", ".yoi/link")
				return nil
			},
			wantDeleted: []string{"link"}},
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			dir, env := stagedRepo(t, sc.unborn)
			extra := sc.setup(t, dir, env)
			gitEnv := append(env[:len(env):len(env)], extra...)
			prefix := sc.prefix
			if prefix == "" {
				prefix = ".yoi"
			}
			indexFile := filepath.Join(dir, ".git", "index")
			for _, kv := range extra {
				if v, ok := strings.CutPrefix(kv, "GIT_INDEX_FILE="); ok {
					indexFile = v
					if !filepath.IsAbs(v) {
						indexFile = filepath.Join(dir, v)
					}
				}
			}
			if sc.check != nil {
				sc.check(t, dir, env, mustParseIndex(t, indexFile, prefix))
			}
			objs := objectsOf(t, dir, env)
			changed, deleted := checkStagedLikeGit(t, dir, gitEnv, objs, indexFile, prefix)
			// Not only like git: like the scenario says, so that a scenario
			// that stages nothing by mistake does not pass vacuously.
			if !slices.Equal(changed, sc.wantChanged) || !slices.Equal(deleted, sc.wantDeleted) {
				t.Errorf("StagedFast = changed %q, deleted %q; the scenario expects changed %q, deleted %q", changed, deleted, sc.wantChanged, sc.wantDeleted)
			}
			// The git-backed snapshot of the same index agrees entry for entry.
			repo := openBranch(t, dir, gitEnv).Repo
			want, err := IndexSnapshot(context.Background(), repo, objs, prefix, 0)
			if err != nil {
				t.Fatal(err)
			}
			_, _, snap, err := StagedFast(objs, indexFile, prefix)
			if err != nil {
				t.Fatal(err)
			}
			if got := snap(0); len(got.Entries) != len(want.Entries) || (len(got.Entries) > 0 && !reflect.DeepEqual(got.Entries, want.Entries)) {
				t.Errorf("StagedFast snapshot entries differ from IndexSnapshot's:\n got %+v\nwant %+v", got.Entries, want.Entries)
			}
		})
	}
}

// stripIndexExtension rewrites an index file without one extension and
// with a new checksum. It walks the entries by their name length, not as
// parseIndex does.
func stripIndexExtension(t *testing.T, file, sig string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	end := indexEntriesEnd(t, b)
	out := append([]byte(nil), b[:end]...)
	found := false
	for off := end; off < len(b)-20; {
		size := int(binary.BigEndian.Uint32(b[off+4 : off+8]))
		if string(b[off:off+4]) == sig {
			found = true
		} else {
			out = append(out, b[off:off+8+size]...)
		}
		off += 8 + size
	}
	if !found {
		t.Fatalf("%s has no %s extension", file, sig)
	}
	sum := sha1.Sum(out)
	out = append(out, sum[:]...)
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

// indexEntriesEnd is the offset of the first extension of a version 2/3
// index.
func indexEntriesEnd(t testing.TB, b []byte) int {
	t.Helper()
	if v := binary.BigEndian.Uint32(b[4:8]); v != 2 && v != 3 {
		t.Fatalf("index version %d", v)
	}
	n := int(binary.BigEndian.Uint32(b[8:12]))
	off := 12
	for i := 0; i < n; i++ {
		flags := binary.BigEndian.Uint16(b[off+60 : off+62])
		fixed := 62
		if flags&0x4000 != 0 {
			fixed += 2
		}
		nameLen := int(flags & 0xfff)
		if nameLen == 0xfff {
			nameLen = bytes.IndexByte(b[off+fixed:], 0)
		}
		off += (fixed + nameLen + 8) &^ 7
	}
	return off
}

// TestStagedFastDeprecatedMode: trees written by very old gits hold mode
// 100664, which git reads as 100644 (canon_mode); the index never holds
// it. A directory with such a file and a staged change elsewhere must not
// report the old file as changed.
func TestStagedFastDeprecatedMode(t *testing.T) {
	dir, env := stagedRepo(t, false)
	blob := runGit(t, dir, env, "rev-parse", "HEAD:.yoi/knowledge/a.md")
	var raw bytes.Buffer
	raw.WriteString("100664 old.md\x00")
	bh := plumbing.NewHash(blob)
	raw.Write(bh[:])
	oldTree := runGitInput(t, dir, env, raw.Bytes(), "hash-object", "-t", "tree", "-w", "--literally", "--stdin")
	yoi := runGitInput(t, dir, env, []byte("040000 tree "+oldTree+"\told\n"), "mktree")
	root := runGitInput(t, dir, env, []byte("040000 tree "+yoi+"\t.yoi\n"), "mktree")
	c := runGit(t, dir, env, "commit-tree", "-m", "old modes", root)
	runGit(t, dir, env, "reset", "-q", "--hard", c)
	if got := runGit(t, dir, env, "cat-file", "-p", oldTree); !strings.HasPrefix(got, "100644 blob") {
		// git shows it canonicalized; the object itself says 100664.
		t.Logf("cat-file -p shows %q", got)
	}
	writeFile(t, dir, ".yoi/old/new.md", []byte("new\n"), 0o644)
	runGit(t, dir, env, "add", ".yoi")
	checkStagedLikeGit(t, dir, env, objectsOf(t, dir, env), filepath.Join(dir, ".git/index"), ".yoi")
}

func runGitInput(t testing.TB, dir string, env []string, stdin []byte, args ...string) string {
	t.Helper()
	out, err := Git{Dir: dir, Env: env}.RunInput(context.Background(), stdin, args...)
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimRight(string(out), "\n")
}

func TestStagedFastManyFiles(t *testing.T) {
	for _, writeTree := range []bool{false, true} {
		t.Run(fmt.Sprintf("write-tree=%v", writeTree), func(t *testing.T) {
			dir, env := newRepo(t)
			for i := 0; i < 2000; i++ {
				writeFile(t, dir, fmt.Sprintf(".yoi/knowledge/d%02d/f%04d.md", i%40, i), []byte(fmt.Sprintf("file %d\n", i)), 0o644)
			}
			writeFile(t, dir, "src/main.go", []byte("package main\n"), 0o644)
			runGit(t, dir, env, "add", "-A")
			runGit(t, dir, env, "commit", "-q", "-m", "many")
			writeFile(t, dir, ".yoi/knowledge/d17/f1017.md", []byte("changed\n"), 0o644)
			runGit(t, dir, env, "add", ".yoi")
			if writeTree {
				runGit(t, dir, env, "write-tree")
			}
			idx := mustParseIndex(t, filepath.Join(dir, ".git/index"), ".yoi")
			if len(idx.entries) != 2000 {
				t.Fatalf("parseIndex found %d entries under .yoi, want 2000", len(idx.entries))
			}
			changed, deleted := checkStagedLikeGit(t, dir, env, objectsOf(t, dir, env), filepath.Join(dir, ".git/index"), ".yoi")
			if !slices.Equal(changed, []string{"knowledge/d17/f1017.md"}) || deleted != nil {
				t.Errorf("StagedFast = %q, %q; want the one change", changed, deleted)
			}
		})
	}
}

// TestStagedFastMaxRead: Read stops after maxRead+1 bytes, as the
// git-backed snapshot does.
func TestStagedFastMaxRead(t *testing.T) {
	dir, env := stagedRepo(t, false)
	writeFile(t, dir, ".yoi/knowledge/big.md", bytes.Repeat([]byte("x"), 1000), 0o644)
	runGit(t, dir, env, "add", ".yoi")
	objs := objectsOf(t, dir, env)
	_, _, snap, err := StagedFast(objs, filepath.Join(dir, ".git/index"), ".yoi")
	if err != nil {
		t.Fatal(err)
	}
	s := snap(10)
	b, err := s.Read("knowledge/big.md")
	checkTooLarge(t, b, err, "knowledge/big.md", 1000, 10)
	if b, err := s.Read("knowledge/a.md"); err != nil || string(b) != "a\n" {
		t.Errorf("Read(a.md) = %q, %v", b, err)
	}
	if _, err := s.Read("link"); !errors.Is(err, record.ErrNotExist) {
		t.Errorf("Read of a symlink = %v, want ErrNotExist", err)
	}
	e, ok := s.Lookup("link")
	if !ok || e.Mode != record.ModeSymlink || e.Target != "knowledge/a.md" {
		t.Errorf("Lookup(link) = %+v, %v", e, ok)
	}
}

// TestStagedFastDeclines: index formats parseIndex leaves to git.
func TestStagedFastDeclines(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string, env []string)
		// orLikeGit accepts an answer equal to git's instead of a decline.
		orLikeGit bool
	}{
		{name: "index version 4", setup: func(t *testing.T, dir string, env []string) {
			runGit(t, dir, env, "update-index", "--index-version", "4")
		}},
		{name: "index version 4, change staged", setup: func(t *testing.T, dir string, env []string) {
			runGit(t, dir, env, "update-index", "--index-version", "4")
			writeFile(t, dir, ".yoi/knowledge/a.md", []byte("a, revised\n"), 0o644)
			runGit(t, dir, env, "add", ".yoi")
		}},
		{name: "split index", setup: func(t *testing.T, dir string, env []string) {
			runGit(t, dir, env, "config", "core.splitIndex", "true")
			runGit(t, dir, env, "update-index", "--split-index")
			writeFile(t, dir, ".yoi/knowledge/a.md", []byte("a, revised\n"), 0o644)
			runGit(t, dir, env, "add", ".yoi")
		}},
		{name: "sparse index", setup: func(t *testing.T, dir string, env []string) {
			if _, err := runGitErr(dir, env, "sparse-checkout", "init", "--cone", "--sparse-index"); err != nil {
				t.Skipf("git has no sparse index: %v", err)
			}
			b, _ := os.ReadFile(filepath.Join(dir, ".git/index"))
			if !bytes.Contains(b, []byte("sdir")) {
				t.Skip("git wrote no sparse index")
			}
		}},
		{name: "sparse checkout without a sparse index (skip-worktree entries)", orLikeGit: true, setup: func(t *testing.T, dir string, env []string) {
			if _, err := runGitErr(dir, env, "sparse-checkout", "set", "--no-cone", "/src/"); err != nil {
				t.Skipf("git sparse-checkout: %v", err)
			}
		}},
		{name: "intent to add", orLikeGit: true, setup: func(t *testing.T, dir string, env []string) {
			writeFile(t, dir, ".yoi/knowledge/later.md", []byte("later\n"), 0o644)
			runGit(t, dir, env, "add", "-N", ".yoi/knowledge/later.md")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, env := stagedRepo(t, false)
			tt.setup(t, dir, env)
			objs := objectsOf(t, dir, env)
			c, d, snap, err := StagedFast(objs, filepath.Join(dir, ".git/index"), ".yoi")
			if errors.Is(err, errIndexFormat) {
				if c != nil || d != nil || snap != nil {
					t.Errorf("StagedFast declined but returned %q, %q, snapshot %v", c, d, snap != nil)
				}
				return
			}
			if !tt.orLikeGit {
				t.Fatalf("StagedFast = %q, %q, %v; want an error wrapping errIndexFormat", c, d, err)
			}
			if err != nil {
				t.Fatalf("StagedFast: %v", err)
			}
			checkStagedLikeGit(t, dir, env, objs, filepath.Join(dir, ".git/index"), ".yoi")
		})
	}
}

// TestStagedFastCorruptIndex: a truncated or damaged index is an error
// (ErrIndexChecksum, or for what git must read, the ask-git error), never a
// panic and never an answer git would not give.
func TestStagedFastCorruptIndex(t *testing.T) {
	dir, env := stagedRepo(t, false)
	writeFile(t, dir, ".yoi/knowledge/a.md", []byte("a, revised\n"), 0o644)
	runGit(t, dir, env, "rm", "-q", "--cached", ".yoi/top.md")
	runGit(t, dir, env, "add", ".yoi")
	runGit(t, dir, env, "write-tree")
	objs := objectsOf(t, dir, env)
	good, err := os.ReadFile(filepath.Join(dir, ".git/index"))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Index(good, []byte("TREE")) < 0 {
		t.Fatal("the index has no cache tree to damage")
	}
	file := filepath.Join(t.TempDir(), "index")
	try := func(what string, b []byte) {
		t.Helper()
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		var c, d []string
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Errorf("%s: StagedFast panicked: %v", what, r)
				}
			}()
			c, d, _, err = StagedFast(objs, file, ".yoi")
		}()
		if err == nil {
			t.Errorf("%s: StagedFast = %q, %q, nil; want an error", what, c, d)
		}
	}
	for n := 0; n < len(good); n++ {
		try(fmt.Sprintf("truncated to %d of %d bytes", n, len(good)), good[:n])
	}
	for i := 12; i < len(good); i++ {
		b := bytes.Clone(good)
		b[i] ^= 0x55
		try(fmt.Sprintf("byte %d of %d changed", i, len(good)), b)
	}
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 200; i++ {
		b := make([]byte, rng.Intn(600))
		rng.Read(b)
		if i%2 == 0 && len(b) >= 12 {
			copy(b, "DIRC\x00\x00\x00\x02")
		}
		try(fmt.Sprintf("garbage %d", i), b)
	}
	try("empty file", nil)
	if err := os.Remove(file); err != nil {
		t.Fatal(err)
	}
	if _, _, _, err := StagedFast(objs, file, ".yoi"); err == nil {
		t.Error("StagedFast on a missing index file: want an error")
	}
}

// FuzzParseIndex: parseIndex never panics, whatever the file holds.
func FuzzParseIndex(f *testing.F) {
	dir, _ := stagedRepo(f, false)
	if b, err := os.ReadFile(filepath.Join(dir, ".git/index")); err == nil {
		f.Add(b)
	}
	f.Add([]byte("DIRC\x00\x00\x00\x02\x00\x00\x00\x00"))
	f.Fuzz(func(t *testing.T, b []byte) {
		file := filepath.Join(t.TempDir(), "index")
		if err := os.WriteFile(file, b, 0o644); err != nil {
			t.Fatal(err)
		}
		idx, err := parseIndex(file, ".yoi")
		if err == nil && idx == nil {
			t.Fatal("parseIndex returned neither an index nor an error")
		}
	})
}

// TestIndexChecksum: a damaged index (a byte changed, cut short) of any
// version fails with ErrIndexChecksum naming the file, not the "ask git"
// error (git checks the sum only in fsck, and would commit what the damaged
// index says); a sum of zeros (index.skipHash) is no sum and reads as usual.
func TestIndexChecksum(t *testing.T) {
	for _, version := range []string{"2", "3", "4"} {
		t.Run("version "+version, func(t *testing.T) {
			dir, env := stagedRepo(t, false)
			runGit(t, dir, env, "update-index", "--index-version", version)
			writeFile(t, dir, ".yoi/knowledge/a.md", []byte("a, revised\n"), 0o644)
			runGit(t, dir, env, "add", ".yoi")
			objs := objectsOf(t, dir, env)
			good, err := os.ReadFile(filepath.Join(dir, ".git/index"))
			if err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(t.TempDir(), "index")
			try := func(what string, b []byte) error {
				t.Helper()
				if err := os.WriteFile(file, b, 0o644); err != nil {
					t.Fatal(err)
				}
				_, _, _, err := StagedFast(objs, file, ".yoi")
				return err
			}
			for _, i := range []int{4, 12, len(good) / 2, len(good) - 21, len(good) - 1} {
				b := bytes.Clone(good)
				b[i] ^= 1
				err := try(fmt.Sprintf("byte %d", i), b)
				if !errors.Is(err, ErrIndexChecksum) || errors.Is(err, errIndexFormat) || !strings.Contains(err.Error(), file+": ") {
					t.Errorf("byte %d of %d flipped: %v, want ErrIndexChecksum naming %s", i, len(good), err, file)
				}
			}
			if err := try("cut", good[:len(good)-7]); !errors.Is(err, ErrIndexChecksum) {
				t.Errorf("cut short: %v, want ErrIndexChecksum", err)
			}
			zeroed := bytes.Clone(good)
			copy(zeroed[len(zeroed)-20:], make([]byte, 20))
			err = try("zeroed", zeroed)
			if errors.Is(err, ErrIndexChecksum) {
				t.Errorf("index.skipHash (zero sum): %v", err)
			}
			if version != "4" && err != nil {
				t.Errorf("index.skipHash (zero sum): %v", err)
			}
		})
	}
}
