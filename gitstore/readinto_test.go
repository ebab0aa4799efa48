package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// readIntoBuffers are the buffers a ReadInto is tried with: none, too
// small, large and full of old bytes.
func readIntoBuffers() map[string][]byte {
	junk := bytes.Repeat([]byte("old bytes "), 1<<12)
	return map[string][]byte{
		"nil":   nil,
		"small": make([]byte, 3, 4),
		"large": junk[:7],
	}
}

// TestWorktreeSnapshotReadInto: ReadFileInto reads what Read reads, with
// any buffer, reads into the buffer when it is large enough, and refuses
// what Read refuses (a file over maxRead with its real size, a path the
// listing does not hold as a regular file).
func TestWorktreeSnapshotReadInto(t *testing.T) {
	root := newWorkspace(t)
	y := filepath.Join(root, ".yoi")
	files := map[string][]byte{
		"knowledge/empty.md":      {},
		"knowledge/one.md":        []byte("\n"),
		"knowledge/no-newline.md": []byte("no trailing newline"),
		"knowledge/crlf.md":       []byte("---\r\ntitle: x\r\n---\r\nbody\r\n"),
		"knowledge/mid.md":        bytes.Repeat([]byte("record line\n"), 300),
		"knowledge/big.md":        bytes.Repeat([]byte("0123456789abcdef\n"), 1<<13),
	}
	for p, c := range files {
		writeFile(t, y, p, c, 0o644)
	}
	writeFile(t, y, "knowledge/dir.md/inner.md", []byte("x"), 0o644)
	for _, maxRead := range []int64{0, 1 << 20, 4000} {
		snap := mustSnapshot(t, root, maxRead)
		for name, buf := range readIntoBuffers() {
			t.Run(fmt.Sprintf("maxRead=%d,buf=%s", maxRead, name), func(t *testing.T) {
				for p, c := range files {
					got, err := snap.ReadFileInto(p, buf)
					if maxRead > 0 && int64(len(c)) > maxRead {
						checkTooLarge(t, got, err, p, int64(len(c)), maxRead)
						continue
					}
					if err != nil || !bytes.Equal(got, c) {
						t.Fatalf("ReadFileInto(%q) = %d bytes, %v; want %d bytes", p, len(got), err, len(c))
					}
					if len(c) > 0 && len(c) < cap(buf) && &got[0] != &buf[:1][0] {
						t.Errorf("ReadFileInto(%q) did not read into the %d-byte buffer it was given", p, cap(buf))
					}
				}
				for _, p := range []string{"knowledge/missing.md", "knowledge/dir.md", "../secret"} {
					if got, err := snap.ReadFileInto(p, buf); err == nil || got != nil {
						t.Errorf("ReadFileInto(%q) = %q, %v; want an error and no bytes", p, got, err)
					}
				}
				if _, err := snap.ReadFileInto("knowledge/missing.md", buf); !errors.Is(err, record.ErrNotExist) {
					t.Errorf("ReadFileInto of an unlisted path: %v, want record.ErrNotExist", err)
				}
			})
		}
	}
}

// TestWorktreeSnapshotReadIntoChanged: a file that grew or shrank after
// the listing is read whole into a buffer, or refused past maxRead with
// the size it has now.
func TestWorktreeSnapshotReadIntoChanged(t *testing.T) {
	tests := []struct {
		name    string
		before  string
		after   []byte
		maxRead int64
	}{
		{"grew", "0123456789", bytes.Repeat([]byte("more\n"), 1000), 0},
		{"grew by one byte", "0123456789", []byte("0123456789!"), 1 << 20},
		{"grew past maxRead", "0123456789", bytes.Repeat([]byte("x"), 500), 100},
		{"shrank", "long line\nlong line\n", []byte("short"), 1 << 20},
	}
	for _, tt := range tests {
		for name, buf := range readIntoBuffers() {
			t.Run(tt.name+","+name, func(t *testing.T) {
				root := newWorkspace(t)
				y := mkdirAll(t, root, ".yoi/knowledge")
				path := writeFile(t, y, "f.md", []byte(tt.before), 0o644)
				snap := mustSnapshot(t, root, tt.maxRead)
				if err := os.WriteFile(path, tt.after, 0o644); err != nil {
					t.Fatal(err)
				}
				got, err := snap.ReadFileInto("knowledge/f.md", buf)
				if tt.maxRead > 0 && int64(len(tt.after)) > tt.maxRead {
					checkTooLarge(t, got, err, "knowledge/f.md", int64(len(tt.after)), tt.maxRead)
					return
				}
				if err != nil || !bytes.Equal(got, tt.after) {
					t.Fatalf("ReadFileInto = %d bytes %.20q, %v; want %d bytes", len(got), got, err, len(tt.after))
				}
			})
		}
	}
}
