//go:build !unix

package gitstore

import (
	"io"
	"os"
)

// readNoFollow reads a file; off unix there is no O_NOFOLLOW, so the
// listing's symlink check is the guard.
func readNoFollow(path string, _, maxRead int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if maxRead > 0 {
		r = io.LimitReader(f, maxRead+1)
	}
	return io.ReadAll(r)
}
