//go:build unix

package gitstore

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/record"
)

const secretText = "TOP SECRET: must never be read through .yoi/\n"

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func TestWorktreeSnapshotYoiSymlink(t *testing.T) {
	tests := []struct {
		name   string
		target func(root string) string
	}{
		{"to a directory", func(root string) string { return filepath.Join(root, "elsewhere") }},
		{"relative, to a directory", func(string) string { return "elsewhere" }},
		{"dangling", func(root string) string { return filepath.Join(root, "nowhere") }},
		{"to a file", func(root string) string { return filepath.Join(root, "elsewhere", "config") }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newWorkspace(t)
			writeFile(t, root, "elsewhere/config", []byte(secretText), 0o644)
			writeFile(t, root, "elsewhere/knowledge/a.md", []byte(secretText), 0o644)
			symlink(t, tt.target(root), filepath.Join(root, ".yoi"))
			snap, err := WorktreeSnapshot(root, 0)
			if err == nil {
				t.Fatalf("WorktreeSnapshot with .yoi a symlink = %v, want an error", entryPaths(snap))
			}
			if errors.Is(err, ErrNoYoi) {
				t.Errorf("WorktreeSnapshot = %v; .yoi exists (as a symlink), so not ErrNoYoi", err)
			}
			if !strings.Contains(err.Error(), "symlink") {
				t.Errorf("error %q does not say .yoi is a symlink", err)
			}
			if snap.Entries != nil || snap.Read != nil {
				t.Errorf("WorktreeSnapshot returned %+v with its error", snap)
			}
		})
	}
}

