//go:build unix

package gitstore

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/yoimem/git-yoimem/record"
)

// fileStat is what a listing keeps of a file's stat data.
type fileStat struct {
	mode  fs.FileMode
	stamp record.Stamp
}

// dirFD is the descriptor entries of d are stat'ed relative to.
func dirFD(d *os.File) int { return int(d.Fd()) }

// lstatAt stats a directory entry relative to its open directory without
// following a symlink.
func lstatAt(dfd int, _ string, name string) (fileStat, error) {
	return lstatName(dfd, name)
}

// lstatPath stats a path without following a symlink.
func lstatPath(path string) (fileStat, error) { return lstatName(unix.AT_FDCWD, path) }

func lstatName(dfd int, name string) (fileStat, error) {
	var st unix.Stat_t
	for {
		err := unix.Fstatat(dfd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return fileStat{}, err
		}
		break
	}
	stamp := record.Stamp{Size: st.Size, ModNs: st.Mtim.Nano(), ChangeNs: st.Ctim.Nano(), Ino: uint64(st.Ino)}
	return fileStat{mode: fileMode(uint32(st.Mode)), stamp: stamp}, nil
}

// fileMode maps st_mode's type and permission bits onto fs.FileMode as far
// as a listing cares: regular, directory, symlink, other.
func fileMode(m uint32) fs.FileMode {
	perm := fs.FileMode(m & 0o777)
	switch m & unix.S_IFMT {
	case unix.S_IFREG:
		return perm
	case unix.S_IFDIR:
		return perm | fs.ModeDir
	case unix.S_IFLNK:
		return perm | fs.ModeSymlink
	default:
		return perm | fs.ModeIrregular
	}
}
