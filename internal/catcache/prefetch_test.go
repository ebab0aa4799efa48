package catcache

import (
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
)

// manyFiles is n knowledge records and n other files, all settled.
func manyFiles(n int) *stamped {
	s := &stamped{files: map[string]string{}, stamps: map[string]record.Stamp{}}
	for i := range n {
		k := fmt.Sprintf("knowledge/r%03d.md", i)
		s.files[k], s.stamps[k] = knowledge(fmt.Sprintf("Record %d", i), i%2 == 0, "Retry RECORD "+k+"\n"), old(uint64(2*i+1))
		o := fmt.Sprintf("other/o%03d.md", i)
		s.files[o], s.stamps[o] = "other\n", old(uint64(2*i+2))
	}
	return s
}

func isKnowledge(e record.Entry) bool { return strings.HasPrefix(e.Path, "knowledge/") }

// TestCachePrefetch: Prefetch reads each wanted file the cache cannot
// serve once, on several goroutines, and the Examiner then serves them
// as it would have examined them; unwanted files are not read; a second
// run prefetches nothing; what Prefetch looked up in the loaded file is
// not counted as served (Save still knows what the search used).
func TestCachePrefetch(t *testing.T) {
	path := filepath.Join(t.TempDir(), "catalog")
	files := manyFiles(200)
	snap := files.snapshot()
	c, err := Load(path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	c.Prefetch(snap, isKnowledge, 4)
	if n := files.reads.Load(); n != 200 {
		t.Fatalf("Prefetch read %d files, want the 200 records", n)
	}
	ex := c.Examiner(snap)
	for _, e := range snap.Entries {
		if !isKnowledge(e) {
			continue
		}
		got, err := ex(e)
		if err != nil {
			t.Fatal(err)
		}
		if want := memory.ExamineText(e.Path, []byte(files.files[e.Path])); !reflect.DeepEqual(normLower(got), normLower(want)) {
			t.Errorf("%s: prefetched %+v, want %+v", e.Path, got, want)
		}
	}
	if n := files.reads.Load(); n != 200 {
		t.Errorf("the search after Prefetch read %d more files, want none", n-200)
	}
	if err := c.Save(snap); err != nil {
		t.Fatal(err)
	}

	files.reads.Store(0)
	c, err = Load(path, time.Now)
	if err != nil {
		t.Fatal(err)
	}
	c.Prefetch(snap, isKnowledge, 4)
	if n := files.reads.Load(); n != 0 {
		t.Errorf("Prefetch on a warm cache read %d files, want none", n)
	}
	if n := c.served.Load(); n != 0 {
		t.Errorf("Prefetch counted %d entries as served, want none (the search counts them)", n)
	}
}

// TestCachePrefetchNothing: a cache without a clock keeps nothing it
// examines, and one worker or a few misses are left to the Examiner:
// Prefetch reads nothing.
func TestCachePrefetchNothing(t *testing.T) {
	files := manyFiles(200)
	snap := files.snapshot()
	c := mustLoad(t, filepath.Join(t.TempDir(), "catalog"))
	c.Prefetch(snap, isKnowledge, 4)
	c, err := Load(filepath.Join(t.TempDir(), "catalog"), time.Now)
	if err != nil {
		t.Fatal(err)
	}
	c.Prefetch(snap, isKnowledge, 1)
	c.Prefetch(snap, func(e record.Entry) bool { return e.Path < "knowledge/r010.md" }, 4)
	if n := files.reads.Load(); n != 0 {
		t.Errorf("read %d files, want none", n)
	}
}
