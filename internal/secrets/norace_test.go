//go:build !race

package secrets

// raceEnabled reports whether the race detector is on; timing tests are
// skipped then.
const raceEnabled = false
