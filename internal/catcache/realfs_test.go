package catcache

import (
	"bytes"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
)

// realFiles is a workspace on disk whose knowledge/ is listed as the
// commands list it (stamps from lstat), counting the reads.
type realFiles struct {
	t     *testing.T
	root  string
	reads atomic.Int64
}

func (r *realFiles) path(rel string) string {
	return filepath.Join(r.root, record.Dir, filepath.FromSlash(rel))
}

func (r *realFiles) write(rel, content string) {
	r.t.Helper()
	if err := os.WriteFile(r.path(rel), []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *realFiles) snapshot() record.Snapshot {
	r.t.Helper()
	snap, err := gitstore.WorktreeSnapshotOf(r.root, 0, record.KnowledgeDir)
	if err != nil {
		r.t.Fatal(err)
	}
	read := snap.Read
	snap.Read = func(p string) ([]byte, error) {
		r.reads.Add(1)
		return read(p)
	}
	return snap
}

// run is one command: load the cache, examine every record, save.
// later is its clock: a minute on, so that what it examines counts as
// settled and is saved (a real run's files settle within seconds).
func (r *realFiles) run(cachePath string, factsOnly bool) map[string]memory.Examined {
	r.t.Helper()
	later := func() time.Time { return time.Now().Add(time.Minute) }
	load := Load
	if factsOnly {
		load = LoadFacts
	}
	c, err := load(cachePath, later)
	if err != nil {
		r.t.Fatal(err)
	}
	snap := r.snapshot()
	got := examineAll(r.t, c, snap)
	if err := c.Save(snap); err != nil {
		r.t.Fatal(err)
	}
	return got
}

// TestCacheNeverStaleOnDisk: with the real listing's stamps, a record
// edited, deleted, renamed, edited keeping its size and modification
// time, or replaced by a same-sized copy with the old modification time
// is examined as it is now, never as cached. What protects the
// mtime-preserving edits is the change time (and the inode): no one can
// set them back, and each cached entry keeps both.
func TestCacheNeverStaleOnDisk(t *testing.T) {
	for _, factsOnly := range []bool{false, true} {
		name := "text"
		if factsOnly {
			name = "facts"
		}
		t.Run(name, func(t *testing.T) {
			r := &realFiles{t: t, root: t.TempDir()}
			if err := os.MkdirAll(r.path(record.KnowledgeDir), 0o755); err != nil {
				t.Fatal(err)
			}
			r.write("knowledge/edited.md", knowledge("Edited", false, "first body\n"))
			r.write("knowledge/sameSize.md", knowledge("Same size", false, "alpha\n"))
			r.write("knowledge/copied.md", knowledge("Copied", false, "one\n"))
			r.write("knowledge/deleted.md", knowledge("Deleted", true, "gone soon\n"))
			r.write("knowledge/renamed.md", knowledge("Renamed", true, "moving\n"))
			cachePath := filepath.Join(t.TempDir(), "cache", "catalog")

			r.run(cachePath, factsOnly)
			// Dated past the files' timestamp tick (see the end).
			future := time.Now().Add(10 * time.Second)
			if err := os.Chtimes(cachePath, future, future); err != nil {
				t.Fatal(err)
			}
			r.reads.Store(0)
			r.run(cachePath, factsOnly)
			if n := r.reads.Load(); n != 0 {
				t.Fatalf("the second run read %d files, want 0 (all cached)", n)
			}

			fi, err := os.Stat(r.path("knowledge/sameSize.md"))
			if err != nil {
				t.Fatal(err)
			}
			mtime := fi.ModTime()
			r.write("knowledge/edited.md", knowledge("Edited again", true, "second, longer body\n"))
			r.write("knowledge/sameSize.md", knowledge("Same SIZE", false, "omega\n"))
			if err := os.Chtimes(r.path("knowledge/sameSize.md"), mtime, mtime); err != nil {
				t.Fatal(err)
			}
			tmp := r.path("knowledge/.copied.tmp")
			if err := os.WriteFile(tmp, []byte(knowledge("COPIED", true, "two\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			cfi, err := os.Stat(r.path("knowledge/copied.md"))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(tmp, cfi.ModTime(), cfi.ModTime()); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(tmp, r.path("knowledge/copied.md")); err != nil {
				t.Fatal(err)
			}
			if err := os.Remove(r.path("knowledge/deleted.md")); err != nil {
				t.Fatal(err)
			}
			if err := os.Rename(r.path("knowledge/renamed.md"), r.path("knowledge/moved.md")); err != nil {
				t.Fatal(err)
			}
			// The cache file as if written after all that: only the
			// stamps can tell the cached entries from the files now.
			future = time.Now().Add(10 * time.Second)
			if err := os.Chtimes(cachePath, future, future); err != nil {
				t.Fatal(err)
			}
			if after, err := os.Stat(r.path("knowledge/sameSize.md")); err != nil || after.Size() != fi.Size() || !after.ModTime().Equal(mtime) {
				t.Fatalf("the same-size edit changed size or mtime: %v %v", after, err)
			}

			r.reads.Store(0)
			got := r.run(cachePath, factsOnly)
			if n := r.reads.Load(); n != 4 {
				t.Errorf("read %d files, want 4 (edited, same size, copied, moved)", n)
			}
			if _, ok := got["knowledge/deleted.md"]; ok {
				t.Error("a deleted record is still examined")
			}
			if _, ok := got["knowledge/renamed.md"]; ok {
				t.Error("a renamed record is still examined under its old name")
			}
			want := map[string]string{
				"knowledge/edited.md":   "second, longer body",
				"knowledge/sameSize.md": "omega",
				"knowledge/copied.md":   "two",
				"knowledge/moved.md":    "moving",
			}
			for p, text := range want {
				ex, ok := got[p]
				if !ok {
					t.Errorf("%s not examined", p)
					continue
				}
				content, err := os.ReadFile(r.path(p))
				if err != nil {
					t.Fatal(err)
				}
				if factsOnly {
					if fresh := memory.Examine(p, content); ex.Description != fresh.Description || ex.ModelInvokation != fresh.ModelInvokation {
						t.Errorf("%s examined as %q invocable=%v, want %q invocable=%v", p, ex.Description, ex.ModelInvokation, fresh.Description, fresh.ModelInvokation)
					}
				} else if !bytes.Contains(ex.Lower, []byte(text)) {
					t.Errorf("%s examined as %q, want it to hold %q", p, ex.Lower, text)
				}
			}

			// And the run after serves them all again, as they are now
			// (its cache file dated past the files' timestamp tick, which
			// the last run's may share: racy entries are read again).
			if err := os.Chtimes(cachePath, future, future); err != nil {
				t.Fatal(err)
			}
			r.reads.Store(0)
			if got := r.run(cachePath, factsOnly); len(got) != 4 {
				t.Errorf("examined %d records, want 4", len(got))
			}
			if n := r.reads.Load(); n != 0 {
				t.Errorf("the run after read %d files, want 0", n)
			}
		})
	}
}
