package handler

import (
	"fmt"
	"io"
	"os"

	"github.com/yoimem/git-yoimem/internal/quote"
)

// maxStateBytes bounds a status file or a pending job: ours are a few
// hundred bytes; anything far larger is not ours to read whole.
const maxStateBytes = 1 << 20

// readStateFile reads one of the run's own small files: a regular file
// (a FIFO would block the reader for ever), at most maxStateBytes. A
// missing file's error wraps os.ErrNotExist.
func readStateFile(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", path, fi.Mode().Type())
	}
	if fi.Size() > maxStateBytes {
		return nil, fmt.Errorf("%s is %s bytes, over the limit of %s for the background run's files", path, quote.Thousands(fi.Size()), quote.Thousands(maxStateBytes))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxStateBytes+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if len(b) > maxStateBytes {
		return nil, fmt.Errorf("%s grew over the limit of %s bytes while read", path, quote.Thousands(maxStateBytes))
	}
	return b, nil
}
