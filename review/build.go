package review

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// Source is where Build reads: the repository, .yoi/ relative to its top
// level (".yoi" when .yoi/ is at the top), and the notes holding each
// memory commit's evidence.
type Source struct {
	Repo   gitstore.Repo
	Prefix string
	Notes  *gitstore.Notes // nil: no evidence is read
	// Judge judges usage now (consolidate.JudgeUsage over this machine's
	// metrics) for a commit without its note, over its parent's tree; nil:
	// such a commit's protected records are not shown.
	Judge func(record.Snapshot) (map[string]consolidate.RecordUsage, []string, error)
	// MaxRead bounds a record read to measure its loss, and a file read
	// from the parent's tree for Judge: yoimem.lint.maxFileBytes (0: no
	// bound of its own). A record over it is not measured, and said so.
	MaxRead int64
}

// Build reviews the commits of rng (any range git log takes), oldest
// first. A range git refuses is a *gitstore.Error.
func Build(ctx context.Context, src Source, rng string) (Report, error) {
	out, err := src.Repo.Git.Run(ctx, "log", "--reverse", "-z", "--format=%H%x00%P%x00%aI%x00%B", rng, "--")
	if err != nil {
		return Report{}, err
	}
	rep := Report{Range: rng, Commits: []Commit{}, Skipped: []Skipped{}}
	for _, lc := range parseLog(out) {
		m, err := memlog.ParseMessage(lc.message)
		if err != nil {
			rep.Skipped = append(rep.Skipped, Skipped{Commit: lc.hash, Subject: firstLine(lc.message), Why: err.Error()})
			continue
		}
		c, err := src.commit(ctx, lc, m)
		if err != nil {
			return Report{}, err
		}
		rep.Commits = append(rep.Commits, c)
	}
	return rep, nil
}

type logCommit struct{ hash, parent, date, message string }

// parseLog reads `git log -z --format=%H%x00%P%x00%aI%x00%B`: four
// NUL-separated fields a commit, commits NUL-separated too.
func parseLog(out []byte) []logCommit {
	f := bytes.Split(out, []byte{0})
	var cs []logCommit
	for i := 0; i+3 < len(f); i += 4 {
		hash := string(bytes.TrimSpace(f[i]))
		if hash == "" {
			continue
		}
		parent, _, _ := strings.Cut(string(f[i+1]), " ") // first parent
		cs = append(cs, logCommit{hash: hash, parent: parent, date: string(f[i+2]), message: string(f[i+3])})
	}
	return cs
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}

// commit reviews one memory commit against its first parent.
func (s Source) commit(ctx context.Context, lc logCommit, m *memlog.Message) (Commit, error) {
	c := Commit{Commit: lc.hash, Date: lc.date, Subject: m.Subject, RunID: m.RunID, Engine: m.Engine, Model: m.Model,
		Groups: groups(m.Ops), NewRecords: []string{}, Losses: []Loss{}, Protected: []Touched{},
		NewKnowledge: []Knowledge{}, Unrecovered: []string{}}
	ev, found, err := s.evidence(ctx, lc.hash)
	missing := ""
	switch {
	case err != nil:
		missing = fmt.Sprintf("its evidence note is unreadable (%v)", err)
	case !found:
		missing = fmt.Sprintf("it has no evidence note in %s (fetch it: git fetch origin %[1]s:%[1]s)", consolidate.NotesRef)
	}
	changed, err := s.changed(ctx, lc)
	if err != nil {
		return Commit{}, err
	}
	for _, ch := range changed {
		if err := s.review(ctx, &c, lc, ch, m, ev); err != nil {
			return Commit{}, err
		}
	}
	switch {
	case found:
		c.Protected = protected(m.Ops, noteUsage(ev), "run")
	case s.Judge != nil:
		usage, err := s.judgeNow(ctx, lc)
		if err != nil {
			return Commit{}, err
		}
		c.Protected = protected(m.Ops, usage, "now")
		c.Unrecovered = append(c.Unrecovered, missing+": usage judged now from this machine's metrics and the committed run files; the run's candidates and staged sessions not shown")
	default:
		c.Unrecovered = append(c.Unrecovered, missing+": usage, the run's candidates and staged sessions not shown")
	}
	c.Sessions = sessions(m, ev)
	return c, nil
}

// judgeNow judges usage now over the tree the commit was written on.
func (s Source) judgeNow(ctx context.Context, lc logCommit) (map[string]consolidate.RecordUsage, error) {
	base := record.MapSnapshot(nil)
	if lc.parent != "" {
		var err error
		if base, err = gitstore.RevisionSnapshot(ctx, s.Repo, s.Notes.Objects, lc.parent, s.dir(), s.MaxRead); err != nil {
			return nil, fmt.Errorf("the records before commit %.12s: %w", lc.hash, err)
		}
	}
	usage, _, err := s.Judge(base)
	if err != nil {
		return nil, fmt.Errorf("judge usage for commit %.12s: %w", lc.hash, err)
	}
	return usage, nil
}

// noteUsage is the usage the run judged by, keyed .yoi/-relative.
func noteUsage(ev consolidate.Evidence) map[string]consolidate.RecordUsage {
	out := map[string]consolidate.RecordUsage{}
	for p, u := range ev.Usage {
		if rel, err := record.ToolPath(p); err == nil {
			out[rel] = consolidate.RecordUsage(u)
		}
	}
	return out
}

