package gitstore

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/yoimem/git-yoimem/record"
)

// Has reports whether the object store holds hash (loose, in a pack, or
// in an alternate), without reading it.
func (o *Objects) Has(hash string) bool {
	if !plumbing.IsHash(hash) {
		return false
	}
	h := plumbing.NewHash(hash)
	if f, err := o.openLoose(h); err == nil {
		f.Close()
		return true
	}
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.st.HasEncodedObject(h) == nil
}

// maxTagDepth bounds the tags followed to reach a commit.
const maxTagDepth = 10

// PeelCommit follows tag objects from hash to the commit they name,
// without git; ok is false when they end at a tree or a blob.
func (o *Objects) PeelCommit(hash string) (commit plumbing.Hash, ok bool, err error) {
	h := plumbing.NewHash(hash)
	for range maxTagDepth {
		// The start of the object is enough: a tag's target is in its
		// first line, and a blob's content does not matter.
		typ, raw, err := o.readObject(h, plumbing.AnyObject, 4096, true)
		if err != nil {
			return plumbing.ZeroHash, false, fmt.Errorf("peel %s: %w", hash, err)
		}
		switch typ {
		case plumbing.CommitObject:
			return h, true, nil
		case plumbing.TagObject:
			target, found := bytes.CutPrefix(raw, []byte("object "))
			if !found || len(target) < 40 || !plumbing.IsHash(string(target[:40])) {
				return plumbing.ZeroHash, false, fmt.Errorf("peel %s: tag %s: %w: no object line", hash, h, ErrCorruptObject)
			}
			h = plumbing.NewHash(string(target[:40]))
		default:
			return plumbing.ZeroHash, false, nil
		}
	}
	return plumbing.ZeroHash, false, fmt.Errorf("peel %s: more than %d tags deep", hash, maxTagDepth)
}

// PrefixTree is the tree at prefix/ in a commit, read here without git
// (zero when the commit has no prefix/): two commits with the same one
// hold the same records.
func PrefixTree(objs *Objects, commit plumbing.Hash, prefix string) (plumbing.Hash, error) {
	root, err := objs.commitTree(commit)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	dir, err := objs.lookupTree(root, prefix)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("commit %s: %w", commit, err)
	}
	return dir, nil
}

// TreeSnapshot lists a prefix/ tree (PrefixTree; zero: empty), read here
// without git (a push may have many tips to look at), like
// RevisionSnapshot: symlink targets now, contents on demand with at most
// maxRead+1 bytes.
func TreeSnapshot(objs *Objects, tree plumbing.Hash, maxRead int64) (record.Snapshot, error) {
	var entries []record.Entry
	blobs := map[string]string{}
	if !tree.IsZero() {
		if err := objs.listTree(tree, "", &entries, blobs); err != nil {
			return record.Snapshot{}, err
		}
	}
	return blobSnapshot(entries, blobs, objs, maxRead), nil
}

// listTree adds the files below tree h (at path dir) to entries and their
// blobs to blobs.
func (o *Objects) listTree(h plumbing.Hash, dir string, entries *[]record.Entry, blobs map[string]string) error {
	type sub struct {
		path string
		hash plumbing.Hash
	}
	var subs []sub
	err := o.treeFiles(h, func(name string, mode filemode.FileMode, eh plumbing.Hash) error {
		p := strings.TrimPrefix(dir+"/"+name, "/")
		if mode == filemode.Dir {
			subs = append(subs, sub{p, eh})
			return nil
		}
		e := record.Entry{Path: p, Mode: fileModeOf(mode), Size: -1}
		if e.Mode == record.ModeRegular || e.Mode == record.ModeSymlink {
			blobs[p] = eh.String()
		}
		*entries = append(*entries, e)
		return nil
	})
	if err != nil {
		return err
	}
	for _, s := range subs {
		if err := o.listTree(s.hash, s.path, entries, blobs); err != nil {
			return err
		}
	}
	return nil
}