// TestWorktreeSnapshotListing lists every kind of entry, symlinks and a FIFO
// included, and checks the whole listing.
func TestWorktreeSnapshotListing(t *testing.T) {
	root := newWorkspace(t)
	y := filepath.Join(root, ".yoi")
	secret := writeFile(t, root, "secret.txt", []byte(secretText), 0o644)
	writeFile(t, y, "config", []byte("version: 1\n"), 0o644)
	writeFile(t, y, "knowledge/a.md", []byte("# a\n"), 0o644)
	writeFile(t, y, "knowledge/locked.md", []byte("locked\n"), 0o444)
	writeFile(t, y, "knowledge/x.md/inner.md", []byte("inner\n"), 0o644)
	symlink(t, "../config", filepath.Join(y, "knowledge", "rel-link.md"))
	symlink(t, secret, filepath.Join(y, "knowledge", "abs-link.md"))
	symlink(t, "no-such.md", filepath.Join(y, "knowledge", "dangling.md"))
	symlink(t, "../knowledge", filepath.Join(y, "memory", "dir-link"))
	symlink(t, root, filepath.Join(y, "root-link"))
	if err := syscall.Mkfifo(filepath.Join(y, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(y, "knowledge", "fifo.md"), 0o444); err != nil {
		t.Fatal(err)
	}
	want := []record.Entry{
		{Path: "config", Mode: record.ModeRegular, Size: 11},
		{Path: "knowledge", Mode: record.ModeDir},
		{Path: "knowledge/a.md", Mode: record.ModeRegular, Size: 4},
		{Path: "knowledge/abs-link.md", Mode: record.ModeSymlink, Target: secret},
		{Path: "knowledge/dangling.md", Mode: record.ModeSymlink, Target: "no-such.md"},
		{Path: "knowledge/fifo.md", Mode: record.ModeOther},
		{Path: "knowledge/locked.md", Mode: record.ModeRegular, Size: 7, ReadOnly: true},
		{Path: "knowledge/rel-link.md", Mode: record.ModeSymlink, Target: "../config"},
		{Path: "knowledge/x.md", Mode: record.ModeDir},
		{Path: "knowledge/x.md/inner.md", Mode: record.ModeRegular, Size: 6},
		{Path: "memory", Mode: record.ModeDir},
		// Not followed: nothing is listed under dir-link or root-link.
		{Path: "memory/dir-link", Mode: record.ModeSymlink, Target: "../knowledge"},
		{Path: "pipe", Mode: record.ModeOther},
		{Path: "root-link", Mode: record.ModeSymlink, Target: root},
	}
	snap := mustSnapshot(t, root, 0)
	checkEntries(t, snap, want)
}

// TestWorktreeSnapshotReadSymlink reads paths that are symlinks: Read must
// fail (O_NOFOLLOW) and never return the target's bytes, wherever the link
// points.
func TestWorktreeSnapshotReadSymlink(t *testing.T) {
	root := newWorkspace(t)
	y := filepath.Join(root, ".yoi")
	secret := writeFile(t, root, "secret.txt", []byte(secretText), 0o644)
	writeFile(t, y, "config", []byte(secretText), 0o644)
	links := map[string]string{
		"knowledge/abs.md":     secret,
		"knowledge/rel.md":     "../../secret.txt",
		"knowledge/inside.md":  "../config", // inside .yoi/, still a symlink
		"knowledge/chain.md":   "abs.md",
		"knowledge/dir.md":     root,
		"knowledge/devnull.md": "/dev/null",
	}
	for p, target := range links {
		symlink(t, target, filepath.Join(y, filepath.FromSlash(p)))
	}
	for _, maxRead := range []int64{0, 10, 1 << 20} {
		snap := mustSnapshot(t, root, maxRead)
		for p := range links {
			if e := mustLookup(t, snap, p); e.Mode != record.ModeSymlink || e.Target != links[p] {
				t.Errorf("%s listed as %+v, want a symlink to %q", p, e, links[p])
			}
			got, err := snap.Read(p)
			if err == nil {
				t.Errorf("maxRead %d: Read(%q) of a symlink = %q, want an error", maxRead, p, got)
			}
			if got != nil {
				t.Errorf("maxRead %d: Read(%q) returned %q with its error", maxRead, p, got)
			}
			if !errors.Is(err, record.ErrNotExist) {
				t.Errorf("maxRead %d: Read(%q) = %v, want ErrNotExist (the listing says symlink)", maxRead, p, err)
			}
		}
	}
}

// TestWorktreeSnapshotReadSwappedForSymlink replaces a listed regular file
// by a symlink to a secret between the listing and the read.
func TestWorktreeSnapshotReadSwappedForSymlink(t *testing.T) {
	root := newWorkspace(t)
	y := filepath.Join(root, ".yoi")
	secret := writeFile(t, root, "secret.txt", []byte(secretText), 0o644)
	f := writeFile(t, y, "knowledge/a.md", []byte("# a\n"), 0o644)
	snap := mustSnapshot(t, root, 0)
	if e := mustLookup(t, snap, "knowledge/a.md"); e.Mode != record.ModeRegular {
		t.Fatalf("listed %+v, want regular", e)
	}
	if err := os.Remove(f); err != nil {
		t.Fatal(err)
	}
	symlink(t, secret, f)
	got, err := snap.Read("knowledge/a.md")
	if err == nil || bytes.Contains(got, []byte("SECRET")) {
		t.Errorf("Read after the file became a symlink = %q, %v; want an error and no bytes", got, err)
	}
}

// TestWorktreeSnapshotReadFIFO: a FIFO is listed as ModeOther and not read
// as a record, but a Read of it by mistake must not hang waiting for a
// writer.
func TestWorktreeSnapshotReadFIFO(t *testing.T) {
	root := newWorkspace(t)
	y := mkdirAll(t, root, ".yoi/knowledge")
	fifo := filepath.Join(y, "f.md")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	snap := mustSnapshot(t, root, 0)
	if e := mustLookup(t, snap, "knowledge/f.md"); e.Mode != record.ModeOther || e.Size != 0 {
		t.Errorf("FIFO listed as %+v, want ModeOther", e)
	}
	done := make(chan struct{})
	var got []byte
	go func() {
		defer close(done)
		got, _ = snap.Read("knowledge/f.md")
	}()
	select {
	case <-done:
		if len(got) != 0 {
			t.Errorf("Read of a FIFO without a writer = %q", got)
		}
	case <-time.After(30 * time.Second): // blocked, not slow
		// Unblock the reader so the test can end.
		if w, err := os.OpenFile(fifo, os.O_WRONLY, 0); err == nil {
			w.Close()
		}
		<-done
		t.Fatal("Read of a FIFO blocked")
	}
}

// TestWorktreeSnapshotReadThroughSymlinkedDir reads a path whose parent is a
// symlink to a directory outside .yoi/: an unlisted path below a symlinked
// directory, and a listed directory swapped for a symlink between the
// listing and the read. Neither may read outside .yoi/ (the listing refuses
// the first; openat2 with RESOLVE_NO_SYMLINKS the second).
func TestWorktreeSnapshotReadThroughSymlinkedDir(t *testing.T) {
	tests := []struct {
		name string
		// prepare makes the tree before the listing; swap changes it after.
		prepare func(t *testing.T, root, y string)
		swap    func(t *testing.T, root, y string)
		read    string
	}{
		{
			name: "unlisted path below a symlinked directory",
			prepare: func(t *testing.T, root, y string) {
				symlink(t, filepath.Join(root, "outside"), filepath.Join(y, "knowledge"))
			},
			swap: func(*testing.T, string, string) {},
			read: "knowledge/secret.md",
		},
		{
			name: "listed directory swapped for a symlink",
			prepare: func(t *testing.T, root, y string) {
				writeFile(t, y, "knowledge/secret.md", []byte("# harmless\n"), 0o644)
			},
			swap: func(t *testing.T, root, y string) {
				if err := os.Rename(filepath.Join(y, "knowledge"), filepath.Join(root, "old")); err != nil {
					t.Fatal(err)
				}
				symlink(t, filepath.Join(root, "outside"), filepath.Join(y, "knowledge"))
			},
			read: "knowledge/secret.md",
		},
	}
	var bugs []string
	for _, tt := range tests {
		root := newWorkspace(t)
		y := mkdirAll(t, root, ".yoi")
		writeFile(t, root, "outside/secret.md", []byte(secretText), 0o644)
		tt.prepare(t, root, y)
		snap := mustSnapshot(t, root, 0)
		tt.swap(t, root, y)
		got, err := snap.Read(tt.read)
		if err == nil || bytes.Contains(got, []byte("SECRET")) {
			bugs = append(bugs, tt.name+": Read("+tt.read+") returned "+strings.TrimSpace(string(got)))
		}
	}
	if len(bugs) == 0 {
		return
	}
	t.Fatal("Read follows symlinks in the parent directories of the path and reads outside .yoi/:\n\t" + strings.Join(bugs, "\n\t"))
}
