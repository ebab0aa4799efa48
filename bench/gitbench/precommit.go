package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/yoimem/git-yoimem/hooks"
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
	hooked, plain := filepath.Join(tmp, "hooked"), filepath.Join(tmp, "plain")
	for _, d := range []string{hooked, plain} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err
		}
	}
	// The shim 'git yoimem install' writes.
	if err := os.WriteFile(filepath.Join(hooked, "pre-commit"), []byte(hooks.Shim("pre-commit")), 0o755); err != nil {
		return err
	}
	var with, without []time.Duration
	for i := -2; i < runs; i++ { // two warm-up rounds
		for _, mode := range []string{plain, hooked} {
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
			if mode == hooked {
				with = append(with, d)
			} else {
				without = append(without, d)
			}
		}
	}
	mw, mo := median(with), median(without)
	fmt.Printf("git commit, one staged record, no hooks: median %s\n", ms(mo))
	fmt.Printf("git commit, one staged record, pre-commit hook: median %s\n", ms(mw))
	fmt.Printf("hook cost / commit without hooks: %.2f (goal <= 0.5)\n", float64(mw-mo)/float64(mo))
	return nil
}
