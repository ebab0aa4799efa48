package lint

import "testing"

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
