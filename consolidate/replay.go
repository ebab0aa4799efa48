package consolidate

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// Replayed is a memory commit and a run of the same input against its
// parent (docs/consolidate.md, "Replay").
type Replayed struct {
	Commit, Parent string
	Message        *memlog.Message   // the commit's
	Committed      *record.ChangeSet // its record changes against the parent
	MetricsFile    string            // the usage it moved, as printed ("" when none); not replayed
	Plan           *Plan             // the replay's outcome
}

// Difference is a record whose outcome differs; nil content with In*
// false means the record was left as the parent had it.
type Difference struct {
	Path                string // .yoi/-relative
	InCommit, InReplay  bool   // whether the commit, the replay changed it
	Committed, Replayed []byte // its content after each (nil: deleted or unchanged)
	DeletedInCommit     bool
	DeletedInReplay     bool
}

// Replay runs the input of a memory commit again, as its note keeps it
// (the consumed entries, the clock, the usage, the locked records, the
// linter's thresholds), against the commit's parent, with engine e (nil:
// the runner's). It writes nothing.
func (r *Runner) Replay(ctx context.Context, commit string, e Engine) (*Replayed, error) {
	if e == nil {
		e = r.Engine
	}
	g := r.Branch.Repo.Git
	hash, err := g.Run(ctx, "rev-parse", "--verify", "--quiet", "--end-of-options", commit+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("replay %s: no such commit", quote.Value(commit))
	}
	rep := &Replayed{Commit: strings.TrimSpace(string(hash))}
	out, err := g.Run(ctx, "log", "-1", "--format=%P%x00%B", rep.Commit, "--")
	if err != nil {
		return nil, fmt.Errorf("replay %s: %w", rep.Commit, err)
	}
	parents, body, _ := strings.Cut(string(out), "\x00")
	if rep.Message, err = memlog.ParseMessage(body); err != nil {
		return nil, fmt.Errorf("replay %s: %w", rep.Commit, err)
	}
	if rep.Parent, _, _ = strings.Cut(strings.TrimSpace(parents), " "); rep.Parent == "" {
		return nil, fmt.Errorf("replay %s: it has no parent to run against", rep.Commit)
	}
	in, err := r.replayInput(ctx, rep)
	if err != nil {
		return nil, err
	}
	if rep.Committed, rep.MetricsFile, err = committedChanges(ctx, r.Branch, rep.Parent, rep.Commit, r.MaxRead); err != nil {
		return nil, err
	}
	if rep.Plan, err = NewPlan(ctx, in, e); err != nil {
		return nil, fmt.Errorf("replay %s: %w", rep.Commit, err)
	}
	return rep, nil
}

// replayInput rebuilds the run's input from the commit's note, over its
// parent's tree.
func (r *Runner) replayInput(ctx context.Context, rep *Replayed) (*Input, error) {
	notes := r.notes()
	b, ok, err := notes.Read(ctx, rep.Commit)
	if err != nil {
		return nil, fmt.Errorf("replay %s: %w", rep.Commit, err)
	}
	if !ok {
		return nil, fmt.Errorf("replay %s: it has no note in %s, which keeps a run's input (fetch it: git fetch origin %s:%s)", rep.Commit, notes.Ref, notes.Ref, notes.Ref)
	}
	ev, err := ParseEvidence("the note of "+rep.Commit, b)
	if err != nil {
		return nil, err
	}
	base, err := gitstore.RevisionSnapshot(ctx, r.Branch.Repo, r.Branch.Objects, rep.Parent, r.Branch.Prefix, r.MaxRead)
	if err != nil {
		return nil, err
	}
	in, err := ev.input(base, r.Lint)
	if err != nil {
		return nil, fmt.Errorf("the note of %s: %w", rep.Commit, err)
	}
	in.BaseCommit = rep.Parent
	return in, nil
}

// committedChanges are the changes of commit to .yoi/ records against
// parent; the metrics file is returned apart.
func committedChanges(ctx context.Context, m *gitstore.MemoryBranch, parent, commit string, maxRead int64) (*record.ChangeSet, string, error) {
	out, err := m.Repo.Git.Run(ctx, "diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", parent, commit, "--", m.Prefix+"/")
	if err != nil {
		return nil, "", fmt.Errorf("the changes of %s: %w", commit, err)
	}
	cs := &record.ChangeSet{}
	metrics := ""
	fields := strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00")
	for i := 0; i+1 < len(fields); i += 2 {
		meta := strings.Fields(fields[i]) // :old-mode new-mode old new status
		rel, ok := strings.CutPrefix(fields[i+1], m.Prefix+"/")
		if len(meta) != 5 || !ok {
			continue
		}
		if record.Classify(rel).Area == record.AreaMetrics {
			metrics = record.DisplayPath(rel)
			continue
		}
		c := record.Change{Op: record.OpDelete, Path: rel}
		if meta[4] != "D" {
			if c.Content, err = m.Objects.ReadBlob(meta[3], maxRead); err != nil {
				return nil, "", fmt.Errorf("%s in %s: %w", record.DisplayPath(rel), commit, err)
			}
			c.Op = record.OpPut
		}
		if err := cs.Put(c); err != nil {
			return nil, "", err
		}
	}
	return cs, metrics, nil
}

// Same reports whether the replay changed the records as the commit did,
// with the same operations.
func (r *Replayed) Same() bool {
	return len(r.Differences()) == 0 && slices.EqualFunc(r.Message.Ops, r.Plan.Message.Ops, sameOp)
}

func sameOp(a, b memlog.Op) bool {
	return a.Kind == b.Kind && a.Path == b.Path && a.Target == b.Target && a.Reason == b.Reason && slices.Equal(a.Categories, b.Categories)
}

// Differences lists the records whose outcome differs, by path.
func (r *Replayed) Differences() []Difference {
	paths := map[string]bool{}
	for _, c := range r.Committed.Changes() {
		paths[c.Path] = true
	}
	for _, c := range r.Plan.Changes.Changes() {
		paths[c.Path] = true
	}
	var out []Difference
	for _, p := range slices.Sorted(maps.Keys(paths)) {
		a, inA := r.Committed.Get(p)
		b, inB := r.Plan.Changes.Get(p)
		if inA && inB && a.Op == b.Op && bytes.Equal(a.Content, b.Content) {
			continue
		}
		d := Difference{Path: p, InCommit: inA, InReplay: inB}
		if inA {
			d.Committed, d.DeletedInCommit = a.Content, a.Op == record.OpDelete
		}
		if inB {
			d.Replayed, d.DeletedInReplay = b.Content, b.Op == record.OpDelete
		}
		out = append(out, d)
	}
	return out
}
