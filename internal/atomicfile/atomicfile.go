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

func write(path string, content []byte, perm os.FileMode, durable bool) (err error) {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
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
	if err = f.Chmod(perm); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
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
