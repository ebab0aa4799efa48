package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/yoimem/git-yoimem/record"
)

// ErrNoYoi means the workspace has no .yoi/ directory.
var ErrNoYoi = errors.New("no .yoi/ directory")

// WorktreeSnapshot lists .yoi/ under root (the workspace root) without
// following symlinks, and reads files with O_NOFOLLOW so that nothing
// outside .yoi/ is ever read. maxRead caps how much of one file is read
// (0: no cap); a larger file reads as its first maxRead+1 bytes, which the
// linter reports by size.
func WorktreeSnapshot(root string, maxRead int64) (record.Snapshot, error) {
	return WorktreeSnapshotOf(root, maxRead)
}

// WorktreeSnapshotOf is WorktreeSnapshot limited to some directories of
// .yoi/ (e.g. "knowledge"): a search of knowledge need not list 10,000
// other records. No dirs means all of .yoi/.
func WorktreeSnapshotOf(root string, maxRead int64, dirs ...string) (record.Snapshot, error) {
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
		if err := walk(dir, d, &snap.Entries); err != nil {
			return record.Snapshot{}, err
		}
	}
	snap.Sort()
	snap.Read = func(rel string) ([]byte, error) {
		// Only what the listing holds as a regular file is read: no path
		// the walk did not see, no FIFO, no link.
		e, ok := snap.Lookup(rel)
		if !ok || e.Mode != record.ModeRegular {
			return nil, fmt.Errorf("read %s: %w", rel, record.ErrNotExist)
		}
		return readNoFollow(filepath.Join(dir, filepath.FromSlash(rel)), e.Size, maxRead)
	}
	return snap, nil
}

func walk(base, rel string, out *[]record.Entry) error {
	dirPath := filepath.Join(base, filepath.FromSlash(rel))
	d, err := os.Open(dirPath)
	if err != nil {
		return fmt.Errorf("list %s: %w", dirPath, err)
	}
	defer d.Close()
	entries, err := d.ReadDir(-1)
	if err != nil {
		return fmt.Errorf("list %s: %w", dirPath, err)
	}
	first := len(*out)
	var subdirs []string
	var files []int // positions in *out of the regular files, stat'ed below
	for _, de := range entries {
		p := de.Name()
		if rel != "" {
			p = rel + "/" + p
		}
		e := record.Entry{Path: p}
		t := de.Type()
		switch {
		case t&fs.ModeSymlink != 0:
			e.Mode = record.ModeSymlink
			e.Target, _ = os.Readlink(filepath.Join(base, filepath.FromSlash(p)))
		case t.IsDir():
			e.Mode = record.ModeDir
			subdirs = append(subdirs, p)
		case t.IsRegular():
			files = append(files, len(*out))
		default:
			e.Mode = record.ModeOther
		}
		*out = append(*out, e)
	}
	if err := statFiles(dirFD(d), dirPath, (*out)[first:], files, first); err != nil {
		return err
	}
	for _, sub := range subdirs {
		if err := walk(base, sub, out); err != nil {
			return err
		}
	}
	return nil
}

// statFiles fills in the stat data of the regular files at positions
// files (offset by first) of entries, relative to the open directory: one
// path component to resolve instead of the whole path. Large directories
// are split between two goroutines; a listing of knowledge/ is mostly
// stat calls.
func statFiles(dfd int, dirPath string, entries []record.Entry, files []int, first int) error {
	stat := func(part []int) error {
		for _, i := range part {
			e := &entries[i-first]
			st, err := lstatAt(dfd, dirPath, path.Base(e.Path))
			if err != nil {
				return fmt.Errorf("stat %s: %w", filepath.Join(dirPath, path.Base(e.Path)), err)
			}
			if !st.mode.IsRegular() { // replaced since it was listed
				e.Mode = record.ModeOther
				continue
			}
			e.Mode, e.Size, e.Stamp = record.ModeRegular, st.stamp.Size, st.stamp
			// The plan's lock is the owner's write bit (chmod u-w, -r--).
			e.ReadOnly = st.mode.Perm()&0o200 == 0
		}
		return nil
	}
	if len(files) < 512 {
		return stat(files)
	}
	half := len(files) / 2
	errc := make(chan error, 1)
	go func() { errc <- stat(files[half:]) }()
	err := stat(files[:half])
	if err2 := <-errc; err == nil {
		err = err2
	}
	return err
}
