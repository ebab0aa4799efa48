package gitstore

import (
	"bytes"
	"cmp"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/yoimem/git-yoimem/record"
)

// indexEntry is a stage-0 entry of the index, path relative to the top.
type indexEntry struct {
	path string
	mode filemode.FileMode
	hash plumbing.Hash
}

// cacheTree is the index's TREE extension: for each directory, the tree
// its entries would write, when git knows it (count >= 0).
type cacheTree struct {
	name     string
	count    int
	hash     plumbing.Hash
	children []*cacheTree
}

func (c *cacheTree) child(name string) *cacheTree {
	if c == nil {
		return nil
	}
	for _, ch := range c.children {
		if ch.name == name {
			return ch
		}
	}
	return nil
}

func (c *cacheTree) validHash() (plumbing.Hash, bool) {
	if c == nil || c.count < 0 {
		return plumbing.ZeroHash, false
	}
	return c.hash, true
}

// indexFile is a parsed version 2/3 index.
type indexFile struct {
	entries []indexEntry // sorted by path, as git keeps them
	tree    *cacheTree
}

// ErrIndexChecksum means the index file's trailing checksum does not match
// its content: the file is damaged (cut short, or a byte changed). git
// checks it only in fsck, so a commit would go ahead with what the damaged
// index says; a hook refuses it instead.
var ErrIndexChecksum = errors.New("bad index checksum: the index file is damaged")

// checkIndexSum verifies the trailing SHA-1 of an index file (of any
// version) against the rest of it. All zeros is no checksum: git writes
// that under index.skipHash (and feature.manyFiles) and skips the check.
func checkIndexSum(b []byte) error {
	sum := b[len(b)-20:]
	if bytes.Equal(sum, make([]byte, 20)) {
		return nil
	}
	if h := sha1.Sum(b[:len(b)-20]); !bytes.Equal(h[:], sum) {
		return ErrIndexChecksum
	}
	return nil
}

