package catcache

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
)

const ts = "2026-01-05T09:30:00Z"

func knowledge(desc string, invocable bool, body string) string {
	inv := "false"
	if invocable {
		inv = "true"
	}
	return "---\nkind: rule\ndescription: " + desc + "\nmodel_invokation: " + inv + "\ncreated_at: " + ts + "\nupdated_at: " + ts + "\nlast_sources: []\n---\n" + body
}

// stamped is a snapshot of files with given stamps that counts its reads.
type stamped struct {
	files  map[string]string
	stamps map[string]record.Stamp
	reads  atomic.Int64
}

func (s *stamped) snapshot() record.Snapshot {
	var snap record.Snapshot
	for p, c := range s.files {
		st := s.stamps[p]
		st.Size = int64(len(c))
		snap.Entries = append(snap.Entries, record.Entry{Path: p, Mode: record.ModeRegular, Size: int64(len(c)), Stamp: st})
	}
	snap.Sort()
	snap.Read = func(p string) ([]byte, error) {
		s.reads.Add(1)
		c, ok := s.files[p]
		if !ok {
			return nil, record.ErrNotExist
		}
		return []byte(c), nil
	}
	return snap
}

// old is a stamp from long before any cache file in a test is written.
func old(ino uint64) record.Stamp {
	t := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC).UnixNano()
	return record.Stamp{ModNs: t, ChangeNs: t, Ino: ino}
}

func newFiles() *stamped {
	return &stamped{
		files: map[string]string{
			"knowledge/retry.md":  knowledge("How to retry", true, "Retry twice.\n"),
			"knowledge/sqlite.md": knowledge("SQLite settings", false, "busy_timeout=5000\n"),
			"knowledge/binary.md": "retry\x00",
			"knowledge/broken.md": "no frontmatter, mentions retry\n",
		},
		stamps: map[string]record.Stamp{
			"knowledge/retry.md": old(1), "knowledge/sqlite.md": old(2), "knowledge/binary.md": old(3), "knowledge/broken.md": old(4),
		},
	}
}

func examineAll(t *testing.T, c *Cache, snap record.Snapshot) map[string]memory.Examined {
	t.Helper()
	ex := c.Examiner(snap)
	out := map[string]memory.Examined{}
	for _, e := range snap.Entries {
		got, err := ex(e)
		if err != nil {
			t.Fatalf("examine %s: %v", e.Path, err)
		}
		out[e.Path] = got
	}
	return out
}

// TestCacheServesUnchangedFiles: the second run reads nothing and agrees
// with examining the files themselves.
func TestCacheServesUnchangedFiles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache", "catalog")
	files := newFiles()
	snap := files.snapshot()
	c := mustLoad(t, path)
	first := examineAll(t, c, snap)
	if n := files.reads.Load(); n != 4 {
		t.Fatalf("cold run read %d files, want 4", n)
	}
	if err := c.Save(snap); err != nil {
		t.Fatal(err)
	}
	files.reads.Store(0)
	second := examineAll(t, mustLoad(t, path), snap)
	if n := files.reads.Load(); n != 0 {
		t.Errorf("warm run read %d files, want 0", n)
	}
	for p, want := range first {
		if want.Lower == nil {
			want.Lower = []byte{}
		}
		got := second[p]
		if got.Lower == nil {
			got.Lower = []byte{}
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: cached %+v, want %+v", p, got, want)
		}
		if fresh := memory.ExamineText(p, []byte(files.files[p])); !reflect.DeepEqual(normLower(fresh), normLower(got)) {
			t.Errorf("%s: cached examination differs from the file's", p)
		}
	}
}

// TestCacheRevalidates: a changed stamp, a change as recent as the cache
// file (racy) and a file never cached are read; the rest are not.
func TestCacheRevalidates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "catalog")
	files := newFiles()
	c := mustLoad(t, path)
	examineAll(t, c, files.snapshot())
	if err := c.Save(files.snapshot()); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	files.files["knowledge/retry.md"] = knowledge("How to retry, changed", true, "Retry three times.\n")
	racy := fi.ModTime().UnixNano()
	files.stamps["knowledge/sqlite.md"] = record.Stamp{ModNs: racy, ChangeNs: racy, Ino: 2}
	files.files["knowledge/new.md"] = knowledge("New", false, "new\n")
	files.stamps["knowledge/new.md"] = old(5)
	files.stamps["knowledge/binary.md"] = old(33) // replaced by another inode
	files.reads.Store(0)
	c = mustLoad(t, path)
	got := examineAll(t, c, files.snapshot())
	// retry.md changed size; sqlite.md is racy; new.md is new; binary.md's inode changed.
	if n := files.reads.Load(); n != 4 {
		t.Errorf("read %d files, want 4 (changed, racy, new, replaced)", n)
	}
	if !bytes.Contains(got["knowledge/retry.md"].Lower, []byte("retry three times")) {
		t.Errorf("changed file examined as %+v", got["knowledge/retry.md"])
	}
}

