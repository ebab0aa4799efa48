package record

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"sync"
)

// View is a read-only view of .yoi/: a Snapshot, or an Overlay of changes
// over one. It is what the linter reads.
type View interface {
	// Lookup finds an entry by path.
	Lookup(path string) (Entry, bool)
	// ReadFile reads a ModeRegular entry; a path the view does not hold
	// is an ErrNotExist error. Safe for concurrent use.
	ReadFile(path string) ([]byte, error)
	// Scan calls fn for the entries whose path begins with prefix, in
	// path order, until fn returns false.
	Scan(prefix string, fn func(Entry) bool)
}

// ReadFile reads a file of the snapshot: Read, or ErrNotExist without one.
func (s Snapshot) ReadFile(path string) ([]byte, error) {
	if s.Read == nil {
		return nil, fmt.Errorf("read %s: %w", path, ErrNotExist)
	}
	return s.Read(path)
}

// Scan calls fn for the entries whose path begins with prefix, in path
// order, until fn returns false. The entries must be sorted (Sort).
func (s Snapshot) Scan(prefix string, fn func(Entry) bool) {
	es := s.Entries
	for i := sort.Search(len(es), func(i int) bool { return es[i].Path >= prefix }); i < len(es) && strings.HasPrefix(es[i].Path, prefix); i++ {
		if !fn(es[i]) {
			return
		}
	}
}

// Overlay is a snapshot with changes on top, as Snapshot.Apply makes it,
// without copying the base's listing: Lookup and ReadFile look at the
// changed paths first, Scan merges them into the base's entries as it
// goes, and the whole listing is built only when Snapshot asks for it. A
// consolidation session checks and applies hundreds of changes, one at a
// time, to a 10,000-record snapshot. An Overlay never changes once built
// (With makes a new one), so it is safe for concurrent use.
type Overlay struct {
	base    Snapshot
	changes []Change          // sorted by path, one per path
	byPath  map[string]Change // the same changes
	memo    *memo             // shared by the overlays With makes

	once sync.Once
	snap Snapshot // the merged listing, built once
}

// NewOverlay starts an overlay on base, with no changes. A base whose
// entries are out of path order is sorted first (a copy).
func NewOverlay(base Snapshot) *Overlay {
	if !slices.IsSortedFunc(base.Entries, compareEntries) {
		base.Entries = slices.Clone(base.Entries)
		base.Sort()
	}
	return &Overlay{base: base, memo: &memo{values: map[any]any{}}}
}

// memo holds what readers derive from a base alone, for all the overlays
// over it.
type memo struct {
	mu     sync.Mutex
	values map[any]any
}

// Memo returns build(base) for key, built on the first call among all the
// overlays With made from one NewOverlay, and kept as long as they are:
// what a reader derives from the base alone (the linter's slug lists) is
// then worked out once per base, not once per change. build must depend on
// the base and key only; calls for one key wait for the first to finish.
func (o *Overlay) Memo(key any, build func(base Snapshot) any) any {
	o.memo.mu.Lock()
	defer o.memo.mu.Unlock()
	v, ok := o.memo.values[key]
	if !ok {
		v = build(o.base)
		o.memo.values[key] = v
	}
	return v
}

func compareEntries(a, b Entry) int { return strings.Compare(a.Path, b.Path) }

// Base is the snapshot the overlay starts from.
func (o *Overlay) Base() Snapshot { return o.base }

// With returns the overlay with cs on top of o's changes (a change of cs
// replaces o's change of the same path); o is not changed. It costs the
// number of changed paths, not the size of the base.
func (o *Overlay) With(cs *ChangeSet) *Overlay {
	add := cs.Changes()
	out := &Overlay{base: o.base, memo: o.memo, changes: make([]Change, 0, len(o.changes)+len(add)), byPath: make(map[string]Change, len(o.changes)+len(add))}
	i := 0
	for _, c := range add {
		for i < len(o.changes) && o.changes[i].Path < c.Path {
			out.changes = append(out.changes, o.changes[i])
			i++
		}
		if i < len(o.changes) && o.changes[i].Path == c.Path {
			i++ // replaced
		}
		out.changes = append(out.changes, c)
	}
	out.changes = append(out.changes, o.changes[i:]...)
	for _, c := range out.changes {
		out.byPath[c.Path] = c
	}
	return out
}

// Changes are the overlay's changes against its base, sorted by path.
func (o *Overlay) Changes() []Change { return slices.Clone(o.changes) }

// Lookup finds an entry by path. A put is a regular entry of its
// content's size, as Snapshot.Apply lists it.
func (o *Overlay) Lookup(path string) (Entry, bool) {
	if c, ok := o.byPath[path]; ok {
		if c.Op == OpDelete {
			return Entry{}, false
		}
		return putEntry(c), true
	}
	return o.base.Lookup(path)
}

func putEntry(c Change) Entry {
	return Entry{Path: c.Path, Mode: ModeRegular, Size: int64(len(c.Content))}
}

// ReadFile reads a file: a put's content, else the base's.
func (o *Overlay) ReadFile(path string) ([]byte, error) {
	if c, ok := o.byPath[path]; ok {
		if c.Op == OpDelete {
			return nil, fmt.Errorf("read %s: %w", path, ErrNotExist)
		}
		return c.Content, nil
	}
	return o.base.ReadFile(path)
}

// Scan calls fn for the entries whose path begins with prefix, in path
// order, until fn returns false: the base's entries and the changes
// merged as they go.
func (o *Overlay) Scan(prefix string, fn func(Entry) bool) {
	cs := o.changes
	j := sort.Search(len(cs), func(i int) bool { return cs[i].Path >= prefix })
	more := true
	// yield passes a change on to fn, unless it is a delete.
	yield := func(c Change) bool {
		more = c.Op == OpDelete || fn(putEntry(c))
		return more
	}
	o.base.Scan(prefix, func(e Entry) bool {
		for ; j < len(cs) && cs[j].Path < e.Path; j++ {
			if !yield(cs[j]) {
				return false
			}
		}
		if j < len(cs) && cs[j].Path == e.Path {
			j++
			return yield(cs[j-1])
		}
		more = fn(e)
		return more
	})
	for ; more && j < len(cs) && strings.HasPrefix(cs[j].Path, prefix); j++ {
		yield(cs[j])
	}
}

// Snapshot is the overlay as a whole snapshot: the base's entries with the
// changes merged in, built on the first call. Its Read reads through the
// overlay.
func (o *Overlay) Snapshot() Snapshot {
	o.once.Do(func() {
		if len(o.changes) == 0 {
			o.snap = o.base
			return
		}
		es := make([]Entry, 0, len(o.base.Entries)+len(o.changes))
		o.Scan("", func(e Entry) bool { es = append(es, e); return true })
		o.snap = Snapshot{Entries: es, Read: o.ReadFile}
	})
	return o.snap
}
