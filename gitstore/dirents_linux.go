//go:build linux

package gitstore

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/yoimem/git-yoimem/record"
)

// direntsBuf is the buffer one getdents64 call fills: about 650 names of
// records. os.File.ReadDir reads 8 KiB at a time and makes a value per
// entry; listing knowledge/ took twice as long through it.
const direntsBuf = 32 << 10

// readDirents reads the next entries of d with getdents64 calls into buf.
// The names alias buf: they are used before the next call. io.EOF ends
// the directory. A call that gives only "." and ".." (ext4 may answer
// with them alone) is followed by another: no entries means the end.
func readDirents(d *os.File, buf []byte) ([]dirEntry, error) {
	fd := int(d.Fd())
	for {
		n, err := unix.Getdents(fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if n == 0 {
			return nil, io.EOF
		}
		if des, err := parseDirents(fd, buf[:n]); len(des) > 0 || err != nil {
			return des, err
		}
	}
}

// errBadDirent is a getdents64 answer that does not parse: never expected
// from the kernel, but never read past either.
var errBadDirent = errors.New("malformed directory entry")

// parseDirents reads linux_dirent64 records: inode (8 bytes), offset (8),
// record length (2), type (1), then the name, NUL-terminated and padded.
// A file system that gives no type (DT_UNKNOWN) has the entry stat'ed
// relative to dfd, as os.File.ReadDir does.
func parseDirents(dfd int, b []byte) ([]dirEntry, error) {
	const nameAt = 19
	out := make([]dirEntry, 0, len(b)/32)
	for len(b) > 0 {
		if len(b) < nameAt {
			return out, errBadDirent
		}
		reclen := int(binary.NativeEndian.Uint16(b[16:18]))
		if reclen < nameAt || reclen > len(b) {
			return out, errBadDirent
		}
		typ, name := b[18], b[nameAt:reclen]
		if i := bytes.IndexByte(name, 0); i >= 0 {
			name = name[:i]
		}
		b = b[reclen:]
		if len(name) == 0 || string(name) == "." || string(name) == ".." {
			continue
		}
		e := dirEntry{name: unsafe.String(&name[0], len(name)), mode: modeOfDT(typ)}
		if typ == unix.DT_UNKNOWN {
			st, err := lstatName(dfd, e.name)
			if errors.Is(err, unix.ENOENT) {
				continue // removed since it was read
			}
			if err != nil {
				return out, err
			}
			e.mode = modeOfType(st.mode)
		}
		out = append(out, e)
	}
	return out, nil
}

// modeOfDT is the listing's mode of a getdents64 type.
func modeOfDT(t byte) record.Mode {
	switch t {
	case unix.DT_REG:
		return record.ModeRegular
	case unix.DT_DIR:
		return record.ModeDir
	case unix.DT_LNK:
		return record.ModeSymlink
	}
	return record.ModeOther
}
