package gitstore

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unsafe"

	"github.com/yoimem/git-yoimem/record"
)

// ErrNoYoi means the workspace has no .yoi/ directory (record.ErrNoYoi,
// which packages that do not read git use).
var ErrNoYoi = record.ErrNoYoi

// WorktreeSnapshot lists .yoi/ under root (the workspace root) without
// following symlinks, and reads files with O_NOFOLLOW so that nothing
// outside .yoi/ is ever read. maxRead (yoimem.lint.maxFileBytes; 0: no
// limit) refuses larger files: their Read is a *record.TooLargeError with
// the real size, never the first bytes.
func WorktreeSnapshot(root string, maxRead int64) (record.Snapshot, error) {
	return WorktreeSnapshotOf(root, maxRead)
}

// WorktreeSnapshotOf is WorktreeSnapshot limited to some directories of
// .yoi/ (e.g. "knowledge"): a search of knowledge need not list 10,000
// other records. No dirs means all of .yoi/.
func WorktreeSnapshotOf(root string, maxRead int64, dirs ...string) (record.Snapshot, error) {
	return worktreeSnapshot(readDirents, root, maxRead, dirs...)
}

// readDirFunc reads the next entries of an open directory, using buf
// (whose names may alias it); io.EOF ends the directory. Tests give their
// own to fail or race a listing.
type readDirFunc func(d *os.File, buf []byte) ([]dirEntry, error)

// dirEntry is a name read from a directory and the type it gave.
type dirEntry struct {
	name string
	mode record.Mode
}

func worktreeSnapshot(readDir readDirFunc, root string, maxRead int64, dirs ...string) (record.Snapshot, error) {
	dir := filepath.Join(root, record.Dir)
	fi, err := os.Lstat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return record.Snapshot{}, fmt.Errorf("%s: %w", dir, ErrNoYoi)
	case err != nil:
		return record.Snapshot{}, fmt.Errorf("read %s: %w", dir, err)
	case fi.Mode()&fs.ModeSymlink != 0:
		return record.Snapshot{}, fmt.Errorf("%s is a symlink; .yoi/ must be a directory in the repository", dir)
	case !fi.IsDir():
		return record.Snapshot{}, fmt.Errorf("%s is not a directory", dir)
	}
	// Reads refuse symlinks in every component, so the path up to .yoi/
	// must have none of its own.
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	var snap record.Snapshot
	if len(dirs) == 0 {
		dirs = []string{""}
	}
	for _, d := range dirs {
		if d != "" {
			st, err := lstatPath(filepath.Join(dir, filepath.FromSlash(d)))
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if err != nil {
				return record.Snapshot{}, fmt.Errorf("read %s: %w", d, err)
			}
			if st.mode.IsRegular() { // a single file, e.g. memory/summary.md
				snap.Entries = append(snap.Entries, record.Entry{Path: d, Mode: record.ModeRegular, Size: st.stamp.Size, ReadOnly: st.mode.Perm()&0o200 == 0, Stamp: st.stamp})
				continue
			}
			if !st.mode.IsDir() {
				continue // the full lint reports it; a search just skips it
			}
		}
		if err := walk(readDir, dir, d, &snap.Entries); err != nil {
			return record.Snapshot{}, err
		}
	}
	if !slices.IsSortedFunc(snap.Entries, func(a, b record.Entry) int { return strings.Compare(a.Path, b.Path) }) {
		snap.Sort() // subdirectories' entries follow their parent's
	}
	snap.Owned = true // readNoFollow reads into a new buffer every time
	snap.ReadInto = func(rel string, buf []byte) ([]byte, error) {
		// Only what the listing holds as a regular file is read: no path
		// the walk did not see, no FIFO, no link.
		e, ok := snap.Lookup(rel)
		if !ok || e.Mode != record.ModeRegular {
			return nil, fmt.Errorf("read %s: %w", rel, record.ErrNotExist)
		}
		b, err := readNoFollow(filepath.Join(dir, filepath.FromSlash(rel)), e.Size, maxRead, buf)
		return b, withPath(err, rel)
	}
	snap.Read = func(rel string) ([]byte, error) { return snap.ReadInto(rel, nil) }
	return snap, nil
}

func walk(readDir readDirFunc, base, rel string, out *[]record.Entry) error {
	dirPath := filepath.Join(base, filepath.FromSlash(rel))
	d, err := os.Open(dirPath)
	if errors.Is(err, fs.ErrNotExist) && rel != "" {
		return nil // removed since its parent was listed: nothing to list
	}
	if err != nil {
		return fmt.Errorf("list %s: %w", dirPath, err)
	}
	defer d.Close()
	batches, err := listStatted(readDir, d, dirPath, rel)
	if err != nil {
		return err
	}
	n := 0
	for _, b := range batches {
		n += len(b)
	}
	*out = slices.Grow(*out, n) // knowledge/ has thousands: grown once
	var subdirs []string
	for _, k := range byName(batches, n, len(rel)) {
		e := batches[k.batch][k.i]
		if e.Mode == record.ModeDir {
			subdirs = append(subdirs, e.Path)
		}
		if e.Mode == record.ModeSymlink {
			e.Target, _ = os.Readlink(filepath.Join(base, filepath.FromSlash(e.Path)))
		}
		*out = append(*out, e)
	}
	for _, sub := range subdirs {
		if err := walk(readDir, base, sub, out); err != nil {
			return err
		}
	}
	return nil
}

