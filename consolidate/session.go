package consolidate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// Change is one change an engine asks of a session. Paths may be given as
// printed (".yoi/knowledge/x.md") or .yoi/-relative.
type Change struct {
	Kind memlog.OpKind
	Path string // the record changed
	// Target is, for replace, the record that replaces Path; for merge,
	// the record Path is folded into; for split, the new record that takes
	// part of Path.
	Target string
	// Content is the new content of Path (add, update, trim, rewrite), or
	// of Target (merge, split). Its sources, created_at and updated_at are
	// set by the session, whatever it says.
	Content []byte
	// Rest is, for split, Path's content once the part moved out is gone.
	Rest []byte
	// Staging names the staging entries the change draws on: their
	// sources are attached to the record.
	Staging []string
	// DerivedFrom names, for a new knowledge record, the records of the
	// knowledge-candidate report it comes from.
	DerivedFrom []string
	// KeepSources, for a trim, keeps only the newest N sources (0: all).
	KeepSources int
	Categories  []memlog.Category
	Reason      string
}

// Refusal is a change the principles or the linter refuse; the engine
// (or the model, as a tool error) can read why and try otherwise.
type Refusal struct {
	Kind     memlog.OpKind
	Path     string // as printed
	Reason   string
	Findings []lint.Finding // the linter's errors, when it refused
}

func (r *Refusal) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "refused %s %s: %s", r.Kind, r.Path, r.Reason)
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "\n  %s:%d:%d: %s %s: %s", record.DisplayPath(f.Path), f.Line, f.Col, f.Severity, f.Rule, f.Message)
	}
	return b.String()
}

// Session is an overlay over a run's base snapshot that every engine
// writes through. It is not safe for concurrent use: an engine applies
// its changes one at a time.
type Session struct {
	in      *Input
	entries map[string]extract.Staging
	cands   map[string]bool
	// cur is Base with the accepted changes: reads and the linter go
	// through it, and the whole listing is built only when Snapshot asks.
	cur  *record.Overlay
	ops  []memlog.Op
	used map[string]bool // staging IDs some accepted change drew on
	// inherited protection: a record split out of a protected one is
	// protected for the rest of the run.
	protected map[string]bool
}

// NewSession starts a session over in. Staging entries must have
// distinct IDs.
func NewSession(in *Input) (*Session, error) {
	s := &Session{in: in, entries: map[string]extract.Staging{}, cands: map[string]bool{}, cur: record.NewOverlay(in.Base), used: map[string]bool{}, protected: map[string]bool{}}
	for _, e := range in.Entries {
		if _, dup := s.entries[e.ID]; dup {
			return nil, fmt.Errorf("staging entry %s given twice", e.ID)
		}
		s.entries[e.ID] = e
	}
	for _, c := range in.Candidates {
		if rel, err := record.ToolPath(c); err == nil {
			s.cands[rel] = true
		}
	}
	for p, u := range in.Usage {
		if u.Protected {
			s.protected[p] = true
		}
	}
	return s, nil
}

// Input is the run's input.
func (s *Session) Input() *Input { return s.in }

// Snapshot is the memory as the changes so far make it. Its listing is
// built on the first call after a change: an engine that reads a few
// records uses View.
func (s *Session) Snapshot() record.Snapshot { return s.cur.Snapshot() }

// View is the memory as the changes so far make it, read through the
// changes over the base: lookups and reads cost nothing of the base's
// size. It does not change as later changes are applied.
func (s *Session) View() record.View { return s.cur }

// Entry returns a consumed staging entry by ID.
func (s *Session) Entry(id string) (extract.Staging, bool) {
	e, ok := s.entries[id]
	return e, ok
}

// Locked reports whether a record may not be changed: read-only in the
// working tree, or configured as locked.
func (s *Session) Locked(path string) bool {
	rel, err := record.ToolPath(path)
	return err == nil && (s.in.Locked[rel] || matchLock(s.in.LockPatterns, rel))
}

// Protected reports whether a record may not be dropped nor heavily
// compressed.
func (s *Session) Protected(path string) bool {
	rel, err := record.ToolPath(path)
	return err == nil && s.protected[rel]
}

