//go:build !race

package secrets

// raceEnabled reports whether the race detector is on: its instrumented
// reads of memory outside Go's heap cannot run TestBoundedWorkPerAnchor.
const raceEnabled = false
