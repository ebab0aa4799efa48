package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// newWorkspace returns a fresh directory to hold a .yoi/ (no repository is
// needed: WorktreeSnapshot only reads the file system).
func newWorkspace(t testing.TB) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return root
}

func mustSnapshot(t testing.TB, root string, maxRead int64) record.Snapshot {
	t.Helper()
	snap, err := WorktreeSnapshot(root, maxRead)
	if err != nil {
		t.Fatalf("WorktreeSnapshot(%q, %d): %v", root, maxRead, err)
	}
	if snap.Read == nil {
		t.Fatal("WorktreeSnapshot returned a snapshot without Read")
	}
	return snap
}

func mustLookup(t testing.TB, snap record.Snapshot, rel string) record.Entry {
	t.Helper()
	e, ok := snap.Lookup(rel)
	if !ok {
		t.Fatalf("%s not in snapshot; entries: %v", rel, entryPaths(snap))
	}
	return e
}

func entryPaths(snap record.Snapshot) []string {
	var ps []string
	for _, e := range snap.Entries {
		ps = append(ps, e.Path)
	}
	return ps
}

func TestWorktreeSnapshotNoYoi(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T) string // returns root
	}{
		{"empty workspace", func(t *testing.T) string { return newWorkspace(t) }},
		{"root does not exist", func(t *testing.T) string { return filepath.Join(newWorkspace(t), "gone") }},
		{"only a similar name", func(t *testing.T) string {
			root := newWorkspace(t)
			mkdirAll(t, root, ".yoi.old/knowledge")
			mkdirAll(t, root, "sub/.yoi")
			return root
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := tt.setup(t)
			snap, err := WorktreeSnapshot(root, 0)
			if !errors.Is(err, ErrNoYoi) {
				t.Fatalf("WorktreeSnapshot = %v, want ErrNoYoi", err)
			}
			if snap.Entries != nil || snap.Read != nil {
				t.Errorf("WorktreeSnapshot returned %+v with its error, want the zero Snapshot", snap)
			}
		})
	}
}

func TestWorktreeSnapshotYoiNotADirectory(t *testing.T) {
	root := newWorkspace(t)
	writeFile(t, root, ".yoi", []byte("not a directory\n"), 0o644)
	snap, err := WorktreeSnapshot(root, 0)
	if err == nil {
		t.Fatalf("WorktreeSnapshot with .yoi a file = %+v, want an error", snap)
	}
	if errors.Is(err, ErrNoYoi) {
		t.Errorf("WorktreeSnapshot with .yoi a file = %v; it exists, so not ErrNoYoi", err)
	}
	if !strings.Contains(err.Error(), "not a directory") {
		t.Errorf("error %q does not say .yoi is not a directory", err)
	}
}

func TestWorktreeSnapshotEmpty(t *testing.T) {
	root := newWorkspace(t)
	mkdirAll(t, root, ".yoi")
	snap := mustSnapshot(t, root, 0)
	if len(snap.Entries) != 0 {
		t.Errorf("entries of an empty .yoi = %v, want none", entryPaths(snap))
	}
}

// TestWorktreeSnapshotListingPortable covers what does not need symlinks:
// order, modes of files and directories, sizes, and a directory named like a
// record.
func TestWorktreeSnapshotListingPortable(t *testing.T) {
	root := newWorkspace(t)
	y := filepath.Join(root, ".yoi")
	files := map[string]string{
		"config":                     "version: 1\n",
		"Zeta.md":                    "upper case sorts first\n",
		"a-b":                        "-",
		"a.md":                       "dot",
		"a/x":                        "slash",
		"knowledge/k.md":             "# k\n",
		"knowledge/x.md/inner.md":    "inside a directory named like a record\n",
		"knowledge/x.md/deeper/z.md": "z",
	}
	for p, c := range files {
		writeFile(t, y, p, []byte(c), 0o644)
	}
	mkdirAll(t, y, "memory/_staging")
	want := []record.Entry{
		{Path: "Zeta.md", Size: 23},
		{Path: "a", Mode: record.ModeDir},
		{Path: "a-b", Size: 1},
		{Path: "a.md", Size: 3},
		{Path: "a/x", Size: 5},
		{Path: "config", Size: 11},
		{Path: "knowledge", Mode: record.ModeDir},
		{Path: "knowledge/k.md", Size: 4},
		{Path: "knowledge/x.md", Mode: record.ModeDir},
		{Path: "knowledge/x.md/deeper", Mode: record.ModeDir},
		{Path: "knowledge/x.md/deeper/z.md", Size: 1},
		{Path: "knowledge/x.md/inner.md", Size: 39},
		{Path: "memory", Mode: record.ModeDir},
		{Path: "memory/_staging", Mode: record.ModeDir},
	}
	snap := mustSnapshot(t, root, 0)
	checkEntries(t, snap, want)
	for p, c := range files {
		got, err := snap.Read(p)
		if err != nil || string(got) != c {
			t.Errorf("Read(%q) = %q, %v; want %q", p, got, err, c)
		}
	}
}

