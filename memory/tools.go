package memory

import (
	"errors"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
)

// Store is where the memory tools read and write: the working tree's
// .yoi/ (cmd wires an atomic-file implementation), or an overlay over a
// snapshot for the consolidation agent. Paths are .yoi/-relative.
type Store interface {
	Snapshot() (record.Snapshot, error)
	Write(path string, content []byte) error
	Delete(path string) error
}

// Tools are the memory tools of the plan: read, write, edit, delete. Every
// write runs the linter first; its errors come back as a *Refusal a model
// can read and act on. Writes are allowed only to records under memory/
// and knowledge/, never to workflow/, never over a read-only file (the
// user's lock), never creating a slug that exists.
type Tools struct {
	Store Store
	Lint  lint.Options
}

// Refusal is a write the rules refuse, with the findings that say why.
type Refusal struct {
	Path     string
	Findings []lint.Finding
}

func (r *Refusal) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "refused to write %s:", r.Path)
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "\n  %d:%d: %s %s: %s", f.Line, f.Col, f.Severity, f.Rule, f.Message)
	}
	return b.String()
}

// Errors of the tools.
var (
	ErrReadOnly = errors.New("the file is read-only (its owner locked it); leave it as it is")
)

// Read returns a record's content.
func (t *Tools) Read(path string) ([]byte, error) {
	if f := lint.PathFinding(path); f != nil {
		return nil, &Refusal{Path: path, Findings: []lint.Finding{*f}}
	}
	snap, err := t.Store.Snapshot()
	if err != nil {
		return nil, err
	}
	e, ok := snap.Lookup(path)
	if !ok || e.Mode != record.ModeRegular || record.Classify(path).Area != record.AreaRecord {
		return nil, fmt.Errorf("%s: %w", path, ErrNotFound)
	}
	return snap.Read(path)
}

// Write creates (create=true, refused when the slug exists) or replaces a
// record with content.
func (t *Tools) Write(path string, content []byte, create bool) ([]lint.Finding, error) {
	return t.apply(record.Change{Op: record.OpPut, Path: path, Content: content, Create: create})
}

// Edit replaces the one occurrence of old with new in a record; zero or
// several occurrences are an error that says so.
func (t *Tools) Edit(path, old, new string) ([]lint.Finding, error) {
	content, err := t.Read(path)
	if err != nil {
		return nil, err
	}
	switch n := strings.Count(string(content), old); {
	case old == "":
		return nil, errors.New("edit: the text to replace is empty")
	case n == 0:
		return nil, fmt.Errorf("edit %s: the text to replace does not occur; read the record again", path)
	case n > 1:
		return nil, fmt.Errorf("edit %s: the text to replace occurs %d times; give more context so it occurs once", path, n)
	}
	return t.apply(record.Change{Op: record.OpPut, Path: path, Content: []byte(strings.Replace(string(content), old, new, 1))})
}

// Delete removes a record. Decisions are replaced, not deleted (status:
// replaced, replaced_by), so deleting one is refused.
func (t *Tools) Delete(path string) ([]lint.Finding, error) {
	if record.Classify(path).Kind == record.KindDecision {
		return nil, fmt.Errorf("delete %s: decisions are not deleted; set status: replaced and replaced_by to the record that replaces it", path)
	}
	return t.apply(record.Change{Op: record.OpDelete, Path: path})
}

// apply lints the change against the current snapshot as automation and
// writes it when no finding is an error; warnings are returned.
func (t *Tools) apply(c record.Change) ([]lint.Finding, error) {
	if f := lint.PathFinding(c.Path); f != nil {
		return nil, &Refusal{Path: c.Path, Findings: []lint.Finding{*f}}
	}
	snap, err := t.Store.Snapshot()
	if err != nil {
		return nil, err
	}
	if e, ok := snap.Lookup(c.Path); ok && e.ReadOnly {
		return nil, fmt.Errorf("%s: %w", c.Path, ErrReadOnly)
	}
	if c.Op == record.OpDelete {
		if _, ok := snap.Lookup(c.Path); !ok {
			return nil, fmt.Errorf("%s: %w", c.Path, ErrNotFound)
		}
	}
	var cs record.ChangeSet
	if err := cs.Put(c); err != nil {
		return nil, err
	}
	rep := lint.Check(snap, &cs, lint.Automation, t.Lint)
	if rep.HasErrors() {
		return rep.Findings, &Refusal{Path: c.Path, Findings: errorsOnly(rep.Findings)}
	}
	if c.Op == record.OpDelete {
		err = t.Store.Delete(c.Path)
	} else {
		err = t.Store.Write(c.Path, c.Content)
	}
	return rep.Findings, err
}

func errorsOnly(fs []lint.Finding) []lint.Finding {
	var out []lint.Finding
	for _, f := range fs {
		if f.Severity == lint.Error {
			out = append(out, f)
		}
	}
	return out
}

// MapStore is an in-memory Store: tests, and the overlay the consolidation
// agent writes to before anything reaches git.
type MapStore struct {
	Files    map[string][]byte
	ReadOnly map[string]bool
}

// Snapshot lists the files.
func (m *MapStore) Snapshot() (record.Snapshot, error) {
	snap := record.MapSnapshot(m.Files)
	for i, e := range snap.Entries {
		snap.Entries[i].ReadOnly = m.ReadOnly[e.Path]
	}
	return snap, nil
}

// Write stores content.
func (m *MapStore) Write(path string, content []byte) error {
	if m.Files == nil {
		m.Files = map[string][]byte{}
	}
	m.Files[path] = append([]byte(nil), content...)
	return nil
}

// Delete removes a file.
func (m *MapStore) Delete(path string) error {
	delete(m.Files, path)
	return nil
}
