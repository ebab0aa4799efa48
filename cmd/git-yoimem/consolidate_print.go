package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/memsync"
	"github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

// consolidation is what a series of runs did, as printed; its JSON is
// `consolidate --format json`'s (docs/output.md: snake_case, paths from
// the workspace root).
type consolidation struct {
	Engine string    `json:"engine"`
	Model  string    `json:"model,omitempty"`
	Runs   []runJSON `json:"runs"`
	// Staging is what is left staged after the runs.
	Staging backlogJSON `json:"staging"`
	// Findings are the linter's errors that refused a run, if one was.
	Findings []memory.Finding `json:"findings,omitempty"`
	// AutoMerge is what yoimem.autoMerge did after the runs: absent when
	// it is off or nothing was committed.
	AutoMerge *gitstore.AutoMergeResult `json:"auto_merge,omitempty"`
}

// runJSON is one run: its commit as `git yoimem log` shows it, or what it
// did without one.
type runJSON struct {
	RunID string `json:"run_id"`
	// Resumed is the dead run whose lock this one took over.
	Resumed     *resumedJSON `json:"resumed,omitempty"`
	Commit      string       `json:"commit"` // "" when nothing was committed
	Date        string       `json:"date,omitempty"`
	Subject     string       `json:"subject,omitempty"`
	Ops         []memlog.Op  `json:"ops"`
	Consumed    []string     `json:"consumed"` // staging IDs
	Sessions    []string     `json:"sessions"`
	MetricsFile string       `json:"metrics_file,omitempty"`
	// Restarted: the commit starts from the base, the memory tip having
	// been merged by squash or rebase (docs/memory-branch.md).
	Restarted string `json:"restarted,omitempty"`
	// Sync is what the sync before the run did (yoimem.sync), SyncError
	// why it failed: the run then went on with the local memory.
	Sync      *memsync.Report  `json:"sync,omitempty"`
	SyncError string           `json:"sync_error,omitempty"`
	Warnings  []memory.Finding `json:"warnings"`
	Skipped   []skippedJSON    `json:"skipped"`

	entry *gitstore.MemoryCommit // the commit as log reads it
}

type resumedJSON struct {
	RunID string `json:"run_id"`
	PID   int    `json:"pid"`
	Host  string `json:"host"`
	// Finished: the dead run had committed, and this one only finished
	// it (note, usage, staging); else its entries were redone.
	Finished bool `json:"finished"`
}

// skippedJSON is a staging entry that could not be read: left in place.
type skippedJSON struct {
	Path   string `json:"path"`
	Reason string `json:"reason"`
}

type backlogJSON struct {
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
	Due   bool  `json:"due"`
}

// gather reads what the runs did: each commit as the memory log has it,
// the entries skipped, the linter's findings of a refused run, and the
// staging left.
func gather(ctx context.Context, w *workspace.Workspace, r *consolidate.Runner, reps []consolidate.Report, runErr error) (consolidation, error) {
	res := consolidation{Engine: r.Engine.Name(), Model: r.Engine.Model(), Runs: []runJSON{}}
	for _, rep := range reps {
		if !rep.Committed() && rep.Plan == nil && rep.Resumed == nil && len(rep.Problems) == 0 {
			continue // nothing staged, or a run that failed: its error says why
		}
		run, err := runOf(ctx, w, rep)
		if err != nil {
			return res, err
		}
		res.Runs = append(res.Runs, run)
	}
	var lintErr *consolidate.LintError
	if errors.As(runErr, &lintErr) {
		res.Findings = memory.Findings(lintErr.Findings)
	}
	files, bytes := thresholds(w)
	b, err := consolidate.Due(r.StagingDir, files, bytes)
	res.Staging = backlogJSON{Files: b.Files, Bytes: b.Bytes, Due: b.Due}
	return res, err
}

