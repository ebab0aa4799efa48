package consolidate

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// Engine turns a run's input into changes, through the session: the
// rules engine (consolidate/rules) or the model's tool loop
// (consolidate/agent).
type Engine interface {
	Name() string  // "rules" or "llm": the Yoimem-Engine trailer
	Model() string // the model string ("" for rules): Yoimem-Model
	Run(ctx context.Context, s *Session) error
}

// Plan is a run worked out and checked, nothing written: what Apply
// commits.
type Plan struct {
	Input *Input
	// Changes are the record changes against the base (Input.Base, the
	// tree of Input.BaseCommit).
	Changes *record.ChangeSet
	Message memlog.Message
	// Consumed are the staging entries the run consumes: every entry of
	// the input, whether a change drew on it or not.
	Consumed []string
	// Warnings are the linter's warnings on the changed records.
	Warnings []lint.Finding
}

// Empty reports whether the run changes no record.
func (p *Plan) Empty() bool { return p.Changes.Len() == 0 }

// LintError means the memory a run would leave has linter errors: nothing
// is committed and the staging is kept.
type LintError struct {
	Findings []lint.Finding // the errors
}

func (e *LintError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "the memory this run would leave has %d linter error(s); nothing was committed", len(e.Findings))
	for _, f := range e.Findings {
		fmt.Fprintf(&b, "\n  %s:%d:%d: %s %s: %s", record.DisplayPath(f.Path), f.Line, f.Col, f.Severity, f.Rule, f.Message)
	}
	return b.String()
}

// NewPlan runs the engine over a new session on in, then lints the whole
// resulting snapshot: any error refuses the plan (*LintError), whoever
// caused it. It writes nothing.
func NewPlan(ctx context.Context, in *Input, e Engine) (*Plan, error) {
	if err := checkRunID(in.RunID); err != nil {
		return nil, err
	}
	s, err := NewSession(in)
	if err != nil {
		return nil, err
	}
	if err := e.Run(ctx, s); err != nil {
		return nil, fmt.Errorf("engine %s: %w", e.Name(), err)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	changes := s.Changes()
	p := &Plan{Input: in, Changes: changes, Consumed: entryIDs(in)}
	var errs []lint.Finding
	if errs, p.Warnings = check(in.Base, in.Base.Apply(changes), changes, in.Lint); len(errs) > 0 {
		return nil, &LintError{Findings: errs}
	}
	p.Message = memlog.Message{
		Ops:      s.Ops(),
		RunID:    in.RunID,
		Engine:   e.Name(),
		Model:    e.Model(),
		Consumed: p.Consumed,
		Sessions: sessionRanges(in),
	}
	in.Hooks.stage(StageLinted)
	return p, nil
}

// check lints the whole memory a run leaves: its errors, wherever they
// are, and its warnings on the records the run changed. Clusters of
// similar slugs (warnings) are looked for around the records the run
// created only, the one time a near-duplicate slug is news; clustering
// all 10,000 slugs would cost a quarter of a second.
func check(base, after record.Snapshot, cs *record.ChangeSet, opts lint.Options) (errs, warnings []lint.Finding) {
	changed := map[string]bool{}
	var created []string
	for _, c := range cs.Changes() {
		if c.Op == record.OpDelete {
			continue
		}
		changed[c.Path] = true
		if _, ok := base.Lookup(c.Path); !ok {
			created = append(created, c.Path)
		}
	}
	whole := opts
	whole.SimilarSlugs = false
	for _, f := range lint.Tree(after, whole, nil).Findings {
		switch {
		case f.Severity == lint.Error:
			errs = append(errs, f)
		case changed[f.Path]:
			warnings = append(warnings, f)
		}
	}
	if opts.SimilarSlugs && len(created) > 0 {
		for _, f := range lint.Changed(after, created, nil, opts).Findings {
			if f.Rule == lint.RuleSimilarSlugs {
				warnings = append(warnings, f)
			}
		}
	}
	slices.SortStableFunc(warnings, func(a, b lint.Finding) int { return strings.Compare(a.Path, b.Path) })
	return errs, warnings
}

// checkRunID: a run ID is one line in the message and names the metrics
// file: letters, digits, '-', '_' and '.', not first.
func checkRunID(id string) error {
	ok := id != "" && id[0] != '.' && id[0] != '-'
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			ok = false
		}
	}
	if !ok {
		return fmt.Errorf("run ID %q: use letters, digits, '-', '_' and '.' (a UUID)", id)
	}
	return nil
}

func entryIDs(in *Input) []string {
	ids := make([]string, 0, len(in.Entries))
	for _, e := range in.Entries {
		ids = append(ids, e.ID)
	}
	return ids
}

// sessionRanges are the session-log ranges of the consumed entries,
// <session>:<start>-<end>, in entry order, each once.
func sessionRanges(in *Input) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, e := range in.Entries {
		r := fmt.Sprintf("%s:%d-%d", e.Source.SessionID, e.Source.Range[0], e.Source.Range[1])
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}
