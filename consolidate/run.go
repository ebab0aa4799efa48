package consolidate

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"github.com/google/uuid"
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memsync"
	"github.com/yoimem/git-yoimem/record"
)

// Runner runs consolidation in one workspace: lock, input, plan, apply
// (docs/consolidate.md, "How a run works"). The command line fills it
// from the workspace's settings.
type Runner struct {
	Branch     *gitstore.MemoryBranch
	Notes      *gitstore.Notes // nil: NotesRef in Branch's repository
	StagingDir string          // absolute .yoi/memory/_staging
	// Root is the workspace root: its .yoi/'s read-only records are
	// locked. Locked adds the configured locks (yoimem.consolidate.locked:
	// paths or patterns).
	Root   string
	Locked []string
	// MaxRead bounds the base's record blobs (yoimem.lint.maxFileBytes);
	// MaxStagingBytes one staging entry (0: DefaultMaxStagingBytes).
	MaxRead         int64
	MaxStagingBytes int64
	Lint            lint.Options
	Policy          Policy
	// Usage judges the records of the base (the run's snapshot, with the
	// usage files it has committed) at the start of a run: their usage by
	// .yoi/-relative path and the knowledge-candidate report's records
	// (metrics.Judge's Report). Nil: every record's usage is unknown.
	Usage   func(base record.Snapshot) (map[string]RecordUsage, []string, error)
	Metrics Metrics // nil: no usage moved
	Engine  Engine
	Author  gitstore.Signature
	// Now and NewRunID default to the clock and a UUIDv7.
	Now      func() time.Time
	NewRunID func() (string, error)
	Hooks    Hooks
	// Sync, if set, brings the remote's memory in before a run plans
	// (memsync.Pull): its report is the run's; a failed sync is a warning
	// (Report.SyncErr), and the run goes on with the local memory.
	Sync func(context.Context) (*memsync.Report, error)
}

// Report is what one run did.
type Report struct {
	RunID string
	// NothingStaged: no staging entry to consume; nothing was done.
	NothingStaged bool
	// Resumed is a dead run whose lock this run took over; Finished says
	// that it had committed, and this run only finished it (note, usage,
	// staging), else its entries were redone.
	Resumed  *Holder
	Finished bool
	Plan     *Plan // nil when the run only finished another or had nothing to do
	Result   Result
	Problems []EntryProblem // consumed entries that could not be read: left in place
	// Sync is what the sync before the plan did (nil: none ran); SyncErr
	// why it failed, if it did.
	Sync    *memsync.Report
	SyncErr error
}

// progressed: the run consumed entries, or finished a dead run's.
func (r Report) progressed() bool {
	return r.Finished || r.Plan != nil && len(r.Plan.Consumed) > 0
}

// Committed reports whether the run made (or finished) a memory commit.
func (r Report) Committed() bool { return r.Result.Commit != "" }

// maxReplans bounds how often a run plans again because the branch it
// writes on moved meanwhile.
const maxReplans = 3

// Once runs consolidation once over the entries staged now. A live run
// holding the lock is a *BusyError; on any error before the commit,
// nothing is committed, the staging is kept and the lock released; on an
// error after it, the lock stays for the next run to finish.
func (r *Runner) Once(ctx context.Context) (rep Report, err error) {
	if r.Engine == nil || r.Branch == nil {
		return Report{}, errors.New("consolidate: a runner needs an engine and a memory branch")
	}
	if staged, err := checkStagingDir(r.StagingDir); err != nil || !staged {
		return Report{NothingStaged: true}, err
	}
	runID, err := r.newRunID()
	if err != nil {
		return Report{}, err
	}
	lock, err := AcquireLock(ctx, r.StagingDir, runID, r.now())
	if err != nil {
		return Report{}, err
	}
	committed := false
	defer func() {
		if committed && err != nil {
			return // finishing failed: the next run finishes it
		}
		if rerr := lock.Release(); rerr != nil && err == nil {
			err = rerr
		}
	}()
	h := lock.Holder()
	rep = Report{RunID: h.RunID, Resumed: lock.Recovered()}
	r.Hooks.stage(StageLocked)
	if rep.Resumed != nil {
		if done, err := r.finishDead(context.WithoutCancel(ctx), lock, &rep); done || err != nil {
			committed = done
			return rep, err
		}
	}
	if len(h.Consumed) == 0 {
		rep.NothingStaged = true
		return rep, nil
	}
	if r.Sync != nil {
		rep.Sync, rep.SyncErr = r.Sync(ctx)
	}
	for attempt := 1; ; attempt++ {
		p, problems, err := r.plan(ctx, h)
		rep.Problems = problems
		if err != nil || p == nil {
			return rep, err
		}
		rep.Plan = p
		res, err := p.Apply(ctx, r.target(lock))
		rep.Result = res
		committed = res.Commit != ""
		var moved *gitstore.ParentMovedError
		if errors.As(err, &moved) && attempt < maxReplans {
			continue // the branch moved since the base was read: plan on the new one
		}
		return rep, err
	}
}

