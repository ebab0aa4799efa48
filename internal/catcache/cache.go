package catcache

import (
	"bufio"
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
)

// Cache is the examinations of one workspace scope. It is safe for
// concurrent use. Load it, examine through Examiner, then Save.
type Cache struct {
	path string
	// written is the cache file's modification time. Like git's index, an
	// entry is trusted only when the file it describes last changed before
	// the cache was written: a change within the same timestamp tick would
	// otherwise keep the stat data ("racy clean").
	written int64
	loaded  []entry // in path order

	// now, when set, lets a long-lived process trust what it examined
	// itself (see settledBefore); nil trusts only the loaded file (and
	// time.Now dates the examinations written to it).
	now func() time.Time
	// factsOnly drops the lowered texts: a cache for the always-on context,
	// which needs descriptions, not text to match, stays small.
	factsOnly bool
	// shared is the repository's core.sharedRepository, read when the
	// file is written (nil: the umask's bits, the file 0600).
	shared sharedperm.Source

	mu      sync.Mutex
	next    atomic.Int64          // where the next lookup looks first: examinations come in path order
	served  atomic.Int64          // loaded entries served as valid since the last load or save
	fresh   map[string]freshEntry // examined by reading since the last load or save
	dirty   bool                  // fresh has entries the file lacks
	damaged bool
}

// freshEntry is an examination made by this process and when it began.
// Only examinations of files settled (see settledBefore) at least
// Granularity before they began are kept.
type freshEntry struct {
	entry
	at int64
}

// Granularity is the coarsest file timestamp tick trusted: a file whose
// stat times are older than an examination by more than this cannot have
// changed since without changing them.
const Granularity = 2 * time.Second

// SetShared has the cache file and its directories written with the
// repository's core.sharedRepository bits (read from src when they are).
func (c *Cache) SetShared(src sharedperm.Source) { c.shared = src }

// Load reads the cache file at path: a cache of the texts of records
// (memory.ExamineText), for searches. A missing or damaged file gives an
// empty cache (it is only ever a copy of what the records say); other
// read errors are returned with the cache still usable, empty.
func Load(path string, now func() time.Time) (*Cache, error) {
	return load(path, now, false)
}

// LoadFacts is Load for a cache of the facts of records
// (memory.ExamineFacts, no lowered texts), for the always-on context.
func LoadFacts(path string, now func() time.Time) (*Cache, error) {
	return load(path, now, true)
}

func load(path string, now func() time.Time, factsOnly bool) (*Cache, error) {
	c := &Cache{path: path, now: now, factsOnly: factsOnly, fresh: map[string]freshEntry{}}
	data, written, err := readFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return c, nil
	case err != nil:
		return c, fmt.Errorf("read cache %s: %w", path, err)
	}
	c.written = written
	if c.loaded, err = decode(data); err != nil {
		c.damaged = true // rewritten by Save
	}
	return c, nil
}

// lookup finds a loaded entry by path.
func (c *Cache) lookup(path string) (entry, bool) {
	i := int(c.next.Load())
	if i >= len(c.loaded) || c.loaded[i].path != path {
		i = sort.Search(len(c.loaded), func(i int) bool { return c.loaded[i].path >= path })
	}
	if i < len(c.loaded) && c.loaded[i].path == path {
		c.next.Store(int64(i + 1))
		return c.loaded[i], true
	}
	return entry{}, false
}

// Examiner examines snap's entries from the cache when their stamps match
// and by reading them otherwise, remembering what it read.
func (c *Cache) Examiner(snap record.Snapshot) memory.Examiner {
	return func(e record.Entry) (memory.Examined, error) { return c.examine(snap, e) }
}

// prefetchChunk is how many entries a prefetching goroutine takes at a
// time; fewer misses than two chunks are left to the Examiner.
const prefetchChunk = 32

// Prefetch examines, on up to workers goroutines, the entries of snap
// that want selects and the cache cannot serve, and keeps what they find
// for the Examiner, as it would have: a cold search reads and lowers its
// files on every core instead of one. Read errors are left for the
// Examiner to meet again. A cache without a clock (see Load) keeps only
// what it loaded, and Prefetch does nothing.
func (c *Cache) Prefetch(snap record.Snapshot, want func(record.Entry) bool, workers int) {
	if c.now == nil || workers < 2 {
		return
	}
	var todo []record.Entry
	for _, e := range snap.Entries {
		if e.Mode == record.ModeRegular && !c.serves(e) && want(e) { // serves is the cheaper test
			todo = append(todo, e)
		}
	}
	if len(todo) < 2*prefetchChunk {
		return
	}
	var next atomic.Int64
	work := func() {
		for {
			i := int(next.Add(prefetchChunk)) - prefetchChunk
			if i >= len(todo) {
				return
			}
			for _, e := range todo[i:min(i+prefetchChunk, len(todo))] {
				_, _ = c.examine(snap, e)
			}
		}
	}
	var wg sync.WaitGroup
	for range min(workers, len(todo)/prefetchChunk) - 1 { // and this goroutine
		wg.Add(1)
		go func() { defer wg.Done(); work() }()
	}
	work()
	wg.Wait()
}

// serves tells whether the Examiner would answer for e without reading
// it, without counting it as served.
func (c *Cache) serves(e record.Entry) bool {
	_, _, ok := c.cached(e)
	return ok
}

