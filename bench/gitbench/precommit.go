package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/yoimem/git-yoimem/githook"
)

// preCommit alternates commits with and without the hook; before each, one
// record gets a new line and is staged (not timed).
func preCommit(repo string, runs int) error {
	recs, err := records(repo, 1)
	if err != nil {
		return err
	}
	target := filepath.Join(repo, ".yoi", recs[0])
	tmp, err := os.MkdirTemp("", "gitbench-hooks-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	hooked, plain, empty, idle := filepath.Join(tmp, "hooked"), filepath.Join(tmp, "plain"), filepath.Join(tmp, "empty"), filepath.Join(tmp, "idle")
	for _, d := range []string{hooked, plain, empty, idle} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
	}
	// The shim 'git yoimem install' writes.
	if err := os.WriteFile(filepath.Join(hooked, "pre-commit"), []byte(githook.Shim("pre-commit")), 0o755); err != nil {
		return err
	}
	// An empty hook shows what any pre-commit hook costs git (a shell, and
	// git reading the index again afterwards): the floor under ours.
	if err := os.WriteFile(filepath.Join(empty, "pre-commit"), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
		return err
	}
	// A hook that starts git-yoimem to do nothing: the floor under any
	// hook that is a git-yoimem command (the shell, then the process).
	if err := os.WriteFile(filepath.Join(idle, "pre-commit"), []byte("#!/bin/sh\nexec git-yoimem --version >/dev/null\n"), 0o755); err != nil {
		return err
	}
	var with, without, bare, started []time.Duration
	for i := -2; i < runs; i++ { // two warm-up rounds
		for _, mode := range []string{plain, empty, idle, hooked} {
			f, err := os.OpenFile(target, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				return err
			}
			fmt.Fprintf(f, "\nRound %d %s.\n", i, filepath.Base(mode))
			f.Close()
			if _, err := git(repo, nil, nil, "add", ".yoi/"+recs[0]); err != nil {
				return err
			}
			start := time.Now()
			if _, err := git(repo, nil, nil, "-c", "core.hooksPath="+mode, "commit", "-q", "-m", "bench"); err != nil {
				return err
			}
			d := time.Since(start)
			if i < 0 {
				continue
			}
			switch mode {
			case hooked:
				with = append(with, d)
			case empty:
				bare = append(bare, d)
			case idle:
				started = append(started, d)
			default:
				without = append(without, d)
			}
		}
	}
	mw, mo, me, mi := median(with), median(without), median(bare), median(started)
	fmt.Printf("git commit, one staged record, no hooks: median %s\n", ms(mo))
	fmt.Printf("git commit, one staged record, an empty pre-commit hook: median %s (floor: %.2f)\n", ms(me), float64(me-mo)/float64(mo))
	fmt.Printf("git commit, one staged record, a pre-commit hook running git-yoimem --version: median %s (floor of a git-yoimem hook: %.2f)\n", ms(mi), float64(mi-mo)/float64(mo))
	fmt.Printf("git commit, one staged record, pre-commit hook: median %s\n", ms(mw))
	fmt.Printf("hook cost / commit without hooks: %.2f (goal <= 0.35 in every run)\n", float64(mw-mo)/float64(mo))
	return nil
}
