//go:build unix

package gitstore

import (
	"fmt"
	"os"
	"syscall"
)

// mapIndex maps the index file read-only, as git does: no copy, and a
// fresh process faults its pages in by the dozen rather than one by one
// (1 MB for 10,000 entries). git replaces an index by renaming a new file
// over it, never by writing into it, so the mapping stays whole. release
// unmaps it; nothing may keep a slice of the data after that. Small files
// are read.
func mapIndex(file string) (data []byte, release func(), err error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	size := fi.Size()
	if !fi.Mode().IsRegular() || size < 64<<10 || size > 1<<40 {
		b, err := os.ReadFile(file)
		return b, func() {}, err
	}
	b, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	if err != nil {
		return nil, nil, fmt.Errorf("map %s: %w", file, err)
	}
	return b, func() { _ = syscall.Munmap(b) }, nil
}
