package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/consolidate/setup"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/workspace"
)

type consolidateOptions struct {
	engine  string
	model   string
	dryRun  bool
	check   bool
	replay  string
	maxRuns int
	format  string
}

// defaultMaxRuns is consolidate's --max-runs, as extract's.
const defaultMaxRuns = 4

func newConsolidateCommand(env Env, g *globalOptions) *cli.Command {
	var opts consolidateOptions
	return &cli.Command{
		Name:      "consolidate",
		Usage:     "turn the staged activity into memory records: one reviewed commit on the memory branch",
		UsageText: "git yoimem consolidate [--engine llm|rules] [--model MODEL] [--dry-run | --check | --replay COMMIT] [--max-runs N] [--format text|json]",
		Description: `Consolidates the staging entries extract wrote under
.yoi/memory/_staging/ into records, as one commit on the memory branch
(yoimem.branch) whose message says what happened to each record and why;
the working tree, the index and HEAD are not touched. The rules engine
(no model) is the default; the llm engine runs a model in a bounded tool
loop when yoimem.consolidate.model is set, or with --engine llm (--model
overrides the setting). Whatever the engine does, the result is linted as
a whole: on any error nothing is committed, the findings are printed and
the staging is kept (exit 1). The commit carries the pending usage
(.yoi/metrics/<run-id>.jsonl) and its evidence as a git note
(refs/notes/yoimem); then the consumed entries are removed. Entries staged
during a run wait for the next, which starts at once while the staging is
still due (yoimem.consolidate.stagingFiles / .stagingBytes), at most
--max-runs runs in all. A run on demand needs no threshold; extract runs
one after it when the staging is due.

Another run holding the lock makes this one exit 3, saying which. --check
reports whether a run is due. --dry-run plans a run and prints the
message and the diff, committing nothing. --replay COMMIT runs a memory
commit's input (its note) again against its parent, with the commit's
engine unless --engine says otherwise, and prints whether the outcome is
the same, with a diff per record where it is not; nothing is committed.
Progress goes to standard error. --format json prints {engine, model,
runs: [{run_id, commit, subject, ops, consumed, sessions, metrics_file,
warnings, skipped}], staging: {files, bytes, due}}.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "engine", Usage: "the `ENGINE`: rules or llm (default: llm when a model is set, else rules)", Destination: &opts.engine},
			&cli.StringFlag{Name: "model", Usage: "the `MODEL` of the llm engine, overriding yoimem.consolidate.model", Destination: &opts.model},
			&cli.BoolFlag{Name: "dry-run", Usage: "plan a run and print its message and diff; nothing is committed or removed", Destination: &opts.dryRun},
			&cli.BoolFlag{Name: "check", Usage: "only report whether a run is due", Destination: &opts.check},
			&cli.StringFlag{Name: "replay", Usage: "run memory commit `COMMIT`'s input again against its parent and show how the outcome differs; nothing is committed", Destination: &opts.replay},
			&cli.IntFlag{Name: "max-runs", Usage: "at most `N` runs, while the staging left is still due", Value: defaultMaxRuns, Destination: &opts.maxRuns},
			formatFlag(&opts.format),
		},
		Action: func(c *cli.Context) error {
			if err := checkFormat(opts.format); err != nil {
				return err
			}
			if c.NArg() > 0 {
				return usageError("consolidate takes no arguments")
			}
			modes := 0
			for _, on := range []bool{opts.dryRun, opts.check, opts.replay != ""} {
				if on {
					modes++
				}
			}
			switch {
			case modes > 1:
				return usageError("--dry-run, --check and --replay exclude each other")
			case opts.maxRuns < 1:
				return usageError("--max-runs %d: give 1 or more", opts.maxRuns)
			case c.IsSet("replay") && strings.TrimSpace(opts.replay) == "":
				return usageError("--replay needs a COMMIT, e.g. --replay yoimem/memory")
			}
			return runConsolidate(c.Context, env, g, opts)
		},
	}
}

func runConsolidate(ctx context.Context, env Env, g *globalOptions, opts consolidateOptions) error {
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	if opts.check {
		return printDue(env, w, opts.format)
	}
	limitMemory(env)
	branch, err := memoryBranch(ctx, w)
	if err != nil {
		return err
	}
	if opts.replay != "" {
		return runReplay(ctx, env, w, branch, opts)
	}
	choice, err := chooseEngine(w, opts.engine, opts.model)
	if err != nil {
		return err
	}
	p := newProgress(env)
	e, err := openEngine(w, choice, p)
	if err != nil {
		return err
	}
	r := newRunner(env, w, branch, e, p)
	if opts.dryRun {
		return runDryRun(ctx, env, w, r, p, opts.format)
	}
	res, err := consolidateNow(ctx, env, w, r, p, opts.maxRuns)
	if err == nil || len(res.Runs) > 0 || len(res.Findings) > 0 {
		if perr := printConsolidation(ctx, env, w, res, opts.format, err == nil); perr != nil && err == nil {
			err = perr
		}
	}
	return consolidateError(w, err)
}

// consolidateNow runs consolidation, again while due, at most maxRuns
// times, and gathers what it did for printing (also when it failed:
// what ran before); then, with yoimem.autoMerge, it merges the new memory
// into the current branch when that is safe, and says on stderr what it
// did.
func consolidateNow(ctx context.Context, env Env, w *workspace.Workspace, r *consolidate.Runner, p *progress, maxRuns int) (consolidation, error) {
	files, bytes := thresholds(w)
	reps, err := r.Run(ctx, maxRuns, files, bytes)
	p.done()
	res, rerr := gather(ctx, w, r, reps, err)
	if err == nil {
		err = rerr
	}
	if err == nil {
		res.AutoMerge, err = autoMerge(ctx, env, w, reps)
	}
	return res, err
}

// autoMerge runs setup.AutoMerge and says what it did; a check that
// could not run is a reason, not a failed consolidation (its commit is
// made); an interrupt is the error.
func autoMerge(ctx context.Context, env Env, w *workspace.Workspace, reps []consolidate.Report) (*gitstore.AutoMergeResult, error) {
	am, err := setup.AutoMerge(ctx, w, reps)
	if ctx.Err() != nil {
		return nil, ctx.Err()
	}
	if err != nil {
		am = &gitstore.AutoMergeResult{Reason: "could not check whether to merge: " + err.Error()}
	}
	if am == nil {
		return nil, nil
	}
	branch := w.Config.String(config.KeyBranch)
	if am.Merged {
		statusf(env.Stderr, "git-yoimem: %s (%s)", am.Reason, config.KeyAutoMerge)
	} else {
		statusf(env.Stderr, "git-yoimem: did not merge %s (%s): %s", branch, config.KeyAutoMerge, terminalSafe(am.Reason))
	}
	return am, nil
}

// printDue is --check: the staging against the thresholds.
func printDue(env Env, w *workspace.Workspace, format string) error {
	files, bytes := thresholds(w)
	b, err := consolidate.Due(w.StagingDir(), files, bytes)
	if err != nil {
		return cannotRun(err)
	}
	if format == "json" {
		return writeJSON(env, dueJSON{Files: b.Files, Bytes: b.Bytes, StagingFiles: files, StagingBytes: bytes, Due: b.Due})
	}
	due := "not due"
	if b.Due {
		due = "due"
	}
	_, err = fmt.Fprintf(env.Stdout, "%s, %s bytes staged; a run is due at %s (%s) or %s bytes (%s): %s\n",
		count(b.Files, "staging entry", "staging entries"), quote.Thousands(b.Bytes), quote.Thousands(int64(files)), config.KeyConsolidateStagingFiles,
		quote.Thousands(bytes), config.KeyConsolidateStagingBytes, due)
	return err
}

// dueJSON is consolidate --check --format json.
type dueJSON struct {
	Files        int   `json:"files"`
	Bytes        int64 `json:"bytes"`
	StagingFiles int   `json:"staging_files"` // the thresholds
	StagingBytes int64 `json:"staging_bytes"`
	Due          bool  `json:"due"`
}

// count is "1 staging entry", "2 staging entries".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%s %s", quote.Thousands(int64(n)), many)
}
