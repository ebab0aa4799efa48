package consolidate

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/gitstore"
)

// finishDead looks for the commit of the dead run whose lock was taken
// over. When it made one, the run is finished as it would have been (its
// note, its usage marked moved, its consumed staging removed) and done
// is true; when not, nothing of it was written, and its entries are
// redone under its run ID.
func (r *Runner) finishDead(ctx context.Context, lock *Lock, rep *Report) (done bool, err error) {
	h := lock.Holder()
	commit, err := findRun(ctx, r.Branch, h.RunID, rep.Resumed.Since)
	if err != nil || commit == "" {
		return false, err
	}
	rep.Finished = true
	rep.Result.Commit = commit
	var note []byte
	if h.Note != "" {
		if note, err = r.Branch.Objects.ReadBlob(h.Note, gitstore.DefaultMaxNote); err != nil {
			return true, fmt.Errorf("the note of run %s: %w", h.RunID, err)
		}
	}
	t := r.target(lock)
	if note != nil {
		if err := finishCommit(ctx, t, h.RunID, commit, note, h.Metrics, author(r.Author, &Input{Now: r.now()})); err != nil {
			return true, err
		}
	} else if t.Metrics != nil && len(h.Metrics) > 0 {
		if err := t.Metrics.Moved(h.RunID, h.Metrics); err != nil {
			return true, err
		}
	}
	rep.Result.Removed, err = removeStaging(r.StagingDir, h.Consumed)
	return true, err
}

// findRun is the commit of run runID on the memory branch ("" when it
// made none), looking back to a day before since (clock skew).
func findRun(ctx context.Context, m *gitstore.MemoryBranch, runID string, since time.Time) (string, error) {
	tip, err := m.Objects.RefHash(m.Ref())
	if err != nil || tip == "" {
		return "", err
	}
	out, err := m.Repo.Git.Run(ctx, "log", "--since="+since.Add(-24*time.Hour).UTC().Format(time.RFC3339),
		"--format=%H %(trailers:key=Yoimem-Run,valueonly,separator=%x20)", tip, "--")
	if err != nil {
		return "", fmt.Errorf("look for run %s on %s: %w", runID, m.Ref(), err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		hash, runs, _ := strings.Cut(line, " ")
		for _, id := range strings.Fields(runs) {
			if id == runID {
				return hash, nil
			}
		}
	}
	return "", nil
}