// Ops are the accepted changes as commit-message operations, in order. A
// record added and then updated in the same run is one add.
func (s *Session) Ops() []memlog.Op {
	var out []memlog.Op
	added := map[string]bool{}
	for _, op := range s.ops {
		if op.Kind == memlog.OpAdd {
			added[op.Path] = true
		}
		if op.Kind == memlog.OpUpdate && added[op.Path] {
			continue
		}
		out = append(out, op)
	}
	return out
}

// Used lists the staging IDs accepted changes drew on, in ID order.
func (s *Session) Used() []string {
	var out []string
	for id := range s.used {
		out = append(out, id)
	}
	slices.Sort(out)
	return out
}

// Changes is the change set against the base: only paths whose content
// differs from it.
func (s *Session) Changes() *record.ChangeSet {
	var cs record.ChangeSet
	for _, c := range s.cur.Changes() {
		e, inBase := s.in.Base.Lookup(c.Path)
		switch {
		case c.Op == record.OpDelete && !inBase:
			continue // added and removed in the run
		case c.Op == record.OpPut && inBase && e.Mode == record.ModeRegular:
			if old, err := s.in.Base.Read(c.Path); err == nil && bytes.Equal(old, c.Content) {
				continue
			}
		}
		c.Create = false
		_ = cs.Put(c) // paths were validated when the change was accepted
	}
	return &cs
}

// Apply checks c against the principles and the linter, and applies it.
// A refusal is a *Refusal; ctx ending stops it before anything changes.
// The linter's warnings about an accepted change are returned.
func (s *Session) Apply(ctx context.Context, c Change) ([]lint.Finding, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	p, err := s.plan(c)
	if err != nil {
		return nil, err
	}
	var cs record.ChangeSet
	for _, w := range p.writes {
		if err := cs.Put(w); err != nil {
			return nil, s.refuse(c, "%v", err)
		}
	}
	rep := lint.CheckOverlay(s.cur, &cs, lint.Automation, s.lintOptions(p))
	if rep.HasErrors() {
		r := s.refusal(c, "the linter refuses it")
		for _, f := range rep.Findings {
			if f.Severity == lint.Error {
				r.Findings = append(r.Findings, f)
			}
		}
		return nil, r
	}
	s.cur = s.cur.With(&cs)
	for _, id := range p.staging {
		s.used[id] = true
	}
	for _, q := range p.protect {
		s.protected[q] = true
	}
	s.ops = append(s.ops, p.op)
	if s.in.Hooks.Applied != nil {
		s.in.Hooks.Applied(p.op)
	}
	var warnings []lint.Finding
	for _, f := range rep.Findings {
		if f.Severity != lint.Error {
			warnings = append(warnings, f)
		}
	}
	return warnings, nil
}

// lintOptions are the linter's options for a change: slugs are compared
// with all the others only when the change creates a record, the one
// time a near-duplicate slug is news (and a cost a run of hundreds of
// updates to 10,000 records need not pay for each).
func (s *Session) lintOptions(p *planned) lint.Options {
	opts := s.in.Lint
	for _, w := range p.writes {
		if w.Create {
			return opts
		}
	}
	opts.SimilarSlugs = false
	return opts
}

func (s *Session) refusal(c Change, why string) *Refusal {
	return &Refusal{Kind: c.Kind, Path: displayOf(c.Path), Reason: why}
}

func (s *Session) refuse(c Change, format string, args ...any) error {
	return s.refusal(c, fmt.Sprintf(format, args...))
}

func displayOf(p string) string {
	if rel, err := record.ToolPath(p); err == nil {
		return record.DisplayPath(rel)
	}
	return p
}

// read returns a record's current content and whether it exists.
func (s *Session) read(rel string) ([]byte, bool, error) {
	e, ok := s.cur.Lookup(rel)
	if !ok || e.Mode != record.ModeRegular {
		return nil, false, nil
	}
	b, err := s.cur.ReadFile(rel)
	if errors.Is(err, record.ErrNotExist) {
		return nil, false, nil
	}
	return b, err == nil, err
}

// bodyChars is the number of characters of a record's body.
func bodyChars(content []byte) int {
	doc, err := record.Parse(content)
	if err != nil {
		return utf8.RuneCount(content)
	}
	return utf8.RuneCount(bytes.TrimSpace(doc.Body()))
}
