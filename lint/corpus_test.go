package lint

import (
	"testing"

	"github.com/yoimem/git-yoimem/internal/fixture"
)

// benchCorpus reads the bench corpus of n records (fixture.BenchCorpus).
func benchCorpus(tb testing.TB, n int) map[string][]byte {
	tb.Helper()
	return fixture.BenchCorpus(tb, n, "../bench/gencorpus")
}