// TestCacheSaveKeepsTheScope: removed files leave the cache; an unchanged
// cache is not rewritten.
func TestCacheSaveKeepsTheScope(t *testing.T) {
	path := filepath.Join(t.TempDir(), "catalog")
	files := newFiles()
	c := mustLoad(t, path)
	examineAll(t, c, files.snapshot())
	if err := c.Save(files.snapshot()); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(path)
	c = mustLoad(t, path)
	examineAll(t, c, files.snapshot())
	if err := c.Save(files.snapshot()); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(path)
	if !os.SameFile(before, after) {
		t.Errorf("an unchanged cache was rewritten")
	}
	delete(files.files, "knowledge/sqlite.md")
	c = mustLoad(t, path)
	if err := c.Save(files.snapshot()); err != nil {
		t.Fatal(err)
	}
	c = mustLoad(t, path)
	if _, ok := c.lookup("knowledge/sqlite.md"); ok {
		t.Errorf("a removed file stayed in the cache")
	}
	if _, ok := c.lookup("knowledge/retry.md"); !ok {
		t.Errorf("a listed, unexamined file left the cache")
	}
}

// TestCacheDamagedFile: a damaged cache is ignored and rewritten.
func TestCacheDamagedFile(t *testing.T) {
	for name, data := range map[string][]byte{
		"garbage":   []byte("not a cache"),
		"empty":     {},
		"truncated": encode([]entry{{path: "knowledge/a.md"}})[:20],
		"bad crc":   append(encode([]entry{{path: "knowledge/a.md"}})[:30], 0, 0, 0, 0),
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "catalog")
			if err := os.WriteFile(path, data, 0o600); err != nil {
				t.Fatal(err)
			}
			files := newFiles()
			c := mustLoad(t, path)
			examineAll(t, c, files.snapshot())
			if files.reads.Load() != 4 {
				t.Errorf("a damaged cache served examinations")
			}
			if err := c.Save(files.snapshot()); err != nil {
				t.Fatal(err)
			}
			b, _ := os.ReadFile(path)
			if _, err := decode(b); err != nil {
				t.Errorf("not rewritten: %v", err)
			}
		})
	}
}

// TestCacheUnwritable: a cache that cannot be written is an error the
// caller may warn about; examinations still work.
func TestCacheUnwritable(t *testing.T) {
	dir := t.TempDir()
	blocker := filepath.Join(dir, "file")
	if err := os.WriteFile(blocker, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	c, err := Load(filepath.Join(blocker, "catalog"), nil)
	if err == nil {
		t.Errorf("Load under a regular file: no error")
	}
	files := newFiles()
	examineAll(t, c, files.snapshot())
	if err := c.Save(files.snapshot()); err == nil {
		t.Errorf("Save under a regular file succeeded")
	}
}

// TestSearchThroughCache: searches give the same hits with and without
// the cache, warm or cold.
func TestSearchThroughCache(t *testing.T) {
	path := filepath.Join(t.TempDir(), "catalog")
	files := newFiles()
	snap := files.snapshot()
	for _, q := range []string{"retry", "busy_timeout", "RETRY twice", "nothing-like-this"} {
		want, err := memory.Search(snap, memory.ScopeKnowledge, memory.Query{Text: q}, memory.Options{ExcerptLines: 1})
		if err != nil {
			t.Fatal(err)
		}
		for run := range 2 {
			c := mustLoad(t, path)
			got, err := memory.Search(snap, memory.ScopeKnowledge, memory.Query{Text: q}, memory.Options{ExcerptLines: 1, Examine: c.Examiner(snap)})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%q run %d: %+v, want %+v", q, run, got, want)
			}
			if err := c.Save(snap); err != nil {
				t.Fatal(err)
			}
		}
	}
}

func mustLoad(t *testing.T, path string) *Cache {
	t.Helper()
	c, err := Load(path, nil)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return c
}