// parseIndex reads a version 2 or 3 index: the entries under prefix/ and
// the cache tree. Version 4, split and sparse indexes return
// errIndexFormat: git must read those. A damaged file (any version)
// returns ErrIndexChecksum. The checksum is computed on another core while
// the entries are read: a hook's commit waits for both.
func parseIndex(file, prefix string) (*indexFile, error) {
	b, release, err := mapIndex(file)
	if err != nil {
		return nil, err
	}
	defer release() // the listing and the cache tree are copies
	err = whileMapped(file, func() error {
		if len(b) < 12+20 || string(b[:4]) != "DIRC" {
			return fmt.Errorf("%s: %w", file, errIndexFormat)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	sum := make(chan error, 1)
	go func() { sum <- whileMapped(file, func() error { return checkIndexSum(b) }) }()
	var idx *indexFile
	err = whileMapped(file, func() (err error) {
		idx, err = parseIndexData(b, file, prefix)
		return err
	})
	if serr := <-sum; serr != nil { // waited for before the mapping goes
		if errors.Is(serr, ErrIndexChecksum) {
			serr = fmt.Errorf("%s: %w", file, serr)
		}
		return nil, serr
	}
	return idx, err
}

// whileMapped runs fn, which reads the mapped index file, with memory
// faults made panics and those recovered as errIndexFormat (git reads the
// index instead). git never writes into an index, it renames a new one
// over it; but a file cut short under the mapping by some other tool is a
// SIGBUS, which would kill the hook.
func whileMapped(file string, fn func() error) (err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			err = fmt.Errorf("%s: changed while it was read: %w", file, errIndexFormat)
		}
	}()
	return fn()
}

// parseIndexData reads the entries and extensions of index b (file names
// it in errors). A first pass checks every entry and measures those under
// prefix/ (git keeps them together, sorted); the second reads only those
// into a listing and one string of names allocated to size: what the hook
// allocates, a fresh process pays for page by page.
func parseIndexData(b []byte, file, prefix string) (*indexFile, error) {
	if v := binary.BigEndian.Uint32(b[4:8]); v != 2 && v != 3 {
		return nil, fmt.Errorf("%s: version %d: %w", file, v, errIndexFormat)
	}
	n := int(binary.BigEndian.Uint32(b[8:12]))
	want := []byte(prefix + "/")
	under := func(e rawEntry) bool { return e.stage() == 0 && bytes.HasPrefix(e.name, want) }
	var count, nameBytes, first, firstAt int
	var prev []byte
	var order error
	off, err := walkIndex(b, 12, n, file, func(i, at int, e rawEntry) bool {
		if !under(e) {
			return true
		}
		if count > 0 && bytes.Compare(prev, e.name) >= 0 {
			// git keeps the entries sorted; the lookups below need it.
			order = fmt.Errorf("%s: unordered entries: %w", file, errIndexFormat)
			return false
		}
		if count == 0 {
			first, firstAt = i, at
		}
		prev = e.name
		count++
		nameBytes += len(e.name)
		return true
	})
	if err != nil {
		return nil, err
	}
	if order != nil {
		return nil, order
	}
	idx := &indexFile{entries: make([]indexEntry, 0, count)}
	var names strings.Builder
	names.Grow(nameBytes)
	ends := make([]int, 0, count)
	if count > 0 {
		_, err = walkIndex(b, firstAt, n-first, file, func(_, _ int, e rawEntry) bool {
			if under(e) {
				names.Write(e.name)
				ends = append(ends, names.Len())
				idx.entries = append(idx.entries, indexEntry{mode: e.mode, hash: e.hash})
			}
			return len(ends) < count
		})
		if err != nil {
			return nil, err
		}
	}
	all := names.String()
	for i := range idx.entries {
		idx.entries[i].path = all[prevEnd(ends, i):ends[i]]
	}
	if off > len(b)-20 {
		return nil, fmt.Errorf("%s: truncated: %w", file, errIndexFormat)
	}
	for off+8 <= len(b)-20 {
		sig := string(b[off : off+4])
		size := int(binary.BigEndian.Uint32(b[off+4 : off+8]))
		if off+8+size > len(b)-20 {
			return nil, fmt.Errorf("%s: truncated extension: %w", file, errIndexFormat)
		}
		switch sig {
		case "link", "sdir":
			return nil, fmt.Errorf("%s: %s extension: %w", file, sig, errIndexFormat)
		case "TREE":
			data := b[off+8 : off+8+size]
			if t, _, err := parseCacheTree(data); err == nil {
				idx.tree = t
			}
		}
		off += 8 + size
	}
	if off != len(b)-20 {
		return nil, fmt.Errorf("%s: truncated extension: %w", file, errIndexFormat)
	}
	return idx, nil
}

// rawEntry is an index entry as the file holds it.
type rawEntry struct {
	mode  filemode.FileMode
	hash  plumbing.Hash
	flags uint16
	name  []byte // a slice of the file
}

func (e rawEntry) stage() int { return int(e.flags>>12) & 3 }

// walkIndex calls fn with the entries of index b from offset off (entry
// i, at its offset), at most n of them, until fn returns false; it
// returns the offset after the last entry read. Entries parseIndex leaves
// to git (sparse directories and entries, intent-to-add) and a truncated
// file are errIndexFormat.
func walkIndex(b []byte, off, n int, file string, fn func(i, at int, e rawEntry) bool) (int, error) {
	for i := 0; i < n; i++ {
		start := off
		if off+62 > len(b) {
			return 0, fmt.Errorf("%s: truncated: %w", file, errIndexFormat)
		}
		e := rawEntry{mode: filemode.FileMode(binary.BigEndian.Uint32(b[off+24 : off+28])), flags: binary.BigEndian.Uint16(b[off+60 : off+62])}
		copy(e.hash[:], b[off+40:off+60])
		off += 62
		if e.flags&0x4000 != 0 { // extended flags (version 3)
			if off+2 > len(b) {
				return 0, fmt.Errorf("%s: truncated: %w", file, errIndexFormat)
			}
			if ext := binary.BigEndian.Uint16(b[off : off+2]); ext&(1<<14|1<<13) != 0 {
				return 0, fmt.Errorf("%s: sparse or intent-to-add entries: %w", file, errIndexFormat)
			}
			off += 2
		}
		end := bytes.IndexByte(b[off:], 0)
		if end < 0 {
			return 0, fmt.Errorf("%s: truncated: %w", file, errIndexFormat)
		}
		e.name = b[off : off+end]
		off = start + ((off+end-start)+8)&^7 // NUL padding to a multiple of 8
		if e.mode == filemode.Dir {
			return 0, fmt.Errorf("%s: sparse directory entry: %w", file, errIndexFormat)
		}
		if !fn(i, start, e) {
			return off, nil
		}
	}
	return off, nil
}

// prevEnd is where name i starts in the buffer of names ends indexes.
func prevEnd(ends []int, i int) int {
	if i == 0 {
		return 0
	}
	return ends[i-1]
}

// maxCacheTreeDepth bounds the nesting of the cache tree: git's paths
// end at PATH_MAX (4096 bytes), two bytes a level at least. A deeper one
// is damaged or hostile, and its recursion would only grow the stack.
const maxCacheTreeDepth = 2048

// parseCacheTree reads one node (and its subtrees, in pre-order).
func parseCacheTree(b []byte) (*cacheTree, []byte, error) {
	return parseCacheTreeAt(b, 0)
}

func parseCacheTreeAt(b []byte, depth int) (*cacheTree, []byte, error) {
	if depth > maxCacheTreeDepth {
		return nil, nil, errors.New("cache tree nested too deep")
	}
	nul := bytes.IndexByte(b, 0)
	nl := bytes.IndexByte(b, '\n')
	if nul < 0 || nl < nul {
		return nil, nil, errors.New("bad cache tree")
	}
	counts := strings.Fields(string(b[nul+1 : nl]))
	if len(counts) != 2 {
		return nil, nil, errors.New("bad cache tree counts")
	}
	count, err1 := strconv.Atoi(counts[0])
	subtrees, err2 := strconv.Atoi(counts[1])
	if err1 != nil || err2 != nil || subtrees < 0 {
		return nil, nil, errors.New("bad cache tree counts")
	}
	t := &cacheTree{name: string(b[:nul]), count: count}
	b = b[nl+1:]
	if count >= 0 {
		if len(b) < 20 {
			return nil, nil, errors.New("bad cache tree hash")
		}
		copy(t.hash[:], b[:20])
		b = b[20:]
	}
	for i := 0; i < subtrees; i++ {
		var ch *cacheTree
		var err error
		if ch, b, err = parseCacheTreeAt(b, depth+1); err != nil {
			return nil, nil, err
		}
		t.children = append(t.children, ch)
	}
	return t, b, nil
}

// headDir is the tree of directory prefix in HEAD (zero: HEAD has none,
// or the branch is unborn).
func (o *Objects) headDir(prefix string) (plumbing.Hash, error) {
	headRoot, err := o.headTree()
	if err != nil || headRoot.IsZero() {
		return plumbing.ZeroHash, err
	}
	return o.lookupTree(headRoot, prefix)
}

// stagedDiff compares the index with HEAD's tree headDir of prefix/,
// skipping every directory whose cache tree matches HEAD (git's own
// shortcut): a commit that stages nothing under .yoi/ reads no tree.
func (o *Objects) stagedDiff(idx *indexFile, prefix string, headDir plumbing.Hash) (changed, deleted []string, err error) {
	ct := idx.tree
	for _, name := range strings.Split(prefix, "/") {
		ct = ct.child(name)
	}
	d := &differ{o: o, entries: idx.entries}
	lo := sort.Search(len(idx.entries), func(i int) bool { return idx.entries[i].path >= prefix+"/" })
	hi := sort.Search(len(idx.entries), func(i int) bool { return idx.entries[i].path >= prefix+"0" }) // '0' follows '/'
	if err := d.dir(prefix, lo, hi, headDir, ct); err != nil {
		return nil, nil, err
	}
	return d.changed, d.deleted, nil
}

type differ struct {
	o                *Objects
	entries          []indexEntry
	changed, deleted []string
}

// dir compares directory p (top-relative) in HEAD (tree h, zero: absent)
// with the index entries below it, d.entries[lo:hi]. Both sides are in
// git's order (a directory sorts as its name and a slash), so one merge
// pass compares them without a map or a string per entry: the hook runs
// this on every commit, over directories of thousands of records.
func (d *differ) dir(p string, lo, hi int, h plumbing.Hash, ct *cacheTree) error {
	if ch, ok := ct.validHash(); ok && ch == h {
		return nil
	}
	var tc treeCursor
	if !h.IsZero() {
		_, raw, err := d.o.readObject(h, plumbing.TreeObject, maxObjectBytes, false)
		if err != nil {
			return fmt.Errorf("read tree %s: %w", h, err)
		}
		tc = treeCursor{raw: raw, tree: h}
	}
	if err := tc.next(); err != nil {
		return err
	}
	for i := lo; i < hi || tc.ok; {
		name, isDir, end := "", false, i
		c := -1 // index side first; 1: tree side first
		if i < hi {
			name, isDir, end = d.group(p, i, hi)
			if tc.ok {
				c = compareKeys(name, isDir, tc.name, tc.mode == filemode.Dir)
			}
		} else {
			c = 1
		}
		var err error
		switch {
		case c < 0 && isDir: // a directory the index adds
			err = d.dir(p+"/"+name, i, end, plumbing.ZeroHash, ct.child(name))
		case c < 0:
			d.changed = append(d.changed, d.entries[i].path)
		case c > 0 && tc.mode == filemode.Dir: // a directory gone from the index
			err = d.dir(p+"/"+string(tc.name), i, i, tc.hash, nil)
		case c > 0:
			d.deleted = append(d.deleted, p+"/"+string(tc.name))
		case isDir:
			err = d.dir(p+"/"+name, i, end, tc.hash, ct.child(name))
		default:
			if e := d.entries[i]; e.hash != tc.hash || e.mode != tc.mode {
				d.changed = append(d.changed, e.path)
			}
		}
		if err != nil {
			return err
		}
		if c <= 0 {
			i = end
		}
		if c >= 0 {
			if err := tc.next(); err != nil {
				return err
			}
		}
	}
	return nil
}

// group is the name of index entry i below directory p: a file's, or the
// subdirectory's that holds it, with the end of that subdirectory's
// entries (i+1 for a file).
func (d *differ) group(p string, i, hi int) (name string, isDir bool, end int) {
	rest := d.entries[i].path[len(p)+1:]
	slash := strings.IndexByte(rest, '/')
	if slash < 0 {
		return rest, false, i + 1
	}
	pre := d.entries[i].path[:len(p)+1+slash+1]
	for end = i + 1; end < hi && strings.HasPrefix(d.entries[end].path, pre); end++ {
	}
	return rest[:slash], true, end
}

// compareKeys orders two names as git orders tree entries and index
// paths: a directory's name is followed by a slash, a file's by nothing
// (git's base_name_compare).
func compareKeys[A, B ~string | ~[]byte](a A, aDir bool, b B, bDir bool) int {
	n := min(len(a), len(b))
	for i := 0; i < n; i++ {
		if a[i] != b[i] {
			return cmp.Compare(a[i], b[i])
		}
	}
	return cmp.Compare(keyEnd(a, n, aDir), keyEnd(b, n, bDir))
}

// keyEnd is the byte of a name's key at n: the name's own, or after its
// end a slash for a directory and 0 (before any byte) for a file.
func keyEnd[S ~string | ~[]byte](s S, n int, dir bool) byte {
	switch {
	case len(s) > n:
		return s[n]
	case dir:
		return '/'
	}
	return 0
}

// errTreeOrder means a tree's entries are out of git's order (or repeat a
// name): a broken tool wrote it; git answers instead.
var errTreeOrder = errors.New("tree entries out of order")

// treeCursor walks a tree object's entries in order; name is a slice of
// the object, valid while it is current.
type treeCursor struct {
	raw  []byte
	tree plumbing.Hash
	ok   bool // an entry is current
	name []byte
	mode filemode.FileMode
	hash plumbing.Hash
}

// next moves to the next entry (ok false after the last); an entry that
// does not sort after the current one is errTreeOrder.
func (c *treeCursor) next() error {
	if len(c.raw) == 0 {
		c.ok = false
		return nil
	}
	sp := bytes.IndexByte(c.raw, ' ')
	nul := bytes.IndexByte(c.raw, 0)
	if sp < 0 || nul < sp || nul+21 > len(c.raw) {
		return fmt.Errorf("tree %s: malformed entry", c.tree)
	}
	mode, ok := parseMode(c.raw[:sp])
	if !ok {
		return fmt.Errorf("tree %s: bad mode %q", c.tree, c.raw[:sp])
	}
	name, m := c.raw[sp+1:nul], canonMode(mode)
	if c.ok && compareKeys(c.name, c.mode == filemode.Dir, name, m == filemode.Dir) >= 0 {
		return fmt.Errorf("tree %s: %q after %q: %w", c.tree, name, c.name, errTreeOrder)
	}
	c.ok, c.name, c.mode = true, name, m
	copy(c.hash[:], c.raw[nul+1:nul+21])
	c.raw = c.raw[nul+21:]
	return nil
}

// parseMode reads a tree entry's octal mode as strconv.ParseUint(s, 8,
// 32) would, without making a string of it.
func parseMode(b []byte) (filemode.FileMode, bool) {
	if len(b) == 0 {
		return 0, false
	}
	var m uint64
	for _, c := range b {
		if c < '0' || c > '7' {
			return 0, false
		}
		if m = m<<3 | uint64(c-'0'); m > 1<<32-1 {
			return 0, false
		}
	}
	return filemode.FileMode(m), true
}

// headTree is HEAD's root tree (zero on an unborn branch).
func (o *Objects) headTree() (plumbing.Hash, error) {
	o.mu.Lock()
	ref, err := o.st.Reference(plumbing.HEAD)
	if err == nil && ref.Type() == plumbing.SymbolicReference {
		ref, err = o.st.Reference(ref.Target())
	}
	o.mu.Unlock()
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, nil
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("read HEAD: %w", err)
	}
	return o.commitTree(ref.Hash())
}

