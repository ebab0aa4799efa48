//go:build linux

package gitstore

import (
	"encoding/binary"
	"errors"
	"io"
	"os"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/yoimem/git-yoimem/record"
)

// dirent64 lays out one linux_dirent64 record as the kernel does, padded
// to eight bytes.
func dirent64(name string, typ byte) []byte {
	n := (19 + len(name) + 1 + 7) &^ 7
	b := make([]byte, n)
	binary.NativeEndian.PutUint64(b, 1)
	binary.NativeEndian.PutUint16(b[16:], uint16(n))
	b[18] = typ
	copy(b[19:], name)
	return b
}

// TestParseDirents: names and types as getdents64 gives them; "." and
// ".." left out; an entry without a type is stat'ed (and one gone since
// left out); a record that overruns the buffer is an error, not a read
// past it.
func TestParseDirents(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "u.md", []byte("u\n"), 0o644)
	if err := os.Mkdir(dir+"/ud", 0o755); err != nil {
		t.Fatal(err)
	}
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	var buf []byte
	for _, e := range []struct {
		name string
		typ  byte
	}{{".", unix.DT_DIR}, {"..", unix.DT_DIR}, {"a.md", unix.DT_REG}, {"sub", unix.DT_DIR}, {"l", unix.DT_LNK}, {"f", unix.DT_FIFO}, {"u.md", unix.DT_UNKNOWN}, {"ud", unix.DT_UNKNOWN}, {"gone", unix.DT_UNKNOWN}} {
		buf = append(buf, dirent64(e.name, e.typ)...)
	}
	got, err := parseDirents(int(d.Fd()), buf)
	if err != nil {
		t.Fatal(err)
	}
	want := []dirEntry{{"a.md", record.ModeRegular}, {"sub", record.ModeDir}, {"l", record.ModeSymlink}, {"f", record.ModeOther}, {"u.md", record.ModeRegular}, {"ud", record.ModeDir}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("parseDirents = %+v, want %+v", got, want)
	}
	if des, err := parseDirents(int(d.Fd()), append(dirent64(".", unix.DT_DIR), dirent64("..", unix.DT_DIR)...)); len(des) != 0 || err != nil {
		t.Errorf("only dots: %+v, %v", des, err)
	}
	bad := dirent64("a.md", unix.DT_REG)
	binary.NativeEndian.PutUint16(bad[16:], uint16(len(bad)+8))
	if _, err := parseDirents(int(d.Fd()), bad); !errors.Is(err, errBadDirent) {
		t.Errorf("overrunning record: %v, want %v", err, errBadDirent)
	}
	if _, err := parseDirents(int(d.Fd()), bad[:10]); !errors.Is(err, errBadDirent) {
		t.Errorf("short record: %v, want %v", err, errBadDirent)
	}
}

// TestReadDirentsMany: a directory larger than one read buffer is listed
// whole, every name once, as os.ReadDir lists it.
func TestReadDirentsMany(t *testing.T) {
	dir := t.TempDir()
	var want []string
	for i := range 3000 {
		name := "record-with-a-longish-name-" + strconv.Itoa(i) + ".md"
		writeFile(t, dir, name, nil, 0o644)
		want = append(want, name)
	}
	sort.Strings(want)
	d, err := os.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	buf := make([]byte, direntsBuf)
	var got []string
	reads := 0
	for {
		des, err := readDirents(d, buf)
		for _, de := range des {
			got = append(got, strings.Clone(de.name)) // the name aliases buf
			if de.mode != record.ModeRegular {
				t.Errorf("%s: mode %v", de.name, de.mode)
			}
		}
		reads++
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if reads < 3 {
		t.Errorf("listed in %d reads; the test wants a directory larger than the buffer", reads)
	}
	sort.Strings(got)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("listed %d names, want %d", len(got), len(want))
	}
}
