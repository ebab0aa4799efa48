package lint

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// TestLintFileAllocs: a worker linting a clean record again and again,
// its memory reused, allocates next to nothing per file: the node tree,
// lines, record and read buffer are the worker's. (An allocation count,
// not a time: it holds on any machine.)
func TestLintFileAllocs(t *testing.T) {
	const maxAllocsPerFile = 8
	snap := shapeTree(t, 60)
	snap.ReadInto = func(path string, buf []byte) ([]byte, error) {
		b, err := snap.Read(path)
		return append(buf[:0], b...), err
	}
	idx := newIndex(snap)
	opts := DefaultOptions()
	opts.SimilarSlugs = false
	for _, e := range snap.Entries {
		var w worker
		w.lintFile(e, idx, opts) // the worker's memory grows to the file's needs
		allocs := testing.AllocsPerRun(20, func() { w.lintFile(e, idx, opts) })
		// What is left: a decision's facts, the findings, a rule's own
		// lists (references, keys). Before workers reused their memory a
		// record took 30 to 100 allocations.
		if allocs > maxAllocsPerFile {
			t.Errorf("%s: %.0f allocations to lint it again, want at most %d", e.Path, allocs, maxAllocsPerFile)
		}
	}
}

// TestTreeKeepsEntriesInPlace: a whole-tree lint reads the snapshot's
// entries where they are; it does not copy the listing (10,000 entries
// are about a megabyte, and append grew the copy twice over). Measured
// on entries lint reads nothing of (directories), in bytes allocated.
func TestTreeKeepsEntriesInPlace(t *testing.T) {
	const n = 20000
	snap := record.Snapshot{Entries: make([]record.Entry, n)}
	for i := range snap.Entries {
		snap.Entries[i] = record.Entry{Path: fmt.Sprintf("knowledge/d%05d", i), Mode: record.ModeDir}
	}
	opts := DefaultOptions()
	opts.SimilarSlugs = false
	opts.Workers = 1
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	rep := Tree(snap, opts, nil)
	runtime.ReadMemStats(&after)
	if len(rep.Findings) != 1 || rep.Findings[0].Rule != RuleSummaryMissing {
		t.Fatalf("want only summary-missing, got %v", rep.Findings)
	}
	// What is left: the results, a fileResult (32 bytes) an entry.
	perEntry := float64(after.TotalAlloc-before.TotalAlloc) / n
	if perEntry > 64 {
		t.Errorf("Tree allocated %.0f bytes an entry, want at most 64: the listing is copied", perEntry)
	}
}

// TestSimilarSlugsOfFewFilesAllocs: the similar-slug check of one staged
// record (a pre-commit hook) lists the kind's slugs as names, sized
// once, not as the readied infos the check of many files keeps: 112
// bytes a slug grown by doubling came to 1.3 MB for 4,000 knowledge
// records, and a hook's fresh process pays for each page it touches.
func TestSimilarSlugsOfFewFilesAllocs(t *testing.T) {
	const n = 4000
	snap := record.Snapshot{Entries: make([]record.Entry, n)}
	for i := range snap.Entries {
		snap.Entries[i] = record.Entry{Path: "knowledge/" + letterWord(i) + "-" + letterWord(i*7+3) + "-notes.md", Mode: record.ModeRegular}
	}
	snap.Sort()
	idx := newIndex(snap)
	targets := snap.Entries[:1]
	similarSlugFindings(targets, idx) // anything sized once
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	similarSlugFindings(targets, idx)
	runtime.ReadMemStats(&after)
	perSlug := float64(after.TotalAlloc-before.TotalAlloc) / n
	if perSlug > 48 {
		t.Errorf("the similar-slug check of one record allocated %.0f bytes a slug of its kind, want at most 48 (a path and a slug, listed once)", perSlug)
	}
}

// letterWord is a four-letter word made of i: slugs whose words, and so
// their initials, differ as people's do.
func letterWord(i int) string {
	b := make([]byte, 4)
	for k := range b {
		b[k] = byte('a' + i%26)
		i /= 26
	}
	return string(b)
}
