package main

import (
	"math"
	"runtime/debug"
	"testing"
)

// TestCollectAtLimitOnly: a search turns the collector off below its
// memory limit and puts the settings back after; GOGC or GOMEMLIMIT in
// the environment leave them alone.
func TestCollectAtLimitOnly(t *testing.T) {
	before := debug.SetGCPercent(100)
	defer debug.SetGCPercent(before)
	restore := collectAtLimitOnly(Env{Getenv: func(string) string { return "" }})
	if p := debug.SetGCPercent(-1); p != -1 {
		t.Errorf("GOGC during a search = %d, want off", p)
	}
	if l := debug.SetMemoryLimit(-1); l != searchMemoryLimit {
		t.Errorf("memory limit during a search = %d, want %d", l, searchMemoryLimit)
	}
	restore()
	if p := debug.SetGCPercent(100); p != 100 {
		t.Errorf("GOGC after = %d, want 100 back", p)
	}
	if l := debug.SetMemoryLimit(-1); l != math.MaxInt64 {
		t.Errorf("memory limit after = %d, want none back", l)
	}
	for _, key := range []string{"GOGC", "GOMEMLIMIT"} {
		collectAtLimitOnly(Env{Getenv: func(k string) string {
			if k == key {
				return "50"
			}
			return ""
		}})()
		if p := debug.SetGCPercent(100); p != 100 {
			t.Errorf("with %s set, GOGC = %d, want 100 untouched", key, p)
		}
	}
}
