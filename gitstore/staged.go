package gitstore

import (
	"bytes"
	"crypto/sha1"
	"encoding/binary"
	"errors"
	"fmt"
	"os"
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
// returns ErrIndexChecksum.
func parseIndex(file, prefix string) (*indexFile, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if len(b) < 12+20 || string(b[:4]) != "DIRC" {
		return nil, fmt.Errorf("%s: %w", file, errIndexFormat)
	}
	if err := checkIndexSum(b); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if v := binary.BigEndian.Uint32(b[4:8]); v != 2 && v != 3 {
		return nil, fmt.Errorf("%s: version %d: %w", file, v, errIndexFormat)
	}
	n := int(binary.BigEndian.Uint32(b[8:12]))
	want := []byte(prefix + "/")
	// An entry takes at least 64 bytes: a damaged count must not allocate
	// more than the file could hold.
	idx := &indexFile{entries: make([]indexEntry, 0, min(n, len(b)/64))}
	off := 12
	for i := 0; i < n; i++ {
		start := off
		if off+62 > len(b) {
			return nil, fmt.Errorf("%s: truncated: %w", file, errIndexFormat)
		}
		mode := filemode.FileMode(binary.BigEndian.Uint32(b[off+24 : off+28]))
		var h plumbing.Hash
		copy(h[:], b[off+40:off+60])
		flags := binary.BigEndian.Uint16(b[off+60 : off+62])
		off += 62
		if flags&0x4000 != 0 { // extended flags (version 3)
			if off+2 > len(b) {
				return nil, fmt.Errorf("%s: truncated: %w", file, errIndexFormat)
			}
			if ext := binary.BigEndian.Uint16(b[off : off+2]); ext&(1<<14|1<<13) != 0 {
				return nil, fmt.Errorf("%s: sparse or intent-to-add entries: %w", file, errIndexFormat)
			}
			off += 2
		}
		end := bytes.IndexByte(b[off:], 0)
		if end < 0 {
			return nil, fmt.Errorf("%s: truncated: %w", file, errIndexFormat)
		}
		name := b[off : off+end]
		off = start + ((off+end-start)+8)&^7 // NUL padding to a multiple of 8
		if mode == filemode.Dir {
			return nil, fmt.Errorf("%s: sparse directory entry: %w", file, errIndexFormat)
		}
		if (flags>>12)&3 != 0 || !bytes.HasPrefix(name, want) {
			continue
		}
		if k := len(idx.entries); k > 0 && idx.entries[k-1].path >= string(name) {
			// git keeps the entries sorted; the lookups below need it.
			return nil, fmt.Errorf("%s: unordered entries: %w", file, errIndexFormat)
		}
		idx.entries = append(idx.entries, indexEntry{path: string(name), mode: mode, hash: h})
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

// parseCacheTree reads one node (and its subtrees, in pre-order).
func parseCacheTree(b []byte) (*cacheTree, []byte, error) {
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
		if ch, b, err = parseCacheTree(b); err != nil {
			return nil, nil, err
		}
		t.children = append(t.children, ch)
	}
	return t, b, nil
}

// stagedDiff compares the index with HEAD under prefix/, skipping every
// directory whose cache tree matches HEAD (git's own shortcut): a commit
// that stages nothing under .yoi/ reads one tree per level.
func (o *Objects) stagedDiff(idx *indexFile, prefix string) (changed, deleted []string, err error) {
	headRoot, err := o.headTree()
	if err != nil {
		return nil, nil, err
	}
	var headDir plumbing.Hash
	if !headRoot.IsZero() {
		if headDir, err = o.lookupTree(headRoot, prefix); err != nil {
			return nil, nil, err
		}
	}
	ct := idx.tree
	for _, name := range strings.Split(prefix, "/") {
		ct = ct.child(name)
	}
	d := &differ{o: o, entries: idx.entries}
	if err := d.dir(prefix, headDir, ct); err != nil {
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
// with the index entries below it.
func (d *differ) dir(p string, h plumbing.Hash, ct *cacheTree) error {
	if ch, ok := ct.validHash(); ok && ch == h {
		return nil
	}
	lo := sort.Search(len(d.entries), func(i int) bool { return d.entries[i].path >= p+"/" })
	hi := sort.Search(len(d.entries), func(i int) bool { return d.entries[i].path >= p+"0" }) // '0' follows '/'
	files := map[string]indexEntry{}
	subdirs := map[string]bool{}
	for _, e := range d.entries[lo:hi] {
		rest := e.path[len(p)+1:]
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			subdirs[rest[:i]] = true
		} else {
			files[rest] = e
		}
	}
	headSub := map[string]plumbing.Hash{}
	if !h.IsZero() {
		err := d.o.treeFiles(h, func(name string, mode filemode.FileMode, eh plumbing.Hash) error {
			full := p + "/" + name
			if mode == filemode.Dir {
				headSub[name] = eh
				return nil
			}
			if e, ok := files[name]; !ok {
				d.deleted = append(d.deleted, full)
			} else if e.hash != eh || e.mode != mode {
				d.changed = append(d.changed, full)
			}
			delete(files, name)
			return nil
		})
		if err != nil {
			return err
		}
	}
	for name := range files {
		d.changed = append(d.changed, p+"/"+name)
	}
	for name := range subdirs {
		if err := d.dir(p+"/"+name, headSub[name], ct.child(name)); err != nil {
			return err
		}
		delete(headSub, name)
	}
	for name, sh := range headSub { // directories gone from the index
		if err := d.dir(p+"/"+name, sh, nil); err != nil {
			return err
		}
	}
	return nil
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

// indexSnapshot lists the staged .yoi/ from the parsed index; blobs are
// read on demand.
func indexSnapshot(idx *indexFile, prefix string, objs *Objects, maxRead int64) record.Snapshot {
	entries := make([]record.Entry, 0, len(idx.entries))
	blobs := make(map[string]string, 16)
	hashes := make([]plumbing.Hash, 0, len(idx.entries))
	for _, e := range idx.entries {
		rel := e.path[len(prefix)+1:]
		entries = append(entries, record.Entry{Path: rel, Mode: fileModeOf(e.mode), Size: -1})
		hashes = append(hashes, e.hash)
		if e.mode == filemode.Symlink {
			blobs[rel] = e.hash.String()
		}
	}
	for i, e := range entries {
		if e.Mode == record.ModeSymlink {
			if b, err := objs.ReadBlob(blobs[e.Path], 4096); err == nil {
				entries[i].Target = string(b)
			}
		}
	}
	snap := record.Snapshot{Entries: withDirs(entries)}
	if len(snap.Entries) != len(entries) {
		snap.Sort()
	}
	snap.Read = func(p string) ([]byte, error) {
		i := sort.Search(len(idx.entries), func(i int) bool { return idx.entries[i].path >= prefix+"/"+p })
		if i == len(idx.entries) || idx.entries[i].path != prefix+"/"+p || fileModeOf(idx.entries[i].mode) != record.ModeRegular {
			return nil, fmt.Errorf("read %s: %w", p, record.ErrNotExist)
		}
		b, err := objs.ReadBlob(hashes[i].String(), maxRead)
		return b, withPath(err, p)
	}
	return snap
}