// entryKey is where an entry of a directory's batches is, by its name.
// head is the name's first eight bytes, big-endian, zero-padded: names
// hold no NUL, so comparing heads orders names as their bytes do, and most
// comparisons of a sort end there.
type entryKey struct {
	head     uint64
	name     string
	batch, i int32
}

// byName orders the n entries of batches, in a directory whose path is
// dirLen bytes long, by name, which is their path order: a directory is
// read in no useful order (ext4: by hash). Sorting these small keys costs
// a fraction of sorting the entries by path; the snapshot then finds them
// sorted when there are no subdirectories.
func byName(batches [][]record.Entry, n, dirLen int) []entryKey {
	skip := 0
	if dirLen > 0 {
		skip = dirLen + 1
	}
	keys := make([]entryKey, 0, n)
	for bi, b := range batches {
		for i, e := range b {
			name := e.Path[skip:]
			keys = append(keys, entryKey{nameHead(name), name, int32(bi), int32(i)})
		}
	}
	slices.SortFunc(keys, func(a, b entryKey) int {
		if c := cmp.Compare(a.head, b.head); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
	return keys
}

// nameHead is the first eight bytes of name, big-endian, zero-padded.
func nameHead(name string) uint64 {
	var h uint64
	for i := range 8 {
		h <<= 8
		if i < len(name) {
			h |= uint64(name[i])
		}
	}
	return h
}

// listStatted lists an open directory and stats its regular files relative
// to it (one path component to resolve, not the whole path). Reading the
// directory and stat'ing what was read overlap: a helper goroutine stats
// batches while the directory is still being read, then both finish the
// queue. A listing of knowledge/ is mostly stat calls. A file that vanished
// between being read and being stat'ed (an editor's temporary file renamed
// away) is left out.
func listStatted(readDir readDirFunc, d *os.File, dirPath, rel string) ([][]record.Entry, error) {
	dfd := dirFD(d)
	var batches [][]record.Entry
	queue := make(chan []record.Entry, 64)
	var errMu sync.Mutex
	var firstErr error
	work := func() {
		for b := range queue {
			if err := statBatch(dfd, dirPath, b); err != nil {
				errMu.Lock()
				if firstErr == nil {
					firstErr = err
				}
				errMu.Unlock()
			}
		}
	}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() { defer wg.Done(); work() }()
	buf := make([]byte, direntsBuf)
	for {
		des, err := readDir(d, buf)
		if b := batchOf(rel, des); len(b) > 0 {
			batches = append(batches, b)
			queue <- b
		}
		// The error first: a failed read may come with no entries.
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			close(queue)
			wg.Wait()
			return nil, fmt.Errorf("list %s: %w", dirPath, err)
		}
		if len(des) == 0 {
			break // not expected without io.EOF, but never loop on it
		}
	}
	close(queue)
	work() // help finish the queue
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	for i, b := range batches {
		kept := b[:0]
		for _, e := range b {
			if e.Path != "" {
				kept = append(kept, e)
			}
		}
		batches[i] = kept
	}
	return batches, nil
}

// batchOf makes the entries of des, in directory rel. Their paths are
// copied into one new array (the names may alias the read buffer): one
// allocation per batch, not per file.
func batchOf(rel string, des []dirEntry) []record.Entry {
	if len(des) == 0 {
		return nil
	}
	prefix := 0
	if rel != "" {
		prefix = len(rel) + 1
	}
	size := 0
	for _, de := range des {
		size += prefix + len(de.name)
	}
	arena := make([]byte, 0, size)
	b := make([]record.Entry, 0, len(des))
	for _, de := range des {
		start := len(arena)
		if rel != "" {
			arena = append(arena, rel...)
			arena = append(arena, '/')
		}
		arena = append(arena, de.name...)
		p := arena[start:]
		b = append(b, record.Entry{Path: unsafe.String(&p[0], len(p)), Mode: de.mode})
	}
	return b
}

// modeOfType is the listing's mode of a directory entry's type; regular
// files are confirmed by their stat.
func modeOfType(t fs.FileMode) record.Mode {
	switch {
	case t&fs.ModeSymlink != 0:
		return record.ModeSymlink
	case t.IsDir():
		return record.ModeDir
	case t.IsRegular():
		return record.ModeRegular
	}
	return record.ModeOther
}

// statBatch fills in the stat data of the regular files of b, and clears
// the path of those that no longer exist: they are gone from the listing.
func statBatch(dfd int, dirPath string, b []record.Entry) error {
	for i := range b {
		e := &b[i]
		if e.Mode != record.ModeRegular {
			continue
		}
		st, err := lstatAt(dfd, dirPath, path.Base(e.Path))
		if errors.Is(err, fs.ErrNotExist) { // removed or renamed away since it was listed
			e.Path = ""
			continue
		}
		if err != nil {
			return fmt.Errorf("stat %s: %w", filepath.Join(dirPath, path.Base(e.Path)), err)
		}
		if !st.mode.IsRegular() { // replaced since it was listed
			e.Mode = record.ModeOther
			continue
		}
		e.Size, e.Stamp = st.stamp.Size, st.stamp
		// The user's lock is the owner's write bit (chmod u-w, -r--;
		// docs/retrieval.md, "The memory tools").
		e.ReadOnly = st.mode.Perm()&0o200 == 0
	}
	return nil
}
