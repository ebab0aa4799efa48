// Command gitbench measures git-yoimem's git-facing costs against git
// itself, in one run on one repository:
//
//	gitbench precommit -repo DIR [-runs N]
//	    the time the pre-commit hook adds to `git commit` with one staged
//	    record, divided by the time of the same commit without hooks
//	gitbench memcommit -repo DIR [-runs N] [-files 10]
//	    committing a change set of FILES records to the memory branch,
//	    divided by git's own plumbing path for the same commit (temporary
//	    index: read-tree, hash-object, update-index, write-tree,
//	    commit-tree, update-ref)
//	gitbench consolidate -repo DIR [-runs N] [-entries 100] [-engine rules]
//	gitbench consolidate-cli -repo DIR -bin PATH [-runs N] [-entries 100]
//	    one consolidation run over ENTRIES staged entries, each in a new
//	    process (gitbench consolidate-run) with the rules engine or fold
//	    (the plumbing alone): its wall time, steps and peak memory
//	gitbench listing -repo DIR [-runs N] [-dir knowledge]
//	    the working tree's listing of .yoi/ (or DIR under it) with one
//	    fstatat per file, in process: the floor of a stat-validated cache
//
// DIR is a repository whose .yoi/ holds the benchmark corpus, committed on
// its current branch; git-yoimem must be on PATH for precommit.
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: gitbench precommit|memcommit|consolidate -repo DIR [-runs N]")
		os.Exit(2)
	}
	fs := flag.NewFlagSet(os.Args[1], flag.ExitOnError)
	repo := fs.String("repo", "", "repository with the corpus")
	runs := fs.Int("runs", 10, "measured runs of each side")
	files := fs.Int("files", 10, "records per change set (memcommit)")
	entries := fs.Int("entries", 100, "staged entries per run (consolidate)")
	engine := fs.String("engine", "rules", "rules or fold (consolidate)")
	bin := fs.String("bin", "git-yoimem", "the git-yoimem binary (consolidate-cli)")
	dir := fs.String("dir", "", "a directory under .yoi/ (listing)")
	_ = fs.Parse(os.Args[2:])
	if *repo == "" || *runs < 1 {
		fmt.Fprintln(os.Stderr, "gitbench: -repo is required and -runs must be at least 1")
		os.Exit(2)
	}
	// consolidate's runs are its children: they write the profile (the
	// last run's).
	if p := os.Getenv("GITBENCH_CPUPROFILE"); p != "" && os.Args[1] != "consolidate" {
		f, err := os.Create(p)
		if err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	if os.Args[1] == "consolidate-cli" {
		if err := consolidateCLI(*repo, *runs, *entries, *engine, *bin); err != nil {
			fmt.Fprintln(os.Stderr, "gitbench:", err)
			os.Exit(1)
		}
		return
	}
	if os.Args[1] == "listing" {
		if err := listing(*repo, *runs, *dir); err != nil {
			fmt.Fprintln(os.Stderr, "gitbench:", err)
			os.Exit(1)
		}
		return
	}
	if err := runBench(os.Args[1], *repo, *runs, *files, *entries, *engine); err != nil {
		fmt.Fprintln(os.Stderr, "gitbench:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

func runBench(name, repo string, runs, files, entries int, engine string) error {
	switch name {
	case "precommit":
		return preCommit(repo, runs)
	case "memcommit":
		return memCommit(repo, runs, files)
	case "consolidate":
		return consolidateBench(repo, runs, entries, engine)
	case "consolidate-run":
		return consolidateRun(repo, engine)
	}
	return fmt.Errorf("unknown benchmark %q", name)
}
