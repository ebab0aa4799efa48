//go:build !unix

package gitstore

import "os"

// mapIndex reads the index file (mapped on unix).
func mapIndex(file string) (data []byte, release func(), err error) {
	b, err := os.ReadFile(file)
	return b, func() {}, err
}
