package gitstore

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// looseNames remembers the loose objects each fan-out directory ("ab" of
// objects/ab/cdef…) held when it was listed, in the objects directory and
// its alternates: an object found absent there is then known absent
// without one failing open per directory. Reading the 10,000 records of a
// packed memory made 10,000 of them, an eighth of a consolidation run's
// CPU time. A listing is made on the first miss in its fan-out. An object
// another process writes after it is not in it: readObject then finds it
// through go-git, which looks at loose objects after packs.
type looseNames struct {
	mu     sync.Mutex
	fanout map[string]map[string]bool // "ab" → the names ("cdef…") listed
}

// absent reports whether name (40 hex digits) was not loose when its
// fan-out directory was listed; false when it was not listed yet.
func (l *looseNames) absent(name string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	names, listed := l.fanout[name[:2]]
	return listed && !names[name[2:]]
}

// list lists name's fan-out directory in dirs, unless it was listed. A
// directory that cannot be read leaves the fan-out unlisted: every lookup
// there opens the file, as before.
func (l *looseNames) list(name string, dirs []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, listed := l.fanout[name[:2]]; listed {
		return
	}
	names := map[string]bool{}
	for _, dir := range dirs {
		entries, err := os.ReadDir(filepath.Join(dir, name[:2]))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return
		}
		for _, e := range entries {
			names[e.Name()] = true
		}
	}
	if l.fanout == nil {
		l.fanout = map[string]map[string]bool{}
	}
	l.fanout[name[:2]] = names
}

// add records an object this process wrote loose.
func (l *looseNames) add(name string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if names, listed := l.fanout[name[:2]]; listed {
		names[name[2:]] = true
	}
}