// checkStagingDir: the staging directory is a real directory (a symbolic
// link could lead the lock's writes out of .yoi/); false when it does not
// exist, and nothing is staged.
func checkStagingDir(dir string) (bool, error) {
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("the staging directory: %w", err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return false, fmt.Errorf("the staging directory %s is a symbolic link; consolidation writes only inside .yoi/", dir)
	case !fi.IsDir():
		return false, fmt.Errorf("the staging directory %s is not a directory", dir)
	}
	return true, nil
}

// Run runs consolidation, then again while the staging left (entries
// staged during a run) is due by the thresholds, at most maxRuns times in
// all. It stops when a run consumed nothing (its entries could not be
// read: they stay, reported, and would make every run the same).
func (r *Runner) Run(ctx context.Context, maxRuns, files int, bytes int64) ([]Report, error) {
	var reps []Report
	for i := 0; i < maxRuns; i++ {
		rep, err := r.Once(ctx)
		reps = append(reps, rep)
		if err != nil || !rep.progressed() {
			return reps, err
		}
		b, err := Due(r.StagingDir, files, bytes)
		if err != nil || !b.Due {
			return reps, err
		}
	}
	return reps, nil
}

// Preview plans a run over the entries staged now, without the lock and
// without writing anything: the dry run. No plan when nothing is staged.
func (r *Runner) Preview(ctx context.Context) (*Plan, []EntryProblem, error) {
	if _, err := checkStagingDir(r.StagingDir); err != nil {
		return nil, nil, err
	}
	runID, err := r.newRunID()
	if err != nil {
		return nil, nil, err
	}
	list, err := extract.ListStaging(r.StagingDir)
	if err != nil {
		return nil, nil, err
	}
	h := Holder{RunID: runID}
	for _, e := range list {
		h.Consumed = append(h.Consumed, e.ID)
	}
	return r.plan(ctx, h)
}

// plan reads the input of the run h holds and plans it; no plan when
// no consumed entry could be read (a run works from staged activity).
func (r *Runner) plan(ctx context.Context, h Holder) (*Plan, []EntryProblem, error) {
	in, problems, err := r.input(ctx, h)
	if err != nil || len(in.Entries) == 0 {
		return nil, problems, err
	}
	r.Hooks.stage(StageInput)
	p, err := NewPlan(ctx, in, r.Engine)
	return p, problems, err
}

// input reads a run's input: the base, the consumed entries, the locked
// records and the usage.
func (r *Runner) input(ctx context.Context, h Holder) (*Input, []EntryProblem, error) {
	commit, base, err := BaseSnapshot(ctx, r.Branch, r.MaxRead)
	if err != nil {
		return nil, nil, err
	}
	entries, problems := ReadEntries(r.StagingDir, h.Consumed, r.MaxStagingBytes)
	locked, patterns, err := LockedPaths(r.Root, base, r.Locked)
	if err != nil {
		return nil, problems, err
	}
	in := &Input{RunID: h.RunID, Now: r.now().UTC().Truncate(time.Second), Base: base, BaseCommit: commit, Entries: entries,
		Locked: locked, LockPatterns: patterns, Lint: r.Lint, Policy: r.Policy, Hooks: r.Hooks}
	if r.Usage != nil {
		if in.Usage, in.Candidates, err = r.Usage(base); err != nil {
			return nil, problems, fmt.Errorf("usage of records: %w", err)
		}
	}
	return in, problems, ctx.Err()
}

func (r *Runner) target(lock *Lock) Target {
	return Target{Branch: r.Branch, Notes: r.notes(), StagingDir: r.StagingDir, Author: r.Author, Metrics: r.Metrics, Lock: lock}
}

func (r *Runner) notes() *gitstore.Notes {
	if r.Notes != nil {
		return r.Notes
	}
	return &gitstore.Notes{Repo: r.Branch.Repo, Objects: r.Branch.Objects, Ref: NotesRef}
}

func (r *Runner) now() time.Time {
	if r.Now != nil {
		return r.Now()
	}
	return time.Now()
}

func (r *Runner) newRunID() (string, error) {
	if r.NewRunID != nil {
		return r.NewRunID()
	}
	u, err := uuid.NewV7()
	if err != nil {
		return "", fmt.Errorf("run ID: %w", err)
	}
	return u.String(), nil
}
