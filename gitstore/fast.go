package gitstore

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/go-git/gcfg"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/yoimem/git-yoimem/record"
)

// This file holds the in-process paths the git hooks take: a commit waits
// for the pre-commit hook, and on small machines every git process costs
// several milliseconds. Each function answers ok=false (or an error) when
// the repository is anything but plain, and the caller then asks git.

// Discover finds the repository of a hook without running git: GIT_DIR
// as git (or the user) exported it, else a .git directory or file in dir
// (a hook runs at the top of its worktree). It declines repositories that
// git's own discovery might treat differently: ceiling directories, a
// GIT_DIR without a work tree root, a bare repository, a work tree that
// the configuration (core.worktree) places anywhere but dir, someone
// else's repository (safe.directory).
func Discover(dir string, getenv func(string) string, g Git) (Repo, bool) {
	if getenv("GIT_CEILING_DIRECTORIES") != "" || getenv("GIT_COMMON_DIR") != "" || getenv("GIT_WORK_TREE") != "" {
		return Repo{}, false
	}
	gitDir := getenv("GIT_DIR")
	switch {
	case gitDir != "" && !filepath.IsAbs(gitDir):
		gitDir = filepath.Join(dir, gitDir)
	case gitDir == "":
		dotgit := filepath.Join(dir, ".git")
		fi, err := os.Lstat(dotgit)
		switch {
		case err != nil:
			return Repo{}, false
		case fi.IsDir():
			gitDir = dotgit
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(dotgit)
			target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
			if err != nil || !ok {
				return Repo{}, false
			}
			if !filepath.IsAbs(target) {
				target = filepath.Join(dir, target)
			}
			gitDir = target
		default:
			return Repo{}, false
		}
	}
	common := gitDir
	if b, err := os.ReadFile(filepath.Join(gitDir, "commondir")); err == nil {
		c := strings.TrimSpace(string(b))
		if !filepath.IsAbs(c) {
			c = filepath.Join(gitDir, c)
		}
		common = c
	}
	if !ownedByMe(common) || !ownedByMe(dir) || !workTreeAt(common, gitDir, dir) {
		return Repo{}, false
	}
	if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err != nil {
		return Repo{}, false
	}
	r := Repo{TopLevel: filepath.Clean(dir), GitDir: filepath.Clean(gitDir), CommonDir: filepath.Clean(common), Git: g}
	r.Git.Dir = r.TopLevel
	return r, true
}

// workTreeAt tells whether the repository's configuration leaves its work
// tree at dir: not bare, and core.worktree unset or naming dir. Like git's
// setup it reads core.bare and core.worktree from the common config, and
// from the worktree's config.worktree under extensions.worktreeConfig
// (includes are not followed there). Anything it cannot read for certain
// answers false: then git knows the top level better.
func workTreeAt(common, gitDir, dir string) bool {
	var cs repoCoreConfig
	if !cs.read(filepath.Join(common, "config"), true) {
		return false
	}
	if cs.worktreeConfig && !cs.read(filepath.Join(gitDir, "config.worktree"), false) {
		return false
	}
	if cs.bare {
		return false
	}
	if !cs.hasWorktree {
		return true
	}
	if cs.worktree == "" {
		return false
	}
	// git changes to the git dir, then to core.worktree: a relative path
	// is resolved from the git dir, ".." after a symlink physically.
	wt := cs.worktree
	if !filepath.IsAbs(wt) {
		base, err := filepath.EvalSymlinks(gitDir)
		if err != nil {
			return false
		}
		wt = base + string(filepath.Separator) + wt
	}
	wt, err := filepath.EvalSymlinks(wt)
	if err != nil {
		return false
	}
	top, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return false
	}
	return filepath.Clean(wt) == filepath.Clean(top)
}

// repoCoreConfig is what a repository's configuration says of where its
// work tree is.
type repoCoreConfig struct {
	bare           bool // core.bare is true, or not certainly false
	hasWorktree    bool
	worktree       string // core.worktree, the last one set
	worktreeConfig bool   // extensions.worktreeConfig is true, or not certainly false
}

// read adds the settings of the config file at path, in git-config syntax
// (the last setting of a key wins). A missing file is a failure only when
// it is required.
func (cs *repoCoreConfig) read(path string, required bool) (ok bool) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !required {
		return true
	}
	if err != nil {
		return false
	}
	defer func() {
		if recover() != nil { // gcfg panics on some malformed values
			ok = false
		}
	}()
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) // git skips a UTF-8 BOM
	err = gcfg.ReadWithCallback(bytes.NewReader(b), func(section, subsection, key, value string, blank bool) error {
		if key == "" || subsection != "" {
			return nil
		}
		switch {
		case strings.EqualFold(section, "core") && strings.EqualFold(key, "bare"):
			cs.bare = !configFalse(value, blank)
		case strings.EqualFold(section, "core") && strings.EqualFold(key, "worktree"):
			if blank {
				return errors.New("core.worktree without a value")
			}
			cs.hasWorktree, cs.worktree = true, value
		case strings.EqualFold(section, "extensions") && strings.EqualFold(key, "worktreeConfig"):
			cs.worktreeConfig = !configFalse(value, blank)
		}
		return nil
	})
	return err == nil
}

// configFalse tells whether a git-config boolean is certainly false: a key
// without "=" is true, and besides false, no, off, 0 and the empty value
// git takes any non-zero number for true and refuses anything else.
func configFalse(value string, blank bool) bool {
	if blank {
		return false
	}
	switch strings.ToLower(value) {
	case "false", "no", "off", "0", "":
		return true
	}
	return false
}

