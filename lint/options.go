package lint

import (
	"runtime"

	"github.com/yoimem/git-yoimem/record"
)

// Options are the linter's thresholds (configuration keys yoimem.lint.* and
// yoimem.metrics.protectFrequency) and inputs.
type Options struct {
	MaxFileBytes       int64
	Caps               map[record.Kind]int // characters per kind
	DescriptionChars   int
	SourcesWarn        int
	LowImportanceChars int
	LossRatio          float64
	SimilarSlugs       bool
	ProtectFrequency   float64
	// Importance returns a record's usage frequency (invokes per million
	// input tokens) and whether it is known. Nil, or unknown, is neutral:
	// no importance-based warning.
	Importance func(path string) (frequency float64, known bool)
	// Workers bounds parallel parsing; 0 means GOMAXPROCS.
	Workers int
}

// DefaultOptions returns the documented defaults.
func DefaultOptions() Options {
	return Options{
		MaxFileBytes: 1 << 20,
		Caps: map[record.Kind]int{
			record.KindSummary:   20000,
			record.KindDecision:  12000,
			record.KindRequest:   12000,
			record.KindKnowledge: 16000,
		},
		DescriptionChars:   1024,
		SourcesWarn:        20,
		LowImportanceChars: 4000,
		LossRatio:          0.5,
		SimilarSlugs:       true,
		ProtectFrequency:   1.0,
	}
}

func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}
