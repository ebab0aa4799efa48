//go:build !unix

package catcache

import (
	"io"
	"os"
)

// readFile reads a file and its modification time.
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
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, 0, err
	}
	return data, fi.ModTime().UnixNano(), nil
}
