//go:build !unix

package gitstore

import (
	"io/fs"
	"os"
	"path/filepath"

	"github.com/yoimem/git-yoimem/record"
)

// stampOf is the stat data a cache validates a file against; without a
// change time only size and modification time are known.
func stampOf(info fs.FileInfo) record.Stamp {
	return record.Stamp{Size: info.Size(), ModNs: info.ModTime().UnixNano()}
}

// fileStat is what a listing keeps of a file's stat data.
type fileStat struct {
	mode  fs.FileMode
	stamp record.Stamp
}

func dirFD(*os.File) int { return -1 }

// lstatAt stats a directory entry by path without following a symlink.
func lstatAt(_ int, dir string, name string) (fileStat, error) {
	return lstatPath(filepath.Join(dir, name))
}

// lstatPath stats a path without following a symlink.
func lstatPath(path string) (fileStat, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		return fileStat{}, err
	}
	return fileStat{mode: fi.Mode(), stamp: stampOf(fi)}, nil
}
