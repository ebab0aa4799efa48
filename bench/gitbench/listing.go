package main

import (
	"fmt"
	"time"

	"github.com/yoimem/git-yoimem/gitstore"
)

// listing times, in this process, what a stat-validated cache costs at
// least before it can answer: the working tree's listing of .yoi/ (or of
// dir under it) with one fstatat per file, as search and context make it.
// The process start is not in it: add the --version floor.
func listing(repo string, runs int, dir string) error {
	var dirs []string
	if dir != "" {
		dirs = append(dirs, dir)
	}
	var ds []time.Duration
	n := 0
	for i := -1; i < runs; i++ { // one warm-up
		start := time.Now()
		snap, err := gitstore.WorktreeSnapshotOf(repo, 0, dirs...)
		if err != nil {
			return err
		}
		if i >= 0 {
			ds = append(ds, time.Since(start))
		}
		n = len(snap.Entries)
	}
	what := ".yoi/"
	if dir != "" {
		what = ".yoi/" + dir + "/"
	}
	fmt.Printf("listing of %s with one fstatat per file, in process: median %s (%d entries)\n", what, ms(median(ds)), n)
	return nil
}
