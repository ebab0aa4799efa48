package record

import (
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strings"
)

// Mode is the type of a snapshot entry.
type Mode int

// Entry modes. Only ModeRegular files are records; the others exist so the
// linter can report them.
const (
	ModeRegular Mode = iota
	ModeSymlink
	ModeDir
	ModeOther
)

// Entry is one path of a snapshot of .yoi/.
type Entry struct {
	Path   string // relative to .yoi/, slash-separated
	Mode   Mode
	Size   int64
	Target string // symlink target, as stored
	// ReadOnly is set when the source knows the file is not writable (the
	// user's OS-level lock on a record).
	ReadOnly bool
	// Stamp, when not zero, changes whenever the file's content may have
	// changed (the working tree's stat data): what a machine-local cache is
	// validated against. Index and revision snapshots leave it zero.
	Stamp Stamp
}

// Stamp is a file's stat data as git's index keeps it: size, modification
// and change times in nanoseconds, inode. The zero Stamp means unknown.
type Stamp struct {
	Size, ModNs, ChangeNs int64
	Ino                   uint64
}

// IsZero reports whether the stamp is unknown.
func (s Stamp) IsZero() bool { return s == Stamp{} }

// Snapshot is a listing of .yoi/ and a way to read its files, from the
// working tree, the index or a revision. Read must be safe for concurrent
// use and must only be called for ModeRegular entries.
type Snapshot struct {
	Entries []Entry
	Read    func(path string) ([]byte, error)
	// Owned says that Read returns a new buffer on every call, which the
	// caller may change (a cold search lowers the records in place).
	Owned bool
	// ReadInto, when not nil, is Read into the memory of buf when the file
	// fits in its capacity (else into new memory). The bytes it returns are
	// the caller's, to reuse for its next read: a reader of 10,000 files
	// that drops each one needs one buffer, not 10,000.
	ReadInto func(path string, buf []byte) ([]byte, error)
}

// IntoReader is a View that can read a file into the caller's memory.
// ReadFileInto writes into no memory but buf's; it returns bytes in buf's
// memory, in new memory, or (when it cannot read into a buffer) what
// ReadFile returns, which the caller may pass back as buf but not change.
type IntoReader interface {
	ReadFileInto(path string, buf []byte) ([]byte, error)
}

// ReadFileInto reads a file of the snapshot into buf's memory when it can
// (ReadInto), else as ReadFile does; the bytes it returns are then the
// caller's only with ReadInto (see Owned).
func (s Snapshot) ReadFileInto(path string, buf []byte) ([]byte, error) {
	if s.ReadInto == nil {
		return s.ReadFile(path)
	}
	return s.ReadInto(path, buf)
}

// ErrNotExist is returned by Snapshot reads of paths it does not hold.
var ErrNotExist = fs.ErrNotExist

// Lookup finds an entry by path.
func (s Snapshot) Lookup(path string) (Entry, bool) {
	i := sort.Search(len(s.Entries), func(i int) bool { return s.Entries[i].Path >= path })
	if i < len(s.Entries) && s.Entries[i].Path == path {
		return s.Entries[i], true
	}
	return Entry{}, false
}

// Sort orders the entries by path; Lookup needs it.
func (s *Snapshot) Sort() {
	slices.SortFunc(s.Entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) })
}

// Apply returns the snapshot as it would be after cs: puts become regular
// entries read from the change, deletes disappear. The base is not changed.
// The puts are merged into the base's sorted entries, not sorted in: a
// consolidation applies hundreds of changes to a 10,000-record snapshot.
func (s Snapshot) Apply(cs *ChangeSet) Snapshot {
	puts := map[string][]byte{}
	gone := map[string]bool{}
	var added []Entry // in path order, as Changes returns them
	for _, c := range cs.Changes() {
		if c.Op == OpDelete {
			gone[c.Path] = true
		} else {
			puts[c.Path] = c.Content
			added = append(added, Entry{Path: c.Path, Mode: ModeRegular, Size: int64(len(c.Content))})
		}
	}
	out := Snapshot{Entries: make([]Entry, 0, len(s.Entries)+len(added))}
	next := 0
	for _, e := range s.Entries {
		for next < len(added) && added[next].Path < e.Path {
			out.Entries = append(out.Entries, added[next])
			next++
		}
		if _, ok := puts[e.Path]; ok || gone[e.Path] {
			continue
		}
		out.Entries = append(out.Entries, e)
	}
	out.Entries = append(out.Entries, added[next:]...)
	if !slices.IsSortedFunc(out.Entries, func(a, b Entry) int { return strings.Compare(a.Path, b.Path) }) {
		out.Sort() // the base was not in path order
	}
	base := s.Read
	out.Read = func(path string) ([]byte, error) {
		if b, ok := puts[path]; ok {
			return b, nil
		}
		if gone[path] || base == nil {
			return nil, fmt.Errorf("read %s: %w", path, ErrNotExist)
		}
		return base(path)
	}
	return out
}

// MapSnapshot builds a snapshot of regular files from a map, for tests and
// in-memory overlays.
func MapSnapshot(files map[string][]byte) Snapshot {
	s := Snapshot{}
	for p, b := range files {
		s.Entries = append(s.Entries, Entry{Path: p, Mode: ModeRegular, Size: int64(len(b))})
	}
	s.Sort()
	s.Read = func(path string) ([]byte, error) {
		if b, ok := files[path]; ok {
			return b, nil
		}
		return nil, fmt.Errorf("read %s: %w", path, ErrNotExist)
	}
	return s
}