// checkEntries compares the listing with want and checks that Lookup finds
// every entry (it needs the entries sorted).
func checkEntries(t *testing.T, snap record.Snapshot, want []record.Entry) {
	t.Helper()
	n := max(len(snap.Entries), len(want))
	for i := range n {
		var got, w record.Entry
		if i < len(snap.Entries) {
			got = snap.Entries[i]
			// A regular file's stamp is its stat data: the size must
			// agree; the times and inode cannot be known in advance.
			if got.Mode == record.ModeRegular && (got.Stamp.Size != got.Size || got.Stamp.ModNs == 0 || got.Stamp.Ino == 0) {
				t.Errorf("entry %d %s: stamp %+v does not describe the file", i, got.Path, got.Stamp)
			}
			got.Stamp = record.Stamp{}
		}
		if i < len(want) {
			w = want[i]
		}
		if got != w {
			t.Errorf("entry %d = %+v, want %+v", i, got, w)
		}
	}
	for _, e := range snap.Entries {
		if got, ok := snap.Lookup(e.Path); !ok || got != e {
			t.Errorf("Lookup(%q) = %+v, %v; want %+v", e.Path, got, ok, e)
		}
	}
}

func TestWorktreeSnapshotReadOnly(t *testing.T) {
	root := newWorkspace(t)
	y := filepath.Join(root, ".yoi")
	perms := []struct {
		perm os.FileMode
		want bool
	}{
		{0o644, false},
		{0o600, false},
		{0o666, false},
		{0o200, false}, // writable, not readable: not read-only
		{0o444, true},
		{0o400, true},
		{0o555, true},
		{0o000, true},
	}
	for _, p := range perms {
		writeFile(t, y, fmt.Sprintf("knowledge/p%03o.md", p.perm), []byte("x"), p.perm)
	}
	// ReadOnly comes from the permission bits, not from access(2): it holds
	// when the tests run as root too.
	snap := mustSnapshot(t, root, 0)
	for _, p := range perms {
		e := mustLookup(t, snap, fmt.Sprintf("knowledge/p%03o.md", p.perm))
		if e.ReadOnly != p.want || e.Mode != record.ModeRegular || e.Size != 1 {
			t.Errorf("%s (mode %03o): ReadOnly=%v Mode=%v Size=%d, want ReadOnly=%v, regular, 1 byte",
				e.Path, p.perm, e.ReadOnly, e.Mode, e.Size, p.want)
		}
	}
	if e := mustLookup(t, snap, "knowledge"); e.ReadOnly {
		t.Errorf("directory knowledge is ReadOnly")
	}
}

func TestWorktreeSnapshotReadContent(t *testing.T) {
	root := newWorkspace(t)
	y := filepath.Join(root, ".yoi")
	big := bytes.Repeat([]byte("0123456789abcdef\n"), 1<<14) // 272 KiB
	binary := []byte{0, 1, 2, 0xff, 0xfe, '\r', '\n', 0, '\r'}
	files := map[string][]byte{
		"knowledge/crlf.md":        []byte("---\r\ntitle: x\r\n---\r\nbody\r\n"),
		"knowledge/no-newline.md":  []byte("no trailing newline"),
		"knowledge/empty.md":       {},
		"knowledge/one-byte.md":    []byte("\n"),
		"knowledge/utf8 name é.md": []byte("ünïcödé\n"),
		"knowledge/binary":         binary,
		"knowledge/big.md":         big,
		"knowledge/x.md/inner.md":  []byte("in a directory named like a record\n"),
	}
	for p, c := range files {
		writeFile(t, y, p, c, 0o644)
	}
	for _, maxRead := range []int64{0, 1 << 20} {
		t.Run(fmt.Sprintf("maxRead=%d", maxRead), func(t *testing.T) {
			snap := mustSnapshot(t, root, maxRead)
			for p, c := range files {
				e := mustLookup(t, snap, p)
				if e.Mode != record.ModeRegular || e.Size != int64(len(c)) {
					t.Errorf("%s: Mode=%v Size=%d, want regular, %d bytes", p, e.Mode, e.Size, len(c))
				}
				got, err := snap.Read(p)
				if err != nil {
					t.Errorf("Read(%q): %v", p, err)
					continue
				}
				if !bytes.Equal(got, c) {
					t.Errorf("Read(%q) = %d bytes %.40q, want %d bytes %.40q", p, len(got), got, len(c), c)
				}
			}
		})
	}
}

