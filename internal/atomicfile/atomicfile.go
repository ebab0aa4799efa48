// Package atomicfile writes files so that readers see the old content or
// the new, never a mix: a temporary file in the same directory, fsync,
// rename over the target, fsync of the directory.
package atomicfile

import (
	"fmt"
	"os"
	"path/filepath"
)

// Write replaces path with content atomically and durably.
func Write(path string, content []byte, perm os.FileMode) error {
	return write(path, content, perm, true)
}

// Replace replaces path with content atomically, without waiting for the
// disk: after a crash a reader sees the old content or the new, or (on
// some file systems) an empty file. For caches and other state that is
// rebuilt when lost.
func Replace(path string, content []byte, perm os.FileMode) error {
	return write(path, content, perm, false)
}

// WriteCreated replaces path with content atomically, durably or not,
// in a temporary file create makes in path's directory (pattern as
// os.CreateTemp takes it): the file keeps the bits create gave it, for
// files born the way git creates its own (the umask applying).
func WriteCreated(path string, content []byte, durable bool, create func(dir, pattern string) (*os.File, error)) error {
	return writeWith(path, content, durable, create, nil)
}

func write(path string, content []byte, perm os.FileMode, durable bool) error {
	return writeWith(path, content, durable, os.CreateTemp, &perm)
}

// writeWith is the write: the temporary file from create, chmod to perm
// when it is given.
func writeWith(path string, content []byte, durable bool, create func(dir, pattern string) (*os.File, error), perm *os.FileMode) (err error) {
	dir := filepath.Dir(path)
	f, err := create(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
	}()
	if _, err = f.Write(content); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if perm != nil {
		if err = f.Chmod(*perm); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if durable {
		if err = f.Sync(); err != nil {
			return fmt.Errorf("write %s: %w", path, err)
		}
	}
	if err = f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if err = os.Rename(tmp, path); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	if !durable {
		return nil
	}
	if d, derr := os.Open(dir); derr == nil {
		_ = d.Sync() // best effort: the rename is done
		d.Close()
	}
	return nil
}
