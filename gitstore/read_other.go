//go:build !unix

package gitstore

import (
	"io"
	"os"
)

// readNoFollow reads a file; off unix there is no O_NOFOLLOW, so the
// listing's symlink check is the guard. A file over maxRead (when > 0) is
// refused with a *record.TooLargeError holding its real size. It reads
// into new memory whatever buf is.
func readNoFollow(path string, _, maxRead int64, _ []byte) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if maxRead <= 0 {
		return io.ReadAll(f)
	}
	b, err := io.ReadAll(io.LimitReader(f, maxRead+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > maxRead {
		size := int64(len(b))
		if fi, err := f.Stat(); err == nil && fi.Size() > size {
			size = fi.Size()
		}
		return nil, tooLarge(size, maxRead)
	}
	return b, nil
}
