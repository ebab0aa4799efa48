package workspace

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sort"
	"time"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
)

// Usage reads everything usage metrics know: this clone's journals and
// ledger (moved or not), the run files of the working tree's .yoi/metrics/,
// and those of the memory branch's tip while the base branch has not
// merged it, so that what consolidation committed counts before it is
// merged. What is in several of them counts once (metrics.Data.Add).
func (w *Workspace) Usage(ctx context.Context) (metrics.Data, error) {
	local, err := w.Metrics().Read()
	if err != nil {
		return metrics.Data{}, err
	}
	committed, err := metrics.ReadRunFiles(w.YoiDir())
	if err != nil {
		return metrics.Data{}, err
	}
	branch, err := w.branchRuns(ctx)
	if err != nil {
		return metrics.Data{}, err
	}
	return local.Add(committed).Add(branch), nil
}

// BranchRunsError is a failure to read the run files of the memory
// branch's tip.
type BranchRunsError struct {
	Branch string // short name, e.g. yoimem/memory
	Commit string // its tip
	Err    error
}

func (e *BranchRunsError) Error() string {
	return fmt.Sprintf("memory branch %s (%.12s): %v", e.Branch, e.Commit, e.Err)
}

func (e *BranchRunsError) Unwrap() error { return e.Err }

// branchRuns reads the run files of the memory branch's tip when the base
// branch has not merged it (when it has, the base and the working tree
// hold them); none without a memory branch.
func (w *Workspace) branchRuns(ctx context.Context) (metrics.Data, error) {
	objs, err := gitstore.OpenObjects(w.Repo)
	if err != nil {
		return metrics.Data{}, err
	}
	branch := w.Config.String(config.KeyBranch)
	m := &gitstore.MemoryBranch{Repo: w.Repo, Objects: objs, Branch: branch}
	tip, err := objs.RefHash(m.Ref())
	if err != nil || tip == "" {
		return metrics.Data{}, err
	}
	fail := func(err error) (metrics.Data, error) {
		return metrics.Data{}, &BranchRunsError{Branch: branch, Commit: tip, Err: err}
	}
	if m.Prefix, err = w.Prefix(); err != nil {
		return fail(err)
	}
	merged, err := w.merged(ctx, m, tip)
	if err != nil || merged {
		return metrics.Data{}, err
	}
	snap, err := gitstore.RevisionSnapshot(ctx, w.Repo, objs, tip, m.Prefix, 0)
	if err != nil {
		return fail(err)
	}
	d, err := metrics.ReadRuns(snap)
	if err != nil {
		return fail(err)
	}
	return d, nil
}

// merged reports whether the base branch holds the memory branch's tip,
// as an ancestor or by a squash or rebase merge of the whole branch
// (gitstore.MemoryBranch.Merged; a partly merged branch is not).
// Without a base branch, it is not merged.
func (w *Workspace) merged(ctx context.Context, m *gitstore.MemoryBranch, tip string) (bool, error) {
	base, err := gitstore.ResolveBase(ctx, w.Repo, w.Config.String(config.KeyBaseBranch))
	switch {
	case errors.Is(err, gitstore.ErrNoBase):
		return false, nil
	case err != nil:
		return false, err
	}
	m.Base = base
	if baseTip, err := m.Objects.RefHash(base); err != nil || baseTip == tip {
		return err == nil, err
	}
	return m.Merged(ctx)
}

// RecordStat is one record's usage as stats shows it.
type RecordStat struct {
	metrics.Stat
	// Locked: no consolidation may change it (read-only in the working
	// tree, or matched by yoimem.consolidate.locked).
	Locked bool
}

// RecordStats judges, with the yoimem.metrics.* settings, every decision,
// request and knowledge record of the working tree (from its created_at
// when never invoked), the summary when usage names it, and any other
// record usage names (one since deleted, or not merged yet: its creation
// unknown); by path. It also returns the knowledge-candidate report.
func (w *Workspace) RecordStats(ctx context.Context) ([]RecordStat, []metrics.Candidate, error) {
	d, err := w.Usage(ctx)
	if err != nil {
		return nil, nil, err
	}
	j := metrics.NewJudge(d.Events, metrics.NewClock(d.Ticks), MetricsParams(w.Config))
	snap, err := w.Snapshot(record.SummaryPath, record.DecisionsDir, record.RequestsDir, record.KnowledgeDir)
	if err != nil {
		return nil, nil, err
	}
	locks := w.Config.Locks()
	locked := record.Locked(snap, locks)
	byPath := map[string]RecordStat{}
	for _, s := range j.Stats() {
		byPath[s.Record] = RecordStat{Stat: s, Locked: locks.Match(s.Record)}
	}
	for _, e := range snap.Entries {
		loc := record.Classify(e.Path)
		_, used := byPath[e.Path]
		if e.Mode != record.ModeRegular || loc.Area != record.AreaRecord || loc.Kind == record.KindSummary && !used {
			continue
		}
		s := metrics.Stat{Record: e.Path, Judgement: j.Record(e.Path, createdAt(snap, e.Path)), InjectTokens: byPath[e.Path].InjectTokens}
		byPath[e.Path] = RecordStat{Stat: s, Locked: locked[e.Path]}
	}
	out := make([]RecordStat, 0, len(byPath))
	for _, s := range byPath {
		out = append(out, s)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Record < out[b].Record })
	return out, j.Candidates(), nil
}

// createdAt is a record's created_at; zero when it cannot be read.
func createdAt(snap record.Snapshot, path string) time.Time {
	content, err := snap.Read(path)
	if err != nil {
		return time.Time{}
	}
	rec, _, err := record.Decode(path, content)
	if err != nil {
		return time.Time{}
	}
	return rec.CreatedAt
}

// UsageAdvice says what to do about usage that cannot be read because a
// file is damaged (a *metrics.DamageError), "" for another error. A run
// file is committed, so git has its good version; a journal or the ledger
// is this machine's alone. Paths are given from the working directory,
// for the commands to work where they are typed.
func (w *Workspace) UsageAdvice(err error) string {
	var de *metrics.DamageError
	if !errors.As(err, &de) {
		return ""
	}
	var be *BranchRunsError
	switch {
	case errors.As(err, &be):
		return fmt.Sprintf("it is committed on the memory branch: git log -p %s -- %s shows the commit that wrote it; repair or revert it there, on %[1]s",
			be.Branch, w.Display(filepath.Join(w.Root, filepath.FromSlash(de.File))))
	case de.Kind == metrics.RunFile:
		return fmt.Sprintf("run files are written whole by consolidation and never edited: restore it (git checkout HEAD -- %s); git log -p -- %[1]s shows its history",
			w.Display(filepath.Join(w.Root, filepath.FromSlash(de.File))))
	}
	return fmt.Sprintf("%s is this machine's usage record, never committed: repair or delete the damaged line (deleting it loses only what it recorded)", de.File)
}
