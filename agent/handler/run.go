package handler

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/consolidate/setup"
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/lockfile"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/workspace"
)

// RunOptions are the background run's seams.
type RunOptions struct {
	// Format is the transcript's format for extract ("claude-code");
	// empty: detected.
	Format string
	// MaxRuns bounds extract's and consolidation's runs (while still due).
	MaxRuns int
	Now     func() time.Time
	// Log is told what the run does, one line at a time (the process's
	// stderr: the agent's log).
	Log func(msg string)
	// Engine is given to a consolidation's llm engine (progress, a
	// recorder of its model calls).
	Engine setup.EngineOptions
}

func (o RunOptions) logf(format string, args ...any) {
	if o.Log != nil {
		o.Log(fmt.Sprintf(format, args...))
	}
}

func (o RunOptions) now() time.Time {
	if o.Now != nil {
		return o.Now()
	}
	return time.Now()
}

// Run is the background run of a job: one per session at a time. The
// job is left for the session's lock holder; if no run holds it, this
// one takes the lock and runs every job left (its own, and any left by
// triggers meanwhile, at its end), each writing the session's status
// file. A trigger while a run holds the lock is skipped, said in the log:
// the holder runs its job at its end.
func Run(ctx context.Context, w *workspace.Workspace, j Job, o RunOptions) error {
	dir := StateDir(w)
	pending := pendingFile(dir, j.Agent, j.Session)
	if err := leave(pending, j, w.SharedPerm); err != nil {
		return fmt.Errorf("session %s: leave the job: %w", j.Session, err)
	}
	lock := lockfile.New(filepath.Join(runsDir(dir, j.Agent), fileName(j.Session)+".lock"), lockfile.Shared(w.SharedPerm))
	for {
		ok, err := lock.TryLock()
		if err != nil {
			return fmt.Errorf("session %s: background lock: %w", j.Session, err)
		}
		if !ok {
			o.logf("%s: skipped: a background run of this session is in progress; it runs this trigger's check at its end", j.Event)
			return nil
		}
		err = drain(ctx, w, pending, o)
		_ = lock.Unlock()
		if err != nil {
			return err
		}
		// A trigger between our last look and the unlock found the lock
		// held: its job is ours to run.
		if _, err := os.Stat(pending); err != nil {
			return nil
		}
	}
}

// drain runs the jobs left for the session until none is.
func drain(ctx context.Context, w *workspace.Workspace, pending string, o RunOptions) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		j, ok, err := take(pending)
		if err != nil || !ok {
			return err
		}
		s := runJob(ctx, w, j, o)
		o.logf("%s: extract %s%s; consolidation %s%s", j.Event, s.Extract.Result, detail(s.Extract.Error), s.Consolidation.Result, detail(s.Consolidation.Error))
	}
}

func detail(err string) string {
	if err == "" {
		return ""
	}
	return " (" + err + ")"
}

// runJob makes one run: the extract check, then the consolidation check
// (even after a failed extract: the staging may be due from before), the
// status file written at the start and at the end.
func runJob(ctx context.Context, w *workspace.Workspace, j Job, o RunOptions) Status {
	dir := StateDir(w)
	path := StatusFile(dir, j.Agent, j.Session)
	s := Status{Agent: j.Agent, SessionID: j.Session, Event: j.Event, Transcript: j.Transcript, Until: j.Until,
		LogPath: LogFile(dir, j.Agent), StartedAt: o.now().UTC()}
	if err := writeStatus(path, s, w.SharedPerm); err != nil {
		o.logf("%v", err)
	}
	s.Extract = runExtract(ctx, w, j, o)
	s.Consolidation = runConsolidation(ctx, w, o)
	s.FinishedAt = o.now().UTC()
	if err := writeStatus(path, s, w.SharedPerm); err != nil {
		o.logf("%v", err)
	}
	return s
}

func runExtract(ctx context.Context, w *workspace.Workspace, j Job, o RunOptions) ExtractStatus {
	log, err := extract.OpenLog(j.Transcript, o.Format)
	if err != nil {
		return ExtractStatus{Result: ExtractFailed, Error: err.Error()}
	}
	if log.Format == "" {
		return ExtractStatus{Result: ExtractNotDue} // nothing written yet
	}
	r := &extract.Runner{
		Log: log, StateDir: w.ExtractStateDir(), Shared: w.SharedPerm, YoiDir: w.YoiDir(),
		Threshold: w.Config.Int(config.KeyExtractTokenThreshold),
		Model:     func() (llm.Provider, string, error) { return w.OpenModelFor(config.KeyExtractModel, "") },
		Ledger:    w.Metrics().Tick,
		Now:       o.now,
		Warn:      o.Log,
	}
	rep, err := r.Run(ctx, extract.RunOptions{MaxRuns: max(1, o.MaxRuns), Until: j.Until})
	st := ExtractStatus{Result: ExtractNotDue}
	for _, run := range rep.Runs {
		st.Result = ExtractRan
		if run.Staging != "" {
			st.Staged++
		}
	}
	switch {
	case errors.Is(err, extract.ErrInFlight):
		st.Result, st.Error = ExtractSkip, err.Error()
	case err != nil:
		st.Result, st.Error = ExtractFailed, err.Error()
	}
	return st
}

func runConsolidation(ctx context.Context, w *workspace.Workspace, o RunOptions) ConsolidationStatus {
	reps, due, err := setup.RunIfDue(ctx, w, setup.TriggerOptions{Engine: o.Engine, Runner: setup.RunnerOptions{Now: o.Now}, MaxRuns: o.MaxRuns})
	st := ConsolidationStatus{Result: ConsolidationNotDue}
	if due {
		st.Result = ConsolidationSkipped
	}
	for _, r := range reps {
		if r.Committed() {
			st.Result, st.Commit = ConsolidationCommitted, r.Result.Commit
		}
	}
	var busy *consolidate.BusyError
	switch {
	case errors.As(err, &busy), errors.Is(err, consolidate.ErrBusy):
		st.Result, st.Error = ConsolidationBusy, err.Error()
	case err != nil:
		st.Result, st.Error = ConsolidationFailed, err.Error()
	default:
		st.AutoMerge = autoMerge(ctx, w, reps, o)
	}
	return st
}

// autoMerge is yoimem.autoMerge after the runs, as `git yoimem
// consolidate` does it (setup.AutoMerge): nil when it is off or nothing
// was committed; a check that could not run is a reason, not a failed
// consolidation (its commit is made). What it did is said in the log.
func autoMerge(ctx context.Context, w *workspace.Workspace, reps []consolidate.Report, o RunOptions) *gitstore.AutoMergeResult {
	am, err := setup.AutoMerge(ctx, w, reps)
	if err != nil {
		am = &gitstore.AutoMergeResult{Reason: "could not check whether to merge: " + err.Error()}
	}
	switch {
	case am == nil:
	case am.Merged:
		o.logf("%s (%s)", am.Reason, config.KeyAutoMerge)
	default:
		o.logf("did not merge %s (%s): %s", w.Config.String(config.KeyBranch), config.KeyAutoMerge, am.Reason)
	}
	return am
}