func TestEncodeDecode(t *testing.T) {
	in := []entry{
		{path: "knowledge/a.md", stamp: record.Stamp{Size: 10, ModNs: -5, ChangeNs: 1 << 62, Ino: 1<<64 - 1},
			ex: memory.Examined{Text: true, Kind: "rule", Description: "déjà vu", ModelInvokation: true, UserInvocable: true, Status: "", Problem: "", Lower: []byte("body")}},
		{path: "knowledge/b.md", ex: memory.Examined{Problem: "not UTF-8 text"}},
		{path: "memory/decisions/x.md", ex: memory.Examined{Text: true, Kind: "decision", Status: "resolved", Lower: []byte{}}},
	}
	data := encode(in)
	out, err := decode(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != len(in) {
		t.Fatalf("decoded %d entries, want %d", len(out), len(in))
	}
	for i := range in {
		if !bytes.Equal(out[i].ex.Lower, in[i].ex.Lower) {
			t.Errorf("entry %d lower %q, want %q", i, out[i].ex.Lower, in[i].ex.Lower)
		}
		out[i].ex.Lower, in[i].ex.Lower = nil, nil
		if !reflect.DeepEqual(out[i], in[i]) {
			t.Errorf("entry %d = %+v, want %+v", i, out[i], in[i])
		}
	}
	if _, err := decode(encode([]entry{{path: "b"}, {path: "a"}})); err == nil {
		t.Errorf("unsorted paths decoded")
	}
}

// FuzzDecode: any bytes decode or are refused, never a panic; what decodes
// encodes back to the same bytes.
func FuzzDecode(f *testing.F) {
	f.Add(encode(nil))
	f.Add(encode([]entry{{path: "knowledge/a.md", ex: memory.Examined{Text: true, Lower: []byte("x")}}}))
	f.Add([]byte(magic + "\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"))
	f.Fuzz(func(t *testing.T, data []byte) {
		out, err := decode(data)
		if err != nil {
			return
		}
		if again := encode(out); !bytes.Equal(again, data) {
			t.Errorf("decode/encode changed the bytes:\n%q\n%q", data, again)
		}
	})
}

// TestCacheLongLived: a long-lived process trusts its own examinations of
// files whose stat times are older than the examination by the timestamp
// granularity, and re-reads the others.
func TestCacheLongLived(t *testing.T) {
	files := newFiles()
	recent := time.Date(2020, 1, 1, 0, 0, 1, 0, time.UTC).UnixNano() // 1 s after old()
	files.stamps["knowledge/sqlite.md"] = record.Stamp{ModNs: recent, ChangeNs: recent, Ino: 2}
	clock := time.Date(2020, 1, 1, 0, 0, 2, 500_000_000, time.UTC) // 2.5 s after old()
	c, err := Load(filepath.Join(t.TempDir(), "catalog"), func() time.Time { return clock })
	if err != nil {
		t.Fatal(err)
	}
	examineAll(t, c, files.snapshot())
	files.reads.Store(0)
	examineAll(t, c, files.snapshot())
	// sqlite.md changed 1.5 s before it was examined: within the granularity.
	if n := files.reads.Load(); n != 1 {
		t.Errorf("second pass read %d files, want 1 (the recently changed one)", n)
	}
	files.reads.Store(0)
	clock = clock.Add(time.Minute)
	examineAll(t, c, files.snapshot()) // re-examined a minute later: settled
	examineAll(t, c, files.snapshot())
	if n := files.reads.Load(); n != 1 {
		t.Errorf("read %d files, want 1 (once more, then settled)", n)
	}
}

// TestCacheFactsOnly: a facts-only cache serves descriptions without the
// lowered texts, from memory and from its file.
func TestCacheFactsOnly(t *testing.T) {
	path := filepath.Join(t.TempDir(), "facts")
	files := newFiles()
	c, err := LoadFacts(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := examineAll(t, c, files.snapshot())
	if err := c.Save(files.snapshot()); err != nil {
		t.Fatal(err)
	}
	c, err = LoadFacts(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	files.reads.Store(0)
	second := examineAll(t, c, files.snapshot())
	if n := files.reads.Load(); n != 0 {
		t.Errorf("warm facts-only run read %d files", n)
	}
	for p, ex := range second {
		if len(ex.Lower) != 0 || len(first[p].Lower) != 0 {
			t.Errorf("%s: a facts-only cache kept text", p)
		}
		if ex.Description != first[p].Description || ex.ModelInvokation != first[p].ModelInvokation {
			t.Errorf("%s: facts differ: %+v vs %+v", p, ex, first[p])
		}
	}
}

func normLower(ex memory.Examined) memory.Examined {
	if ex.Lower == nil {
		ex.Lower = []byte{}
	}
	return ex
}

// TestCacheRacyEntryNotLaundered: a racy entry (its file changed as late
// as the cache file was written) is not trusted by Load, and a later Save
// that does not re-examine it must not keep it: the rewritten cache file
// is newer and would vouch for it, stale.
func TestCacheRacyEntryNotLaundered(t *testing.T) {
	path := filepath.Join(t.TempDir(), "catalog")
	files := newFiles()
	racyT := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	racy := record.Stamp{ModNs: racyT.UnixNano(), ChangeNs: racyT.UnixNano(), Ino: 9}
	files.stamps["knowledge/retry.md"] = racy
	// Run 1 examined retry.md (v1) and wrote the cache in the same tick.
	c := mustLoad(t, path)
	examineAll(t, c, files.snapshot())
	if err := c.Save(files.snapshot()); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, racyT, racyT); err != nil { // the cache was written in the file's tick
		t.Fatal(err)
	}
	// retry.md changes within that tick: same size, same stamp.
	v1 := files.files["knowledge/retry.md"]
	v2 := knowledge("How to retry", true, "Retry NEVER.\n")
	v2 = v2[:len(v1)]
	files.files["knowledge/retry.md"] = v2
	// Run 2: a slug search for another record, plus a new record.
	files.files["knowledge/new.md"] = knowledge("New", false, "new\n")
	files.stamps["knowledge/new.md"] = old(7)
	c = mustLoad(t, path)
	snap := files.snapshot()
	if _, err := memory.Search(snap, memory.ScopeKnowledge, memory.Query{Slug: "new"}, memory.Options{Examine: c.Examiner(snap)}); err != nil {
		t.Fatal(err)
	}
	if err := c.Save(snap); err != nil {
		t.Fatal(err)
	}
	// Run 3: retry.md must be read again, not served from the cache as v1.
	c = mustLoad(t, path)
	got := examineAll(t, c, files.snapshot())
	want := memory.ExamineText("knowledge/retry.md", []byte(v2))
	if string(got["knowledge/retry.md"].Lower) != string(want.Lower) {
		t.Errorf("stale examination served:\n got %q\nwant %q", got["knowledge/retry.md"].Lower, want.Lower)
	}
}

// TestCacheSaveLeavesOutUnsettled: an examination of a file that changed
// within Granularity of the examination's start is not written (the file
// may have changed again since without changing its stamp), with or
// without a clock; the rest are.
func TestCacheSaveLeavesOutUnsettled(t *testing.T) {
	for name, clock := range map[string]func() time.Time{
		"nil clock":   nil,
		"fixed clock": func() time.Time { return time.Date(2024, 6, 1, 0, 0, 0, 0, time.UTC) },
	} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "catalog")
			files := newFiles()
			at := time.Now()
			if clock != nil {
				at = clock()
			}
			recent := at.Add(-Granularity / 2).UnixNano()
			files.stamps["knowledge/sqlite.md"] = record.Stamp{ModNs: recent, ChangeNs: recent, Ino: 2}
			c, err := Load(path, clock)
			if err != nil {
				t.Fatal(err)
			}
			examineAll(t, c, files.snapshot())
			if err := c.Save(files.snapshot()); err != nil {
				t.Fatal(err)
			}
			// However late the cache file is dated, sqlite.md is read again.
			later := at.Add(time.Hour)
			if err := os.Chtimes(path, later, later); err != nil {
				t.Fatal(err)
			}
			c, err = Load(path, clock)
			if err != nil {
				t.Fatal(err)
			}
			if _, ok := c.lookup("knowledge/sqlite.md"); ok {
				t.Errorf("an unsettled examination was written")
			}
			files.reads.Store(0)
			examineAll(t, c, files.snapshot())
			if n := files.reads.Load(); n != 1 {
				t.Errorf("read %d files, want 1 (the recently changed one)", n)
			}
		})
	}
}

