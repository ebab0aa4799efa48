package gitstore

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
)

// ErrSHA256 means the repository uses SHA-256 object names, which the
// object store here does not support.
var ErrSHA256 = errors.New("SHA-256 repositories are not supported yet")

// Objects reads and writes git objects through go-git's storage, opened
// directly on the git directories (not the porcelain way, which refuses
// repositories with extensions.worktreeConfig and ignores linked
// worktrees' common directory). go-git's storage is not safe for
// concurrent use, so every call holds a mutex.
type Objects struct {
	mu         sync.Mutex
	st         *filesystem.Storage
	objectsDir string   // common objects directory, for writes
	alternates []string // objects directories it borrows from (objects/info/alternates)
	loose      looseNames

	// shared is core.sharedRepository, read on the first write (readers
	// never need it): the bits of what is written into the git directory.
	repo       Repo
	sharedOnce sync.Once
	shared     sharedperm.Perm
	sharedErr  error

	zmu sync.Mutex
	zw  *zlib.Writer  // reused by compress
	zr  io.ReadCloser // reused by readLoose (a zlib.Resetter)
	br  *bufio.Reader // reused by readLoose: 32 KiB each object otherwise
}

// OpenObjects opens the object store of r.
func OpenObjects(r Repo) (*Objects, error) {
	if format, err := objectFormat(r.CommonDir); err != nil {
		return nil, err
	} else if format != "" && format != "sha1" {
		return nil, fmt.Errorf("%s: extensions.objectFormat is %s: %w", r.CommonDir, format, ErrSHA256)
	}
	fs := dotgit.NewRepositoryFilesystem(osfs.New(r.GitDir), osfs.New(r.CommonDir))
	// Packed objects larger than packStreamBytes are streamed, not read
	// whole into memory: a reader takes only what its limit allows.
	st := filesystem.NewStorageWithOptions(fs, cache.NewObjectLRU(objectCacheBytes), filesystem.Options{LargeObjectThreshold: packStreamBytes, MaxOpenDescriptors: maxOpenPacks})
	objectsDir := filepath.Join(r.CommonDir, "objects")
	return &Objects{st: st, objectsDir: objectsDir, alternates: alternates(objectsDir, 0), repo: r}, nil
}

// sharedPerm is the repository's core.sharedRepository, read once.
func (o *Objects) sharedPerm() (sharedperm.Perm, error) {
	o.sharedOnce.Do(func() { o.shared, o.sharedErr = readSharedPerm(o.repo) })
	return o.shared, o.sharedErr
}

// objectCacheBytes bounds go-git's cache of packed objects read (trees,
// delta bases, blobs). A consolidation run reads the decisions and
// requests of the memory twice (the rules engine, then the lint of the
// whole result): 32 MiB keeps those of a 10,000-record memory (about 20
// MB in all), which saves inflating them again (a quarter of the run's CPU
// time), while go-git's default (96 MiB) let a run over a larger memory
// grow past 100 MiB of RSS. See bench/README.md (gitbench consolidate).
const objectCacheBytes = 32 * cache.MiByte

// packStreamBytes is the size over which go-git streams a packed object.
const packStreamBytes = 1 << 20

// maxOpenPacks is how many pack files stay open between reads: without
// it go-git opens the pack again for every object, which was half the
// cost of reading the 10,000 blobs of a revision's .yoi/ (consolidation's
// lint of the whole memory).
const maxOpenPacks = 8

// alternates lists the objects directories objectsDir borrows from, as git
// reads objects/info/alternates: one directory a line, relative to
// objectsDir, comments with #, followed to a depth of 5. Loose objects are
// looked up in them too (readLoose): go-git would read them unbounded.
func alternates(objectsDir string, depth int) []string {
	if depth >= 5 {
		return nil
	}
	b, err := os.ReadFile(filepath.Join(objectsDir, "info", "alternates"))
	if err != nil {
		return nil
	}
	var out []string
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimRight(line, "\r")
		if line == "" || line[0] == '#' || line[0] == '"' {
			continue // a C-quoted path (rare) is left to go-git
		}
		if !filepath.IsAbs(line) {
			line = filepath.Join(objectsDir, line)
		}
		out = append(out, filepath.Clean(line))
		out = append(out, alternates(line, depth+1)...)
	}
	return out
}

// looseDirs are the directories loose objects are looked up in.
func (o *Objects) looseDirs() []string {
	return append([]string{o.objectsDir}, o.alternates...)
}

// objectFormat reads extensions.objectformat from the repository's config
// file without go-git's config parser (which refuses unknown extensions).
func objectFormat(commonDir string) (string, error) {
	return repoExtension(commonDir, "objectformat")
}

