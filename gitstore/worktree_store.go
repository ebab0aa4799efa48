package gitstore

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/yoimem/git-yoimem/internal/atomicfile"
	"github.com/yoimem/git-yoimem/record"
)

// WorktreeStore is the memory tools' store in the working tree: it reads
// through WorktreeSnapshot and writes atomically under .yoi/, refusing any
// path whose directories are not plain directories inside .yoi/.
type WorktreeStore struct {
	Root    string // workspace root (holds .yoi/)
	MaxRead int64
}

// Snapshot lists .yoi/ now.
func (s WorktreeStore) Snapshot() (record.Snapshot, error) {
	return WorktreeSnapshot(s.Root, s.MaxRead)
}

// Write replaces a file atomically, creating its directories.
func (s WorktreeStore) Write(rel string, content []byte) error {
	p, err := s.safePath(rel, true)
	if err != nil {
		return err
	}
	return atomicfile.Write(p, content, 0o644)
}

// Delete removes a file.
func (s WorktreeStore) Delete(rel string) error {
	p, err := s.safePath(rel, false)
	if err != nil {
		return err
	}
	if err := os.Remove(p); err != nil {
		return fmt.Errorf("delete %s: %w", rel, err)
	}
	return nil
}

// safePath checks every directory from .yoi/ down is a real directory (no
// symlink can lead a write out of .yoi/), creating missing ones when asked.
func (s WorktreeStore) safePath(rel string, create bool) (string, error) {
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
