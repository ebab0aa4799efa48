//go:build !linux

package gitstore

import "os"

// direntsBuf is unused here: os.File.ReadDir has its own buffer.
const direntsBuf = 0

// readDirents reads the next entries of d through os.File.ReadDir.
func readDirents(d *os.File, _ []byte) ([]dirEntry, error) {
	des, err := d.ReadDir(256)
	out := make([]dirEntry, 0, len(des))
	for _, de := range des {
		out = append(out, dirEntry{name: de.Name(), mode: modeOfType(de.Type())})
	}
	return out, err
}