// repoExtension reads extensions.<name> from the repository's config file.
func repoExtension(commonDir, name string) (string, error) {
	f, err := os.Open(filepath.Join(commonDir, "config"))
	if err != nil {
		return "", fmt.Errorf("read repository config: %w", err)
	}
	defer f.Close()
	section := ""
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") {
			head, rest, _ := strings.Cut(line[1:], "]")
			section = strings.ToLower(strings.TrimSpace(head))
			line = strings.TrimSpace(rest) // a key may follow on the header line
			if line == "" || line[0] == '#' || line[0] == ';' {
				continue
			}
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && section == "extensions" && strings.EqualFold(strings.TrimSpace(k), name) {
			return strings.ToLower(strings.TrimSpace(v)), nil
		}
	}
	return "", sc.Err()
}

// ReadBlob returns a blob's content. A blob over maxRead (when > 0) is not
// read: the error is a *record.TooLargeError with its size, from the
// object's header. A loose blob that inflates past the size its header
// declares is corrupt (ErrCorruptObject).
func (o *Objects) ReadBlob(hash string, maxRead int64) ([]byte, error) {
	_, b, err := o.readObject(plumbing.NewHash(hash), plumbing.BlobObject, maxRead, false)
	var big *ObjectTooLargeError
	if errors.As(err, &big) {
		return nil, tooLargeBlob(hash, big.Size, maxRead)
	}
	if err != nil {
		return nil, fmt.Errorf("read blob %s: %w", hash, err)
	}
	return b, nil
}

// readObject reads object h: loose (readLoose), else packed through
// go-git, whose pack reader checks the inflated size against the header;
// limit and partial are readLoose's. kind may be plumbing.AnyObject.
func (o *Objects) readObject(h plumbing.Hash, kind plumbing.ObjectType, limit int64, partial bool) (plumbing.ObjectType, []byte, error) {
	typ, b, err := o.readLoose(h, kind, limit, partial)
	if !errors.Is(err, fs.ErrNotExist) {
		return typ, b, err
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	obj, err := o.st.EncodedObject(kind, h)
	if err != nil {
		return plumbing.InvalidObject, nil, fmt.Errorf("object %s: %w", h, err)
	}
	typ, size := obj.Type(), obj.Size()
	want := size
	if limit > 0 && size > limit {
		if !partial {
			return typ, nil, &ObjectTooLargeError{Hash: h.String(), Kind: typ, Size: size, Limit: limit}
		}
		want = limit + 1
	}
	r, err := obj.Reader()
	if err != nil {
		return typ, nil, fmt.Errorf("object %s: %w", h, err)
	}
	defer r.Close()
	var buf bytes.Buffer
	if want <= packStreamBytes || limit > 0 {
		buf.Grow(int(want)) // declared, and within a limit
	}
	if _, err := buf.ReadFrom(io.LimitReader(r, want)); err != nil {
		return typ, nil, fmt.Errorf("object %s: %w", h, err)
	}
	if int64(buf.Len()) != want {
		return typ, nil, corrupt(h, "%d bytes, its header declares %d", buf.Len(), size)
	}
	return typ, buf.Bytes(), nil
}

// WriteBlob stores content as a blob and returns its hash.
func (o *Objects) WriteBlob(content []byte) (plumbing.Hash, error) {
	return o.writeLoose(plumbing.BlobObject, content)
}

// readTree returns a tree's entries; the zero hash is the empty tree.
func (o *Objects) readTree(h plumbing.Hash) ([]object.TreeEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	var entries []object.TreeEntry
	err := o.treeFiles(h, func(name string, mode filemode.FileMode, eh plumbing.Hash) error {
		entries = append(entries, object.TreeEntry{Name: name, Mode: mode, Hash: eh})
		return nil
	})
	return entries, err
}

// writeTree stores entries (sorted in git's order here) as a tree.
func (o *Objects) writeTree(entries []object.TreeEntry) (plumbing.Hash, error) {
	sorted := append([]object.TreeEntry(nil), entries...)
	sort.Sort(object.TreeEntrySorter(sorted))
	// Encoded by hand, in the format go-git's Tree.Encode writes, into
	// one buffer: directory trees of memory hold thousands of entries.
	var b bytes.Buffer
	b.Grow(len(sorted) * 64)
	for _, e := range sorted {
		b.WriteString(strconv.FormatUint(uint64(e.Mode), 8))
		b.WriteByte(' ')
		b.WriteString(e.Name)
		b.WriteByte(0)
		b.Write(e.Hash[:])
	}
	return o.writeLoose(plumbing.TreeObject, b.Bytes())
}

// commitTree returns a commit's tree hash.
func (o *Objects) commitTree(h plumbing.Hash) (plumbing.Hash, error) {
	_, raw, err := o.readObject(h, plumbing.CommitObject, maxObjectBytes, false)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("read commit %s: %w", h, err)
	}
	hexTree, ok := bytes.CutPrefix(raw, []byte("tree "))
	if !ok || len(hexTree) < 41 || hexTree[40] != '\n' || !plumbing.IsHash(string(hexTree[:40])) {
		return plumbing.ZeroHash, fmt.Errorf("read commit %s: %w: no tree line", h, ErrCorruptObject)
	}
	return plumbing.NewHash(string(hexTree[:40])), nil
}