// TestWorktreeSnapshotReadConcurrent reads every file from many goroutines
// at once (Snapshot.Read must be safe for concurrent use; run with -race).
func TestWorktreeSnapshotReadConcurrent(t *testing.T) {
	root := newWorkspace(t)
	y := filepath.Join(root, ".yoi")
	want := map[string]string{}
	for i := range 64 {
		p := fmt.Sprintf("knowledge/k%02d.md", i)
		want[p] = strings.Repeat(fmt.Sprintf("line %d\n", i), i)
		writeFile(t, y, p, []byte(want[p]), 0o644)
	}
	snap := mustSnapshot(t, root, 4096)
	var wg sync.WaitGroup
	errs := make(chan error, 8*len(want))
	for range 8 {
		wg.Go(func() {
			for _, e := range snap.Entries {
				if e.Mode != record.ModeRegular {
					continue
				}
				got, err := snap.Read(e.Path)
				if err != nil || string(got) != want[e.Path] {
					errs <- fmt.Errorf("Read(%q) = %q, %v", e.Path, got, err)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestWorktreeSnapshotReadRefused(t *testing.T) {
	root := newWorkspace(t)
	y := filepath.Join(root, ".yoi")
	writeFile(t, y, "config", []byte("inside\n"), 0o644)
	writeFile(t, y, "knowledge/a.md", []byte("inside\n"), 0o644)
	secret := writeFile(t, root, "secret", []byte("TOP SECRET\n"), 0o644)
	snap := mustSnapshot(t, root, 0)
	for _, p := range []string{
		"../secret",
		"knowledge/../../secret",
		"knowledge/../config", // stays inside, but any .. is refused
		"..",
		"./config",
		"knowledge//a.md",
		"knowledge/a.md/",
		`knowledge\a.md`,
		"/config",
		secret,
		"",
		".",
		"config\x00",
	} {
		got, err := snap.Read(p)
		if err == nil {
			t.Errorf("Read(%q) = %q, want an error", p, got)
		}
		if got != nil {
			t.Errorf("Read(%q) returned %q with its error", p, got)
		}
	}
}

func TestWorktreeSnapshotReadNotRegular(t *testing.T) {
	root := newWorkspace(t)
	y := filepath.Join(root, ".yoi")
	writeFile(t, y, "knowledge/x.md/inner.md", []byte("x"), 0o644)
	snap := mustSnapshot(t, root, 0)
	if e := mustLookup(t, snap, "knowledge/x.md"); e.Mode != record.ModeDir {
		t.Fatalf("knowledge/x.md: Mode=%v, want ModeDir", e.Mode)
	}
	for _, p := range []string{"knowledge", "knowledge/x.md"} {
		if got, err := snap.Read(p); err == nil {
			t.Errorf("Read(%q) of a directory = %q, want an error", p, got)
		}
	}
	for _, p := range []string{"knowledge/missing.md", "missing/a.md", "knowledge/x.md/inner.md/more"} {
		got, err := snap.Read(p)
		if p == "knowledge/x.md/inner.md/more" {
			if err == nil {
				t.Errorf("Read(%q) = %q, want an error", p, got)
			}
			continue
		}
		if !errors.Is(err, record.ErrNotExist) {
			t.Errorf("Read(%q) = %q, %v; want record.ErrNotExist", p, got, err)
		}
	}
}

func TestWorktreeSnapshotMaxRead(t *testing.T) {
	content := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = 'a' + byte(i%26)
		}
		return b
	}
	tests := []struct {
		size    int
		maxRead int64
		over    bool // Read refuses the file: over maxRead
	}{
		{10 << 10, 100, true},
		{0, 100, false},
		{99, 100, false},
		{100, 100, false},
		{101, 100, true},
		{102, 100, true},
		{10, 1, true},
		{1, 1, false},
		{10 << 10, 0, false}, // no cap
		{1 << 20, 64 << 10, true},
		{10 << 10, 1 << 20, false},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprintf("size=%d,maxRead=%d", tt.size, tt.maxRead), func(t *testing.T) {
			root := newWorkspace(t)
			c := content(tt.size)
			writeFile(t, root, ".yoi/knowledge/f.md", c, 0o644)
			snap := mustSnapshot(t, root, tt.maxRead)
			if e := mustLookup(t, snap, "knowledge/f.md"); e.Size != int64(tt.size) {
				t.Errorf("Size = %d, want %d (the listing is not capped)", e.Size, tt.size)
			}
			got, err := snap.Read("knowledge/f.md")
			if tt.over {
				checkTooLarge(t, got, err, "knowledge/f.md", int64(tt.size), tt.maxRead)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, c) {
				t.Errorf("Read = %d bytes, want all %d", len(got), tt.size)
			}
		})
	}
}

// checkTooLarge checks that a read was refused, never cut: a
// *record.TooLargeError with the real size and the limit, and no content.
func checkTooLarge(t *testing.T, got []byte, err error, path string, size, limit int64) {
	t.Helper()
	var tl *record.TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("Read = %d bytes, %v; want a *record.TooLargeError", len(got), err)
	}
	if got != nil {
		t.Errorf("Read returned %d bytes with its error", len(got))
	}
	if tl.Path != path || tl.Size != size || tl.Limit != limit || tl.Setting != "yoimem.lint.maxFileBytes" {
		t.Errorf("error %+v; want path %s, size %d, limit %d, setting yoimem.lint.maxFileBytes", *tl, path, size, limit)
	}
}

// TestWorktreeSnapshotChangedAfterListing changes files between the listing
// and the read: Read returns what the file holds when it is read.
func TestWorktreeSnapshotChangedAfterListing(t *testing.T) {
	const p = "knowledge/f.md"
	rep := func(s string, n int) []byte { return bytes.Repeat([]byte(s), n) }
	tests := []struct {
		name    string
		before  []byte // nil: the file does not exist when listed
		maxRead int64
		change  func(t *testing.T, path string)
		want    []byte
		wantErr error
		tooBig  int64 // the size a refusal names: the file grew past maxRead
	}{
		{
			name:   "grew",
			before: []byte("0123456789"),
			change: func(t *testing.T, path string) { appendFile(t, path, rep("more\n", 1000)) },
			want:   append([]byte("0123456789"), rep("more\n", 1000)...),
		},
		{
			name:    "grew, under maxRead",
			before:  []byte("0123456789"),
			maxRead: 1 << 20,
			change:  func(t *testing.T, path string) { appendFile(t, path, rep("more\n", 1000)) },
			want:    append([]byte("0123456789"), rep("more\n", 1000)...),
		},
		{
			name:    "grew by one byte",
			before:  []byte("0123456789"),
			maxRead: 1 << 20,
			change:  func(t *testing.T, path string) { appendFile(t, path, []byte("!")) },
			want:    []byte("0123456789!"),
		},
		{
			name:    "grew past maxRead",
			before:  []byte("0123456789"),
			maxRead: 100,
			change:  func(t *testing.T, path string) { appendFile(t, path, rep("x", 500)) },
			tooBig:  510,
		},
		{
			name:    "grew far past maxRead",
			before:  []byte("0123456789"),
			maxRead: 4096,
			change:  func(t *testing.T, path string) { appendFile(t, path, rep("z", 1<<20)) },
			tooBig:  10 + 1<<20,
		},
		{
			name:    "empty when listed, grew past maxRead",
			before:  []byte{},
			maxRead: 100,
			change:  func(t *testing.T, path string) { appendFile(t, path, rep("z", 1000)) },
			tooBig:  1000,
		},
		{
			name:   "empty when listed",
			before: []byte{},
			change: func(t *testing.T, path string) { appendFile(t, path, []byte("now something\n")) },
			want:   []byte("now something\n"),
		},
		{
			name:    "shrank",
			before:  rep("long line\n", 1000),
			maxRead: 1 << 20,
			change:  func(t *testing.T, path string) { writeAt(t, path, []byte("short")) },
			want:    []byte("short"),
		},
		{
			name:   "truncated to empty",
			before: rep("long line\n", 10),
			change: func(t *testing.T, path string) { writeAt(t, path, nil) },
			want:   []byte{},
		},
		{
			name:   "rewritten, same size",
			before: []byte("aaaa"),
			change: func(t *testing.T, path string) { writeAt(t, path, []byte("bbbb")) },
			want:   []byte("bbbb"),
		},
		{
			name:   "replaced by rename",
			before: []byte("old\n"),
			change: func(t *testing.T, path string) {
				tmp := path + ".tmp"
				if err := os.WriteFile(tmp, []byte("new content\n"), 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Rename(tmp, path); err != nil {
					t.Fatal(err)
				}
			},
			want: []byte("new content\n"),
		},
		{
			name:    "removed",
			before:  []byte("gone\n"),
			change:  func(t *testing.T, path string) { os.Remove(path) },
			wantErr: record.ErrNotExist,
		},
		{
			// Read holds to the listing: a path it does not list is not read.
			name:    "created after listing",
			maxRead: 100,
			change:  func(t *testing.T, path string) { writeFile(t, filepath.Dir(path), "f.md", rep("y", 1000), 0o644) },
			wantErr: record.ErrNotExist,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := newWorkspace(t)
			y := mkdirAll(t, root, ".yoi/knowledge")
			path := filepath.Join(y, "f.md")
			if tt.before != nil {
				writeFile(t, y, "f.md", tt.before, 0o644)
			}
			snap := mustSnapshot(t, root, tt.maxRead)
			if e, ok := snap.Lookup(p); tt.before != nil && (!ok || e.Size != int64(len(tt.before))) {
				t.Fatalf("listed %+v, %v; want %d bytes", e, ok, len(tt.before))
			}
			tt.change(t, path)
			got, err := snap.Read(p)
			if tt.tooBig > 0 {
				checkTooLarge(t, got, err, p, tt.tooBig, tt.maxRead)
				return
			}
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Errorf("Read = %q, %v; want %v", got, err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, tt.want) {
				t.Errorf("Read = %d bytes %.40q, want %d bytes %.40q", len(got), got, len(tt.want), tt.want)
			}
		})
	}
}

func appendFile(t *testing.T, path string, b []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// writeAt truncates the file in place (same inode) and writes b.
func writeAt(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// BenchmarkWorktreeSnapshotRead lists a .yoi/ of 2,000 small records and
// reads every one, as lint does.
func BenchmarkWorktreeSnapshotRead(b *testing.B) {
	root, err := filepath.EvalSymlinks(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	y := filepath.Join(root, ".yoi")
	dirs := []string{"knowledge", "memory/decisions", "memory/requests", "workflow"}
	var total int64
	for i := range 2000 {
		body := fmt.Sprintf("---\ntitle: Record %d\ntags: [bench]\n---\n\n%s", i, strings.Repeat("Some remembered fact.\n", 10+i%20))
		writeFile(b, y, fmt.Sprintf("%s/record-%04d.md", dirs[i%len(dirs)], i), []byte(body), 0o644)
		total += int64(len(body))
	}
	b.SetBytes(total)
	b.ReportAllocs()
	for b.Loop() {
		snap, err := WorktreeSnapshot(root, 1<<20)
		if err != nil {
			b.Fatal(err)
		}
		var n int64
		for _, e := range snap.Entries {
			if e.Mode != record.ModeRegular {
				continue
			}
			c, err := snap.Read(e.Path)
			if err != nil {
				b.Fatal(err)
			}
			n += int64(len(c))
		}
		if n != total {
			b.Fatalf("read %d bytes, want %d", n, total)
		}
	}
}

// TestWorktreeSnapshotOwned: a working-tree snapshot says its reads are
// the caller's to change, and they are: a new buffer every time.
func TestWorktreeSnapshotOwned(t *testing.T) {
	root := t.TempDir()
	mkdirAll(t, root, ".yoi/knowledge")
	writeFile(t, filepath.Join(root, ".yoi", "knowledge"), "a.md", []byte("Text"), 0o644)
	snap := mustSnapshot(t, root, 0)
	if !snap.Owned {
		t.Fatal("a working-tree snapshot is not Owned")
	}
	first, err := snap.Read("knowledge/a.md")
	if err != nil {
		t.Fatal(err)
	}
	first[0] = 'X'
	second, err := snap.Read("knowledge/a.md")
	if err != nil || string(second) != "Text" {
		t.Errorf("second read %q, %v after changing the first", second, err)
	}
}
