package lint

import (
	"runtime"

	"github.com/yoimem/git-yoimem/record"
)

// Options are the linter's thresholds (configuration keys yoimem.lint.* and
// yoimem.metrics.protectFrequency) and inputs.
type Options struct {
	MaxFileBytes     int64
	Caps             map[record.Kind]int // characters per kind
	DescriptionChars int
	SourcesWarn      int
	// LowImportanceTokens is the size, in estimated tokens of the whole
	// file (tokens.Estimate), above which a rarely used or unused record
	// gets a low-importance-size warning; 0 turns it off.
	LowImportanceTokens int64
	LossRatio           float64
	SimilarSlugs        bool
	ProtectFrequency    float64
	// Usage says what usage metrics know of a parsed record (its path and
	// created_at). Nil, or unknown usage, is neutral: no importance-based
	// warning. The record is valid only during the call.
	Usage func(rec *record.Record) Usage
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
		DescriptionChars:    1024,
		SourcesWarn:         20,
		LowImportanceTokens: 1000,
		LossRatio:           0.5,
		SimilarSlugs:        true,
		ProtectFrequency:    1.0,
	}
}

// Usage is what usage metrics say of a record (see the metrics package):
// the importance side of the size x importance check.
type Usage struct {
	Frequency float64 // explicit invokes per million input tokens, when Known
	Known     bool    // enough input tokens counted to tell
	Unused    bool    // no invoke over the unused span
	Idle      int64   // input tokens counted since the last invoke (or creation)
}

func (o Options) workers() int {
	if o.Workers > 0 {
		return o.Workers
	}
	return runtime.GOMAXPROCS(0)
}
