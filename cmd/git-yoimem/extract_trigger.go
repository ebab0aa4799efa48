package main

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/consolidate/setup"
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/workspace"
)

// The consolidation trigger (docs/consolidate.md, "Running it"): checked
// at the end of every successful extract, which then runs consolidation
// in the same process, extract's lock released. Consolidation's own lock
// decides who runs.

// extractJSON is extract --json with the consolidation it ran.
type extractJSON struct {
	extract.Report
	Consolidation *consolidation `json:"consolidation,omitempty"`
	// ConsolidationBusy says why a due consolidation did not run: another
	// run holds its lock.
	ConsolidationBusy string `json:"consolidation_busy,omitempty"`
}

// extractThenConsolidate prints extract's report and, when the staging
// is due, runs consolidation and prints what it did. A run already
// holding the lock is no error: extract says so and ends as it would.
func extractThenConsolidate(ctx context.Context, env Env, w *workspace.Workspace, rep extract.Report, asJSON bool) error {
	if !asJSON {
		if err := printExtract(env, rep, false); err != nil {
			return err
		}
	}
	res, err := consolidateIfDue(ctx, env, w, rep.StagingDir)
	out := extractJSON{Report: rep, Consolidation: res}
	var busy *consolidate.BusyError
	if errors.As(err, &busy) {
		h := busy.Holder
		out.Consolidation, out.ConsolidationBusy = nil, fmt.Sprintf("another run holds the lock (run %s, pid %d on %s, since %s)", h.RunID, h.PID, h.Host, h.Since.UTC().Format(time.RFC3339))
		statusf(env.Stderr, "git-yoimem: consolidation is due, but %s: it leaves the entries staged meanwhile for the next run", out.ConsolidationBusy)
		err = nil
	}
	if asJSON {
		if perr := writeJSON(env, out); perr != nil && err == nil {
			err = perr
		}
	} else if out.Consolidation != nil && (err == nil || len(res.Runs) > 0) {
		if perr := printConsolidation(ctx, env, w, *res, "text", err == nil); perr != nil && err == nil {
			err = perr
		}
	}
	return consolidateError(w, err)
}

// consolidateIfDue runs consolidation when the staging in dir reaches
// the thresholds, with the engine the configuration names; nil when it
// is not due.
func consolidateIfDue(ctx context.Context, env Env, w *workspace.Workspace, dir string) (*consolidation, error) {
	due, err := setup.StagingDue(w, dir)
	if err != nil || !due {
		return nil, err
	}
	limitMemory(env)
	branch, err := memoryBranch(ctx, w)
	if err != nil {
		return nil, err
	}
	p := newProgress(env)
	e, err := openEngine(w, setup.DefaultEngine(w), p)
	if err != nil {
		return nil, err
	}
	res, err := consolidateNow(ctx, env, w, newRunner(env, w, branch, e, p), p, defaultMaxRuns)
	return &res, err
}
