//go:build unix

package catcache

import (
	"os"
	"syscall"
)

// readFile maps a cache file into memory and returns its bytes and
// modification time. Mapping spares copying megabytes of lowered text
// that a search mostly only scans. The mapping is never undone: examined
// texts alias it for the life of the process. Writers only ever replace
// the file by rename, so the mapped inode is never truncated under us.
func readFile(path string) ([]byte, int64, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	size := fi.Size()
	if size == 0 || size != int64(int(size)) {
		return nil, fi.ModTime().UnixNano(), nil // empty or absurd: rebuilt
	}
	data, err := syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, mapFlags)
	if err != nil {
		return nil, 0, err
	}
	return data, fi.ModTime().UnixNano(), nil
}
