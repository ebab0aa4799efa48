package record

import (
	"fmt"
	"sort"
)

// Op is what a change does to a path.
type Op int

// Change operations.
const (
	OpPut    Op = iota // write the content (create or update)
	OpDelete           // remove the file
)

func (o Op) String() string {
	if o == OpDelete {
		return "delete"
	}
	return "put"
}

// Change is one file operation under .yoi/.
type Change struct {
	Op      Op
	Path    string // relative to .yoi/, slash-separated
	Content []byte // for OpPut
	// Create marks a put that must not replace an existing record (the
	// linter refuses it when the slug exists: update instead).
	Create bool
}

// ChangeSet is an ordered set of changes with at most one change per path;
// a later change to the same path replaces the earlier one.
type ChangeSet struct {
	changes []Change
}

// Put adds or replaces the change for c.Path after validating the path.
func (cs *ChangeSet) Put(c Change) error {
	if _, err := CleanRel(c.Path); err != nil {
		return fmt.Errorf("change set: %w", err)
	}
	for i := range cs.changes {
		if cs.changes[i].Path == c.Path {
			if cs.changes[i].Create && c.Op == OpPut {
				c.Create = true
			}
			cs.changes[i] = c
			return nil
		}
	}
	cs.changes = append(cs.changes, c)
	return nil
}

// Changes returns the changes sorted by path.
func (cs *ChangeSet) Changes() []Change {
	out := append([]Change(nil), cs.changes...)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// Len is the number of paths changed.
func (cs *ChangeSet) Len() int { return len(cs.changes) }

// Get returns the change for a path, if any.
func (cs *ChangeSet) Get(path string) (Change, bool) {
	for _, c := range cs.changes {
		if c.Path == path {
			return c, true
		}
	}
	return Change{}, false
}
