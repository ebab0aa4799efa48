package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestLimitMemory: a consolidation sets Go's soft memory limit
// (consolidateMemoryLimit) and GOGC (consolidateGCPercent), which keep the
// heap of a 10,000-record run near its live size instead of the three
// times of GOGC=200 (main); GOGC or GOMEMLIMIT in the environment are the
// user's and are left as they are.
func TestLimitMemory(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	defer debug.SetGCPercent(debug.SetGCPercent(200))
	limitMemory(Env{Getenv: func(string) string { return "" }})
	if got := debug.SetMemoryLimit(-1); got != consolidateMemoryLimit {
		t.Errorf("limit %d, want %d", got, consolidateMemoryLimit)
	}
	if got := debug.SetGCPercent(200); got != consolidateGCPercent {
		t.Errorf("GOGC %d, want %d", got, consolidateGCPercent)
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