func ownedByMe(p string) bool {
	fi, err := os.Stat(p)
	if err != nil {
		return false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}

// IndexFile is the index git uses in this environment: GIT_INDEX_FILE
// (made absolute against dir) or the worktree's index.
func (r Repo) IndexFile(dir string, getenv func(string) string) string {
	if f := getenv("GIT_INDEX_FILE"); f != "" {
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		return f
	}
	return filepath.Join(r.GitDir, "index")
}

// StagedFast returns what the index stages under prefix/ against HEAD
// (.yoi/-relative paths) and a function that gives the snapshot of the
// staged .yoi/, its files read up to maxRead bytes (most commits stage
// nothing there and never call it; the listing is built once), reading
// the index file and objects directly. An error means: ask git (see
// IndexSnapshot), except ErrIndexChecksum: the index is damaged, and git,
// which does not check, would commit what it says.
func StagedFast(objs *Objects, indexFile, prefix string) (changed, deleted []string, snap func(maxRead int64) record.Snapshot, err error) {
	// HEAD's tree of prefix is wanted whatever the index says: it is found
	// on the other core while the index is read.
	type tree struct {
		h   plumbing.Hash
		err error
	}
	head := make(chan tree, 1)
	go func() {
		h, err := objs.headDir(prefix)
		head <- tree{h, err}
	}()
	idx, err := parseIndex(indexFile, prefix)
	if err != nil {
		return nil, nil, nil, err
	}
	listing := stagedListing(idx, prefix, objs)
	hd := <-head
	if hd.err != nil {
		return nil, nil, nil, hd.err
	}
	c, d, err := objs.stagedDiff(idx, prefix, hd.h)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, p := range c {
		changed = append(changed, p[len(prefix)+1:])
	}
	for _, p := range d {
		deleted = append(deleted, p[len(prefix)+1:])
	}
	sort.Strings(changed)
	sort.Strings(deleted)
	return changed, deleted, func(maxRead int64) record.Snapshot {
		return indexSnapshot(listing(), idx, prefix, objs, maxRead)
	}, nil
}

// stagedListing returns the listing of the staged prefix/ (stagedEntries,
// with the symlinks' targets). When the index's cache tree says that
// something under prefix/ was staged since the last commit, the listing
// is almost surely wanted: it is built now on the other core, while the
// caller compares the index with HEAD. Otherwise (most commits stage
// nothing there) it is built only if asked for.
func stagedListing(idx *indexFile, prefix string, objs *Objects) func() []record.Entry {
	ct := idx.tree
	for _, name := range strings.Split(prefix, "/") {
		ct = ct.child(name)
	}
	build := func() []record.Entry { return withTargets(stagedEntries(idx, prefix), idx, prefix, objs) }
	if _, valid := ct.validHash(); valid {
		return sync.OnceValue(build)
	}
	ch := make(chan []record.Entry, 1)
	go func() { ch <- build() }()
	return sync.OnceValue(func() []record.Entry { return <-ch })
}

func fileModeOf(m filemode.FileMode) record.Mode {
	switch m {
	case filemode.Regular, filemode.Executable, filemode.Deprecated:
		return record.ModeRegular
	case filemode.Symlink:
		return record.ModeSymlink
	}
	return record.ModeOther
}

// canonMode is the mode git reads from a tree entry (canon_mode): trees
// written by old gits hold modes such as 100664, which git takes for
// 100644 and which the index never holds.
func canonMode(m filemode.FileMode) filemode.FileMode {
	switch m & 0o170000 {
	case 0o100000:
		if m&0o100 != 0 {
			return filemode.Executable
		}
		return filemode.Regular
	case 0o120000:
		return filemode.Symlink
	case 0o040000:
		return filemode.Dir
	}
	return filemode.Submodule
}

// errIndexFormat means the index uses a format parseIndex leaves to git
// (version 4's path compression, unknown versions, a truncated file).
var errIndexFormat = errors.New("index format not read here")

// lookupTree finds the tree at a slash path below root (zero: none).
func (o *Objects) lookupTree(root plumbing.Hash, p string) (plumbing.Hash, error) {
	h := root
	for _, name := range strings.Split(p, "/") {
		next := plumbing.ZeroHash
		err := o.treeFiles(h, func(n string, mode filemode.FileMode, eh plumbing.Hash) error {
			if n == name && mode == filemode.Dir {
				next = eh
			}
			return nil
		})
		if err != nil || next.IsZero() {
			return plumbing.ZeroHash, err
		}
		h = next
	}
	return h, nil
}

// treeFiles reads a tree object's entries without go-git's tree decoder
// (which allocates per entry): mode, name and hash.
func (o *Objects) treeFiles(h plumbing.Hash, fn func(name string, mode filemode.FileMode, hash plumbing.Hash) error) error {
	_, raw, err := o.readObject(h, plumbing.TreeObject, maxObjectBytes, false)
	if err != nil {
		return fmt.Errorf("read tree %s: %w", h, err)
	}
	for len(raw) > 0 {
		sp := bytes.IndexByte(raw, ' ')
		nul := bytes.IndexByte(raw, 0)
		if sp < 0 || nul < sp || nul+21 > len(raw) {
			return fmt.Errorf("tree %s: malformed entry", h)
		}
		mode, err := strconv.ParseUint(string(raw[:sp]), 8, 32)
		if err != nil {
			return fmt.Errorf("tree %s: bad mode %q", h, raw[:sp])
		}
		var eh plumbing.Hash
		copy(eh[:], raw[nul+1:nul+21])
		if err := fn(string(raw[sp+1:nul]), canonMode(filemode.FileMode(mode)), eh); err != nil {
			return err
		}
		raw = raw[nul+21:]
	}
	return nil
}
