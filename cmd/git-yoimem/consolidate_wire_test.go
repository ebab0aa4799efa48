package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestLimitMemory: a consolidation sets Go's soft memory limit
// (consolidateMemoryLimit), which keeps the heap of a 10,000-record run
// near its live size instead of the three times of GOGC=200 (main); a
// GOMEMLIMIT in the environment is the user's and is left as it is.
func TestLimitMemory(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	limitMemory(Env{Getenv: func(string) string { return "" }})
	if got := debug.SetMemoryLimit(-1); got != consolidateMemoryLimit {
		t.Errorf("limit %d, want %d", got, consolidateMemoryLimit)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	limitMemory(Env{Getenv: func(k string) string {
		if k == "GOMEMLIMIT" {
			return "1GiB"
		}
		return ""
	}})
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("with GOMEMLIMIT set: limit %d, want it left alone", got)
	}
}
