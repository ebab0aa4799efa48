package secrets

import (
	"slices"
	"testing"

	"github.com/yoimem/git-yoimem/internal/fixture"
)

// benchCorpus reads the bench corpus of n records (fixture.BenchCorpus).
func benchCorpus(tb testing.TB, n int) map[string][]byte {
	tb.Helper()
	return fixture.BenchCorpus(tb, n, "../../bench/gencorpus")
}

// corpusFiles are the files of the bench corpus of n records (when none
// is named), in path order.
func corpusFiles(tb testing.TB, n int) [][]byte {
	files := benchCorpus(tb, n)
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	out := make([][]byte, len(paths))
	for i, p := range paths {
		out[i] = files[p]
	}
	return out
}

// BenchmarkFind scans every file of the bench corpus, as lint does.
func BenchmarkFind(b *testing.B) {
	files := corpusFiles(b, 10000)
	n := 0
	for _, f := range files {
		n += len(f)
	}
	b.SetBytes(int64(n))
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range files {
			Find(f)
		}
	}
}