// indexSnapshot is the snapshot of the staged .yoi/ with its listing;
// blobs are read on demand, up to maxRead bytes.
func indexSnapshot(listing []record.Entry, idx *indexFile, prefix string, objs *Objects, maxRead int64) record.Snapshot {
	snap := record.Snapshot{Entries: listing}
	snap.Read = func(p string) ([]byte, error) {
		i, ok := idx.find(prefix + "/" + p)
		if !ok || fileModeOf(idx.entries[i].mode) != record.ModeRegular {
			return nil, fmt.Errorf("read %s: %w", p, record.ErrNotExist)
		}
		b, err := objs.ReadBlob(idx.entries[i].hash.String(), maxRead)
		return b, withPath(err, p)
	}
	return snap
}

// withTargets fills in the symlinks' targets of a staged listing.
func withTargets(listing []record.Entry, idx *indexFile, prefix string, objs *Objects) []record.Entry {
	for i, e := range listing {
		if e.Mode != record.ModeSymlink {
			continue
		}
		if j, ok := idx.find(prefix + "/" + e.Path); ok {
			if b, err := objs.ReadBlob(idx.entries[j].hash.String(), 4096); err == nil {
				listing[i].Target = string(b)
			}
		}
	}
	return listing
}

// find is the position of the entry at path p (top-relative).
func (idx *indexFile) find(p string) (int, bool) {
	i := sort.Search(len(idx.entries), func(i int) bool { return idx.entries[i].path >= p })
	return i, i < len(idx.entries) && idx.entries[i].path == p
}