// encode is writeEntries into memory, for tests of the format.
func encode(entries []entry) []byte {
	var b bytes.Buffer
	writeEntries(&b, entries) // a bytes.Buffer does not fail
	return b.Bytes()
}

// TestCacheSaveUnchangedAllocatesNothing: a warm run that served part of
// the scope from the cache (the always-on context examines knowledge
// files, not the summary listed with them) and changed nothing neither
// rewrites the cache nor builds the entries it would write: the hook
// in front of the user pays for neither.
func TestCacheSaveUnchangedAllocatesNothing(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cache", "catalog")
	files := newFiles()
	snap := files.snapshot()
	c := mustLoad(t, path)
	examineAll(t, c, snap)
	if err := c.Save(snap); err != nil {
		t.Fatal(err)
	}
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	warm := mustLoad(t, path)
	ex := warm.Examiner(snap)
	for _, e := range snap.Entries[1:] { // one listed file not examined
		if _, err := ex(e); err != nil {
			t.Fatal(err)
		}
	}
	if n := testing.AllocsPerRun(10, func() {
		if err := warm.Save(snap); err != nil {
			t.Fatal(err)
		}
	}); n != 0 {
		t.Errorf("Save of an unchanged cache made %v allocations, want 0", n)
	}
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !after.ModTime().Equal(before.ModTime()) || !os.SameFile(before, after) {
		t.Error("an unchanged cache was rewritten")
	}
}
