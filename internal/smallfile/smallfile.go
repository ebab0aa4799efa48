// Package smallfile reads the small files this tool keeps for itself
// (state, status, holder records, addresses) defensively: only a regular
// file (a FIFO in its place would block the reader for ever), and never
// more than a bound (a file grown huge is named, not read whole).
package smallfile

import (
	"fmt"
	"io"
	"os"

	"github.com/yoimem/git-yoimem/internal/quote"
)

// Read reads the regular file at path, at most max bytes. A missing
// file's error wraps os.ErrNotExist; one that is no regular file, or over
// max, is an error naming it.
func Read(path string, max int64) ([]byte, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file (%s)", path, fi.Mode().Type())
	}
	if fi.Size() > max {
		return nil, fmt.Errorf("%s is %s bytes, over the limit of %s", path, quote.Thousands(fi.Size()), quote.Thousands(max))
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%s grew over the limit of %s bytes while read", path, quote.Thousands(max))
	}
	return b, nil
}