// evidence reads the commit's note; found is false when it has none.
func (s Source) evidence(ctx context.Context, hash string) (consolidate.Evidence, bool, error) {
	if s.Notes == nil {
		return consolidate.Evidence{}, false, nil
	}
	b, ok, err := s.Notes.Read(ctx, hash)
	if err != nil || !ok {
		return consolidate.Evidence{}, false, err
	}
	ev, err := consolidate.ParseEvidence("the note of "+hash, b)
	if err != nil {
		return consolidate.Evidence{}, false, err
	}
	return ev, true, nil
}

// review adds what one changed record tells: a new record (and new
// knowledge), or a possible loss.
func (s Source) review(ctx context.Context, c *Commit, lc logCommit, ch change, m *memlog.Message, ev consolidate.Evidence) error {
	shown := record.DisplayPath(ch.rel)
	if ch.status == "A" {
		c.NewRecords = append(c.NewRecords, shown)
		if record.Classify(ch.rel).Kind == record.KindKnowledge {
			c.NewKnowledge = append(c.NewKnowledge, Knowledge{Path: shown, Reason: reasonFor(m.Ops, ch.rel), Candidates: nonNil(ev.Candidates)})
		}
		return nil
	}
	before, err := s.blob(ctx, lc.parent, ch.rel)
	if unmeasured(c, shown, "before", err) {
		return nil
	} else if err != nil {
		return err
	}
	var after []byte
	if ch.status != "D" {
		after, err = s.blob(ctx, lc.hash, ch.rel)
		if unmeasured(c, shown, "after", err) {
			return nil
		} else if err != nil {
			return err
		}
	}
	l, why := compare(ch.rel, before, after, ch.status == "D")
	if why != "" {
		c.Unrecovered = append(c.Unrecovered, why)
	}
	if l != nil {
		c.Losses = append(c.Losses, *l)
	}
	return nil
}

// unmeasured notes a record too big to read, whose loss is then not
// measured; it reports whether err was that.
func unmeasured(c *Commit, shown, when string, err error) bool {
	var big *tooBig
	if !errors.As(err, &big) {
		return false
	}
	c.Unrecovered = append(c.Unrecovered, fmt.Sprintf("%s %s the commit %v: its loss is not measured", shown, when, big))
	return true
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// reasonFor is the reason of the first operation naming rel.
func reasonFor(ops []memlog.Op, rel string) string {
	for _, op := range ops {
		if op.Path == rel || op.Target == rel {
			return op.Reason
		}
	}
	return ""
}

// protected lists the records the operations name that usage judges
// protected, with that usage; judged says when ("run" or "now").
func protected(ops []memlog.Op, usage map[string]consolidate.RecordUsage, judged string) []Touched {
	out := []Touched{}
	seen := map[string]bool{}
	for _, op := range ops {
		for _, p := range []string{op.Path, op.Target} {
			u, ok := usage[p]
			key := string(op.Kind) + " " + p
			if p == "" || !ok || !u.Protected || seen[key] {
				continue
			}
			seen[key] = true
			out = append(out, Touched{Path: record.DisplayPath(p), Op: string(op.Kind), Uses: u.Uses, Frequency: u.Frequency, Judged: judged})
		}
	}
	return out
}

// sessions are the session ranges of the Yoimem-Session trailers and of
// the note's staging entries, once each, sorted.
func sessions(m *memlog.Message, ev consolidate.Evidence) []string {
	set := map[string]bool{}
	for _, s := range m.Sessions {
		set[s] = true
	}
	for _, e := range ev.Entries {
		set[fmt.Sprintf("%s:%d-%d", e.Source.SessionID, e.Source.Range[0], e.Source.Range[1])] = true
	}
	out := make([]string, 0, len(set))
	for s := range set {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// groups puts the operations under their categories, in the canonical
// order, then under categories the format does not know (each its own
// group, so no operation is lost), then those without one under their
// kind.
func groups(ops []memlog.Op) []Group {
	var out []Group
	add := func(name string, op memlog.Op) {
		for i := range out {
			if out[i].Name == name {
				out[i].Ops = append(out[i].Ops, toOp(op))
				return
			}
		}
		out = append(out, Group{Name: name, Ops: []Op{toOp(op)}})
	}
	for _, c := range memlog.Categories() {
		for _, op := range ops {
			for _, oc := range op.Categories {
				if oc == c {
					add(string(c), op)
				}
			}
		}
	}
	for _, op := range ops { // categories a hand-written message made up
		for _, oc := range op.Categories {
			if !known(oc) {
				add(string(oc), op)
			}
		}
	}
	for _, op := range ops {
		if len(op.Categories) == 0 {
			add(string(op.Kind), op)
		}
	}
	if out == nil {
		return []Group{}
	}
	return out
}

func known(c memlog.Category) bool {
	for _, k := range memlog.Categories() {
		if c == k {
			return true
		}
	}
	return false
}

func toOp(op memlog.Op) Op {
	o := Op{Op: string(op.Kind), Path: record.DisplayPath(op.Path), Reason: op.Reason}
	if op.Target != "" {
		o.Target = record.DisplayPath(op.Target)
	}
	return o
}