// cached is the examination of e the cache holds while it is valid: one
// made by this process from a file settled before it began (only with a
// clock), or one loaded from a file written after e last changed.
func (c *Cache) cached(e record.Entry) (ex memory.Examined, loaded, ok bool) {
	c.mu.Lock()
	f, ok := c.fresh[e.Path]
	c.mu.Unlock()
	if ok && c.now != nil && f.stamp == e.Stamp && settledBefore(e.Stamp, f.at-int64(Granularity)) {
		return f.ex, false, true
	}
	if ce, ok := c.lookup(e.Path); ok && ce.stamp == e.Stamp && settledBefore(e.Stamp, c.written) {
		return ce.ex, true, true
	}
	return memory.Examined{}, false, false
}

// examine is what Examiner's function does.
func (c *Cache) examine(snap record.Snapshot, e record.Entry) (memory.Examined, error) {
	if ex, loaded, ok := c.cached(e); ok {
		if loaded {
			c.served.Add(1)
		}
		return ex, nil
	}
	now := c.now
	if now == nil {
		now = time.Now
	}
	at := now().UnixNano()
	content, err := snap.Read(e.Path)
	if err != nil {
		return memory.Examined{}, err
	}
	var ex memory.Examined
	if c.factsOnly {
		ex = memory.ExamineFacts(e.Path, content)
	} else if snap.Owned {
		ex = memory.ExamineTextInPlace(e.Path, content) // content is ours, read for this
	} else {
		ex = memory.ExamineText(e.Path, content)
	}
	// A stamp that does not give the size read describes another
	// version of the file than the one examined; a file that changed
	// within the granularity of the examination's start may have
	// changed again since without changing its stamp. Either is left
	// out, to be read again.
	c.mu.Lock()
	if e.Stamp.Size == int64(len(content)) && settledBefore(e.Stamp, at-int64(Granularity)) {
		c.fresh[e.Path] = freshEntry{entry{path: e.Path, stamp: e.Stamp, ex: ex}, at}
		c.dirty = true
	} else {
		delete(c.fresh, e.Path)
	}
	c.mu.Unlock()
	return ex, nil
}

// settledBefore tells whether a file with stamp s last changed before t.
func settledBefore(s record.Stamp, t int64) bool {
	return !s.IsZero() && s.ModNs < t && s.ChangeNs < t
}

// Save writes the cache back if anything changed: entries examined this
// run replace the loaded ones, and only paths snap (the whole scope) still
// lists with the same stamps are kept. A loaded entry is kept only if it
// was valid (its file settled before the cache was written): the rewritten
// file is newer, and would otherwise vouch for a racy entry no one checked.
func (c *Cache) Save(snap record.Snapshot) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if served := int(c.served.Load()); !c.damaged && !c.dirty && served == len(c.loaded) && served == regularFiles(snap) {
		return nil // every listed file was served from the cache as it is
	}
	if !c.damaged && !c.dirty && c.keep(snap, nil) == len(c.loaded) {
		return nil // nothing new, nothing gone: built nothing
	}
	next := make([]entry, 0, len(snap.Entries))
	c.keep(snap, &next)
	perm, err := c.shared.Get()
	if err != nil {
		return fmt.Errorf("write cache %s: %w", c.path, err)
	}
	if err := perm.Dirs(filepath.Dir(c.path), 0o777); err != nil {
		return fmt.Errorf("write cache %s: %w", c.path, err)
	}
	written, err := writeReplace(c.path, perm, func(w io.Writer) error { return writeEntries(w, next) })
	if err != nil {
		return fmt.Errorf("write cache %s: %w", c.path, err)
	}
	// The saved state is what a new Load would see.
	c.loaded, c.written = next, written
	c.fresh, c.dirty, c.damaged = map[string]freshEntry{}, false, false
	c.served.Store(0)
	c.next.Store(0)
	return nil
}

// keep counts the loaded entries that Save keeps: those snap still lists
// with their stamps, valid when the cache was written. With next, it also
// appends what Save writes: those and the entries examined this run.
func (c *Cache) keep(snap record.Snapshot, next *[]entry) int {
	kept := 0
	for _, e := range snap.Entries {
		if e.Mode != record.ModeRegular {
			continue
		}
		if f, ok := c.fresh[e.Path]; ok && f.stamp == e.Stamp {
			if next != nil {
				*next = append(*next, f.entry)
			}
			continue
		}
		if ce, ok := c.lookup(e.Path); ok && ce.stamp == e.Stamp && settledBefore(ce.stamp, c.written) {
			if next != nil {
				*next = append(*next, ce)
			}
			kept++
		}
	}
	return kept
}

// writeReplace writes data to a temporary file and renames it over path:
// readers see the old cache or the new one, and a mapped old file is never
// truncated under its reader. A cache needs no fsync: lost, it is rebuilt.
// It returns the new file's modification time. The file gets perm's
// shared bits.
func writeReplace(path string, perm sharedperm.Perm, write func(io.Writer) error) (int64, error) {
	create := os.CreateTemp // 0600: private, unshared
	if perm.Shared() {
		create = func(dir, pattern string) (*os.File, error) { return perm.CreateTemp(dir, pattern, 0o644) }
	}
	f, err := create(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriterSize(f, 256<<10)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	var fi os.FileInfo
	if err == nil {
		fi, err = f.Stat()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return 0, err
	}
	return fi.ModTime().UnixNano(), nil
}

func regularFiles(snap record.Snapshot) int {
	n := 0
	for _, e := range snap.Entries {
		if e.Mode == record.ModeRegular {
			n++
		}
	}
	return n
}
