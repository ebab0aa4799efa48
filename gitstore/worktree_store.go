package gitstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/yoimem/git-yoimem/internal/atomicfile"
	"github.com/yoimem/git-yoimem/internal/lockfile"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
	"github.com/yoimem/git-yoimem/record"
)

// WorktreeStore is the memory tools' store in the working tree: it reads
// through WorktreeSnapshot and writes atomically under .yoi/, refusing any
// path whose directories are not plain directories inside .yoi/. Its
// writers' lock is an flock of LockFile, in the machine-local directory,
// which every git-yoimem process writing the workspace's records takes;
// within one process the store's own writers queue for it first. Use it
// by pointer; it must not be copied.
type WorktreeStore struct {
	Root     string // workspace root (holds .yoi/)
	LockFile string // the writers' lock, e.g. <git common dir>/yoimem/records.lock
	MaxRead  int64  // yoimem.lint.maxFileBytes (0: no limit)
	// LockWait bounds the wait for another process's lock (0: 30s);
	// ErrRecordsLocked past it.
	LockWait time.Duration
	// Shared is the repository's core.sharedRepository, read when the
	// lock file is created (nil: the umask's bits).
	Shared sharedperm.Source

	once  sync.Once
	queue chan struct{} // this store's writers: holding it is having sent to it
}

// ErrRecordsLocked means another process kept the writers' lock of the
// records longer than a write waits for it.
var ErrRecordsLocked = errors.New("another git-yoimem process is writing the memory records")

// Snapshot lists .yoi/ now.
func (s *WorktreeStore) Snapshot() (record.Snapshot, error) {
	return WorktreeSnapshot(s.Root, s.MaxRead)
}

// Lock takes the writers' lock: first this store's queue (no polling
// between the goroutines of one process), then the flock other processes
// take (internal/lockfile), polled until LockWait or ctx ends.
func (s *WorktreeStore) Lock(ctx context.Context) (func(), error) {
	s.once.Do(func() { s.queue = make(chan struct{}, 1) })
	select {
	case s.queue <- struct{}{}:
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for the writers' lock: %w", ctx.Err())
	}
	release := func() { <-s.queue }
	if s.LockFile == "" {
		release()
		return nil, errors.New("no lock file for the writers of .yoi/")
	}
	wait := s.LockWait
	if wait <= 0 {
		wait = 30 * time.Second
	}
	l := lockfile.New(s.LockFile, lockfile.Shared(s.Shared))
	if err := l.Acquire(ctx, wait); err != nil {
		release()
		switch {
		case ctx.Err() != nil:
			return nil, fmt.Errorf("wait for the writers' lock: %w", ctx.Err())
		case errors.Is(err, lockfile.ErrHeld):
			return nil, fmt.Errorf("%s: %w (waited %s)", s.LockFile, ErrRecordsLocked, wait)
		}
		return nil, err
	}
	return func() {
		_ = l.Unlock()
		release()
	}, nil
}

// Write replaces a file atomically, creating its directories, if it is
// still the version prev (its blob id; "" for no file). A file replaced
// keeps its permission bits (git tracks the executable bit, and an owner
// may have narrowed the others); a new one is 0644.
func (s *WorktreeStore) Write(rel string, content []byte, prev string) error {
	p, err := s.safePath(rel, true)
	if err != nil {
		return err
	}
	if err := s.check(p, rel, prev); err != nil {
		return err
	}
	perm := os.FileMode(0o644)
	if fi, err := os.Lstat(p); err == nil && fi.Mode().IsRegular() {
		perm = fi.Mode().Perm()
	}
	return atomicfile.Write(p, content, perm)
}

// Delete removes a file if it is still the version prev.
func (s *WorktreeStore) Delete(rel string, prev string) error {
	p, err := s.safePath(rel, false)
	if err != nil {
		return err
	}
	if err := s.check(p, rel, prev); err != nil {
		return err
	}
	if err := os.Remove(p); err != nil {
		return fmt.Errorf("delete %s: %w", rel, err)
	}
	return nil
}

// check refuses with record.ErrChanged when the file at p is not the
// version prev: written by a program that takes no lock (an editor) since
// the tool read it. A file now over the size limit is another version.
func (s *WorktreeStore) check(p, rel, prev string) error {
	b, err := readNoFollow(p, -1, s.MaxRead, nil)
	var tl *record.TooLargeError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		if prev == "" {
			return nil
		}
	case errors.As(err, &tl):
	case err != nil:
		return fmt.Errorf("read %s: %w", rel, err)
	case record.BlobID(b) == prev:
		return nil
	}
	return fmt.Errorf("%s: %w", rel, record.ErrChanged)
}

// safePath checks every directory from .yoi/ down is a real directory (no
// symlink can lead a write out of .yoi/), creating missing ones when asked.
func (s *WorktreeStore) safePath(rel string, create bool) (string, error) {
	if _, err := record.CleanRel(rel); err != nil {
		return "", err
	}
	dir := filepath.Join(s.Root, record.Dir)
	parts := strings.Split(rel, "/")
	for i := 0; i < len(parts); i++ {
		fi, err := os.Lstat(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist) && create && i > 0:
			if err := os.Mkdir(dir, 0o755); err != nil {
				return "", fmt.Errorf("create %s: %w", dir, err)
			}
		case err != nil:
			return "", fmt.Errorf("%s: %w", dir, err)
		case !fi.IsDir() || fi.Mode()&fs.ModeSymlink != 0:
			return "", fmt.Errorf("%s is not a directory inside .yoi/; refusing to write %s", dir, rel)
		}
		if i < len(parts)-1 {
			dir = filepath.Join(dir, parts[i])
		}
	}
	p := filepath.Join(dir, parts[len(parts)-1])
	if fi, err := os.Lstat(p); err == nil && !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file; refusing to write it", rel)
	}
	return p, nil
}
