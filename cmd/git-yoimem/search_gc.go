package main

import "runtime/debug"

// searchMemoryLimit is the soft memory limit (Go's GOMEMLIMIT) under which
// a search does not collect garbage: what a search allocates stays live
// until it exits (the records' examinations wait for the cache's Save),
// so a collection on the way only costs time. A cold search of the bench
// corpus (3,499 records, 10 MB) went through collections costing about
// 2 ms of CPU, and their assists held up the readers. Past the limit the
// collector runs as usual.
const searchMemoryLimit = 256 << 20

// collectAtLimitOnly turns the collector off below searchMemoryLimit,
// unless the environment sets GOGC or GOMEMLIMIT (the user's choice). It
// returns what puts the previous settings back: the tests run commands
// in one process.
func collectAtLimitOnly(env Env) (restore func()) {
	if env.Getenv != nil && (env.Getenv("GOGC") != "" || env.Getenv("GOMEMLIMIT") != "") {
		return func() {}
	}
	limit := debug.SetMemoryLimit(searchMemoryLimit)
	percent := debug.SetGCPercent(-1)
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}
