package consolidate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/record"
)

// Metrics is the usage a run's commit moves into .yoi/metrics/<run-id>.jsonl
// (DESIGN 9): the pending usage events and token-ledger lines, recorded
// on this machine since the last commit that moved them (metrics.Local's
// Pending, EncodeRun and MarkMoved).
type Metrics interface {
	// Pending is what run runID would move: the metrics file's content
	// (nil: nothing) and a mark naming what it holds, which the lock
	// records so that a run finishing a crashed one can pass it to Moved.
	Pending(runID string) (content []byte, mark json.RawMessage, err error)
	// Moved records that run runID's commit holds what mark names, so
	// that statistics count it once (they also count a line moved twice
	// once). It may be called again with the same mark, and by a run
	// finishing a crashed one, in another process.
	Moved(runID string, mark json.RawMessage) error
}

// Target is where a plan is applied.
type Target struct {
	Branch     *gitstore.MemoryBranch
	Notes      *gitstore.Notes
	StagingDir string
	// Author names the commit; its time is the run's clock. Empty:
	// git-yoimem <git-yoimem@localhost>.
	Author  gitstore.Signature
	Metrics Metrics // nil: no usage moved
	// Lock, when held, records the note and the metrics mark before the
	// commit, for a run that finishes this one after a crash.
	Lock *Lock
}

// Result is what Apply did.
type Result struct {
	Commit      string // the memory commit; "" when nothing was committed
	Parent      string
	MetricsFile string   // as printed, when the commit moved usage
	Removed     []string // consumed staging entries removed
	// Restarted says why the commit was built on the base and not on the
	// memory tip, merged by squash or rebase (gitstore.CommitResult).
	Restarted string
}

// Apply writes the plan: one commit on the memory branch with the record
// changes and the pending usage (on the plan's base commit, or not at
// all: a *gitstore.ParentMovedError says to plan again), the consumed
// entries as its git note, then the removal of the consumed staging
// files. A plan that changes no record commits nothing (its entries held
// nothing the memory lacks; the pending usage waits for the next commit)
// and only removes its entries.
func (p *Plan) Apply(ctx context.Context, t Target) (Result, error) {
	if p.Empty() {
		return p.cleanUp(t, Result{})
	}
	var content []byte
	var mark json.RawMessage
	if t.Metrics != nil {
		var err error
		if content, mark, err = t.Metrics.Pending(p.Input.RunID); err != nil {
			return Result{}, fmt.Errorf("pending usage: %w", err)
		}
	}
	note, err := evidenceOf(p.Input, p.Message.Engine, p.Message.Model).Marshal()
	if err != nil {
		return Result{}, err
	}
	blob, err := t.Branch.Objects.WriteBlob(note)
	if err != nil {
		return Result{}, fmt.Errorf("the note of run %s: %w", p.Input.RunID, err)
	}
	if t.Lock != nil {
		if err := t.Lock.Update(func(h *Holder) { h.Note, h.Metrics = blob.String(), mark }); err != nil {
			return Result{}, err
		}
	}
	p.Input.Hooks.stage(StagePrepared)
	res, err := p.commit(ctx, t, content)
	if errors.Is(err, gitstore.ErrNoChange) {
		return p.cleanUp(t, Result{})
	}
	if err != nil {
		return Result{}, err
	}
	p.Input.Hooks.stage(StageCommitted)
	// The commit is made: an interrupt now must not leave it without its
	// note and cleanup, which take milliseconds.
	return p.finish(context.WithoutCancel(ctx), t, res, note, mark)
}

// commit writes the memory commit: the record changes and, when usage is
// pending, the run's metrics file.
func (p *Plan) commit(ctx context.Context, t Target, metrics []byte) (Result, error) {
	cs := p.Changes
	var res Result
	if len(metrics) > 0 {
		cs = &record.ChangeSet{}
		for _, c := range p.Changes.Changes() {
			_ = cs.Put(c) // validated when planned
		}
		rel := MetricsPath(p.Input.RunID)
		if err := cs.Put(record.Change{Path: rel, Content: metrics}); err != nil {
			return Result{}, err
		}
		res.MetricsFile = record.DisplayPath(rel)
	}
	msg, err := p.Message.Format()
	if err != nil {
		return Result{}, err
	}
	c, err := t.Branch.Commit(ctx, gitstore.CommitRequest{Changes: cs, Message: msg, Author: author(t.Author, p.Input), ExpectParent: p.Input.BaseCommit})
	if err != nil {
		return Result{}, err
	}
	res.Commit, res.Parent, res.Restarted = c.Commit, c.Parent, c.Restarted
	return res, nil
}

// MetricsPath is the .yoi/-relative file a run's commit moves usage into.
func MetricsPath(runID string) string { return record.MetricsDir + "/" + runID + ".jsonl" }

func author(a gitstore.Signature, in *Input) gitstore.Signature {
	if a.Name == "" {
		a.Name = "git-yoimem"
	}
	if a.Email == "" {
		a.Email = "git-yoimem@localhost"
	}
	a.When = in.Now
	return a
}

// finish does what follows a commit, each step safe to do again (a run
// taking over a crashed one finishes it the same way): the note, the
// usage marked moved, the consumed staging removed.
func (p *Plan) finish(ctx context.Context, t Target, res Result, note []byte, mark json.RawMessage) (Result, error) {
	if err := finishCommit(ctx, t, p.Input.RunID, res.Commit, note, mark, author(t.Author, p.Input)); err != nil {
		return res, err
	}
	p.Input.Hooks.stage(StageNoted)
	return p.cleanUp(t, res)
}

func finishCommit(ctx context.Context, t Target, runID, commit string, note []byte, mark json.RawMessage, who gitstore.Signature) error {
	if err := t.Notes.Add(ctx, commit, note, "evidence of run "+runID, who); err != nil {
		return fmt.Errorf("the note of run %s on %s: %w", runID, commit, err)
	}
	if t.Metrics != nil && len(mark) > 0 {
		if err := t.Metrics.Moved(runID, mark); err != nil {
			return fmt.Errorf("mark the usage of run %s moved: %w", runID, err)
		}
	}
	return nil
}

func (p *Plan) cleanUp(t Target, res Result) (Result, error) {
	removed, err := removeStaging(t.StagingDir, p.Consumed)
	res.Removed = removed
	if err != nil {
		return res, err
	}
	p.Input.Hooks.stage(StageCleaned)
	return res, nil
}

// removeStaging removes the consumed entries' files (one already gone is
// fine: a crashed run got that far) and nothing else.
func removeStaging(dir string, ids []string) ([]string, error) {
	var removed []string
	for _, id := range ids {
		if !validID(id) {
			continue // a damaged lock's list: never a path
		}
		err := os.Remove(filepath.Join(dir, id+stagingExt))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("remove the consumed staging entry %s: %w", stagingPath(id), err)
		}
		removed = append(removed, id)
	}
	syncDir(dir)
	return removed, nil
}