// writeCommit stores a commit object.
func (o *Objects) writeCommit(c *object.Commit) (plumbing.Hash, error) {
	mem := &plumbing.MemoryObject{}
	if err := c.Encode(mem); err != nil {
		return plumbing.ZeroHash, fmt.Errorf("write commit: %w", err)
	}
	return o.writeLoose(plumbing.CommitObject, memBytes(mem))
}

// memBytes returns what was encoded into a memory object.
func memBytes(m *plumbing.MemoryObject) []byte {
	r, _ := m.Reader()
	b, _ := io.ReadAll(r) // a bytes reader: cannot fail
	return b
}

// RefHash returns the object a ref points at ("" when it does not exist),
// read from the loose ref or packed-refs without running git.
func (o *Objects) RefHash(name string) (string, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	ref, err := o.st.Reference(plumbing.ReferenceName(name))
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read %s: %w", name, err)
	}
	if ref.Type() != plumbing.HashReference {
		return "", fmt.Errorf("%s is a symbolic ref", name)
	}
	return ref.Hash().String(), nil
}

// readCommit decodes a whole commit.
func (o *Objects) readCommit(h plumbing.Hash) (*object.Commit, error) {
	_, raw, err := o.readObject(h, plumbing.CommitObject, maxObjectBytes, false)
	if err != nil {
		return nil, fmt.Errorf("read commit %s: %w", h, err)
	}
	mem := &plumbing.MemoryObject{}
	mem.SetType(plumbing.CommitObject)
	mem.Write(raw)
	var c object.Commit
	if err := c.Decode(mem); err != nil {
		return nil, fmt.Errorf("read commit %s: %w", h, err)
	}
	return &c, nil
}

// commitInfo returns a commit's parents and committer time.
func (o *Objects) commitInfo(h plumbing.Hash) ([]plumbing.Hash, time.Time, error) {
	_, raw, err := o.readObject(h, plumbing.CommitObject, maxObjectBytes, false)
	if err != nil {
		return nil, time.Time{}, fmt.Errorf("read commit %s: %w", h, err)
	}
	if parents, when, ok := parseCommitHeader(raw); ok {
		return parents, when, nil
	}
	// An unusual commit: go-git's decoder, on the bytes already read.
	mem := &plumbing.MemoryObject{}
	mem.SetType(plumbing.CommitObject)
	mem.Write(raw)
	var c object.Commit
	if err := c.Decode(mem); err != nil {
		return nil, time.Time{}, fmt.Errorf("read commit %s: %w", h, err)
	}
	return c.ParentHashes, c.Committer.When, nil
}

// reaches walks back from start looking for target, visiting only commits
// no older than target's committer time less a day of clock skew, and at
// most limit of them. decided is false when the walk hit the limit (the
// caller asks git then).
func (o *Objects) reaches(start, target plumbing.Hash, limit int) (found, decided bool, err error) {
	_, targetTime, err := o.commitInfo(target)
	if err != nil {
		return false, false, err
	}
	floor := targetTime.Add(-24 * time.Hour)
	seen := map[plumbing.Hash]bool{start: true}
	queue := []plumbing.Hash{start}
	for n := 0; len(queue) > 0; n++ {
		if n >= limit {
			return false, false, nil
		}
		h := queue[0]
		queue = queue[1:]
		if h == target {
			return true, true, nil
		}
		parents, when, err := o.commitInfo(h)
		if err != nil {
			return false, false, err
		}
		if when.Before(floor) {
			continue
		}
		for _, p := range parents {
			if !seen[p] {
				seen[p] = true
				queue = append(queue, p)
			}
		}
	}
	return false, true, nil
}

// parseCommitHeader reads the parents and committer time of a raw commit.
func parseCommitHeader(raw []byte) ([]plumbing.Hash, time.Time, bool) {
	var parents []plumbing.Hash
	for len(raw) > 0 {
		nl := bytes.IndexByte(raw, '\n')
		if nl <= 0 {
			break // the blank line before the message
		}
		line := string(raw[:nl])
		raw = raw[nl+1:]
		switch {
		case strings.HasPrefix(line, "parent "):
			parents = append(parents, plumbing.NewHash(strings.TrimPrefix(line, "parent ")))
		case strings.HasPrefix(line, "committer "):
			f := strings.Fields(line)
			if len(f) < 3 {
				return nil, time.Time{}, false
			}
			sec, err := strconv.ParseInt(f[len(f)-2], 10, 64)
			if err != nil {
				return nil, time.Time{}, false
			}
			return parents, time.Unix(sec, 0), true
		}
	}
	return nil, time.Time{}, false
}