// stagedEntries is the snapshot listing of idx's entries (all under
// prefix/), with an entry for each directory, in path order. The index is
// in path order already and directories are few: they are sorted apart
// and merged in, rather than the whole listing sorted again.
func stagedEntries(idx *indexFile, prefix string) []record.Entry {
	var dirs []string
	seen := map[string]bool{}
	last := ""
	for _, e := range idx.entries {
		rel := e.path[len(prefix)+1:]
		slash := strings.LastIndexByte(rel, '/')
		if slash < 0 || rel[:slash] == last {
			continue
		}
		last = rel[:slash]
		for d := last; d != "" && !seen[d]; d = parentDir(d) {
			seen[d] = true
			dirs = append(dirs, d)
		}
	}
	slices.Sort(dirs)
	out := make([]record.Entry, 0, len(idx.entries)+len(dirs))
	for _, e := range idx.entries {
		rel := e.path[len(prefix)+1:]
		for len(dirs) > 0 && dirs[0] < rel {
			out = append(out, record.Entry{Path: dirs[0], Mode: record.ModeDir})
			dirs = dirs[1:]
		}
		out = append(out, record.Entry{Path: rel, Mode: fileModeOf(e.mode), Size: -1})
	}
	for _, d := range dirs {
		out = append(out, record.Entry{Path: d, Mode: record.ModeDir})
	}
	return out
}

// parentDir is d's parent directory, "" at the top.
func parentDir(d string) string {
	if i := strings.LastIndexByte(d, '/'); i >= 0 {
		return d[:i]
	}
	return ""
}