func runOf(ctx context.Context, w *workspace.Workspace, rep consolidate.Report) (runJSON, error) {
	run := runJSON{RunID: rep.RunID, Ops: []memlog.Op{}, Consumed: []string{}, Sessions: []string{}, Warnings: []memory.Finding{}, Skipped: []skippedJSON{}}
	run.Sync = rep.Sync
	if rep.SyncErr != nil {
		run.SyncError = rep.SyncErr.Error()
	}
	if h := rep.Resumed; h != nil {
		run.Resumed = &resumedJSON{RunID: h.RunID, PID: h.PID, Host: h.Host, Finished: rep.Finished}
	}
	for _, p := range rep.Problems {
		run.Skipped = append(run.Skipped, skippedJSON{Path: record.DisplayPath(record.StagingDir + "/" + p.ID + ".json"), Reason: p.Err.Error()})
	}
	if rep.Plan != nil {
		run.Warnings = memory.Findings(rep.Plan.Warnings)
	}
	if !rep.Committed() {
		if rep.Plan != nil && rep.Plan.Empty() {
			run.Consumed = append(run.Consumed, rep.Result.Removed...) // nothing to commit: removed all the same
		}
		return run, nil
	}
	entries, _, err := gitstore.MemoryLog(ctx, w.Repo, rep.Result.Commit+"^!")
	if err == nil && len(entries) != 1 {
		err = errors.New("its message does not read as a memory commit's")
	}
	if err != nil {
		return run, fmt.Errorf("read the memory commit %s of run %s: %w", rep.Result.Commit, rep.RunID, err)
	}
	e := entries[0]
	displayOps(e.Message)
	run.entry = &e
	run.Commit, run.Date, run.Subject, run.MetricsFile = e.Commit, e.Date, e.Subject, rep.Result.MetricsFile
	run.Restarted = rep.Result.Restarted
	run.Ops, run.Consumed, run.Sessions = e.Ops, e.Consumed, e.Sessions
	return run, nil
}

// printConsolidation prints the runs: each commit as `git yoimem log`
// shows it, the usage it moved; runs that committed nothing; entries
// skipped and the linter's warnings go to standard error. ok: the runs
// ended without an error (which says itself what stopped them).
func printConsolidation(ctx context.Context, env Env, w *workspace.Workspace, res consolidation, format string, ok bool) error {
	if format == "json" {
		return writeJSON(env, res)
	}
	q := w.PathQuoter(ctx)
	var b strings.Builder
	for _, run := range res.Runs {
		printRunSync(env, run)
		writeRun(&b, q, run)
		if run.Restarted != "" {
			statusf(env.Stderr, "git-yoimem: the memory branch %s", run.Restarted)
		}
		for _, s := range run.Skipped {
			warnf(env.Stderr, "skipped %s: %s; it is left in place", q.Path(s.Path), s.Reason)
		}
		for _, f := range run.Warnings {
			warnf(env.Stderr, "%s:%d:%d: %s: %s", q.Path(f.Path), f.Line, f.Col, f.Rule, f.Message)
		}
	}
	if len(res.Runs) == 0 && ok {
		statusf(env.Stderr, "nothing to consolidate: no staging entries")
	}
	if res.Staging.Due && len(res.Runs) > 0 && ok {
		statusf(env.Stderr, "the staging is still due (%s): the next run (or trigger) consolidates it", count(res.Staging.Files, "entry", "entries"))
	}
	_, err := fmt.Fprint(env.Stdout, b.String())
	return err
}

// printRunSync tells what the sync before a run did, when it did more
// than find the memory up to date, or why it failed.
func printRunSync(env Env, run runJSON) {
	if run.SyncError != "" {
		warnf(env.Stderr, "could not bring in the remote's memory: %s; this run consolidated on the local memory", run.SyncError)
	}
	if run.Sync == nil {
		return
	}
	switch run.Sync.Outcome {
	case gitstore.NoRemoteBranch, gitstore.UpToDate, gitstore.Ahead:
		return
	}
	printSync(env, *run.Sync)
	if run.Sync.Conflicted() {
		warnf(env.Stderr, "this run consolidated on the local memory; resolve the conflict before 'git yoimem push' (docs/sync.md)")
	}
}

func writeRun(b *strings.Builder, q *workspace.PathQuoter, run runJSON) {
	if r := run.Resumed; r != nil {
		what := "redid its entries"
		if r.Finished {
			what = "finished its commit"
		}
		fmt.Fprintf(b, "took over the lock of run %s (pid %d on %s, no longer running) and %s\n", r.RunID, r.PID, r.Host, what)
	}
	if run.entry == nil {
		if len(run.Consumed) > 0 {
			fmt.Fprintf(b, "run %s: its %s change no record; nothing to commit, the entries are removed\n", run.RunID, count(len(run.Consumed), "staging entry", "staging entries"))
		}
		return
	}
	writeLogEntry(b, q, *run.entry)
	if run.MetricsFile != "" {
		fmt.Fprintf(b, "usage moved into %s\n\n", q.Path(run.MetricsFile))
	}
}
