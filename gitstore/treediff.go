package gitstore

import (
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// treeDiff is changedPaths between two trees (the zero hash: the empty
// tree) read here, without a git process per commit: each path whose
// entry differs, with its entry in `to` (the zero entry when `to` has
// none). Only subtrees that differ are read. As git diff-tree -r does, a
// directory on one side and a file on the other is the file added or
// deleted and every path below the directory deleted or added.
func (o *Objects) treeDiff(from, to plumbing.Hash) (map[string]yoiEntry, error) {
	out := map[string]yoiEntry{}
	return out, o.diffInto(from, to, "", out)
}

func (o *Objects) diffInto(from, to plumbing.Hash, prefix string, out map[string]yoiEntry) error {
	if from == to {
		return nil
	}
	a, err := o.treeEntries(from)
	if err != nil {
		return err
	}
	b, err := o.treeEntries(to)
	if err != nil {
		return err
	}
	names := make(map[string]bool, len(a)+len(b))
	for n := range a {
		names[n] = true
	}
	for n := range b {
		names[n] = true
	}
	for name := range names {
		ea, eb := a[name], b[name]
		if ea == eb {
			continue
		}
		subA, subB := dirHash(ea), dirHash(eb)
		if !subA.IsZero() || !subB.IsZero() {
			if err := o.diffInto(subA, subB, prefix+name+"/", out); err != nil {
				return err
			}
		}
		fileA, fileB := fileEntry(ea), fileEntry(eb)
		if fileA != fileB {
			out[prefix+name] = fileB
		}
	}
	return nil
}

// treeEntries are a tree's entries by name; nil for the empty tree.
func (o *Objects) treeEntries(h plumbing.Hash) (map[string]yoiEntry, error) {
	if h.IsZero() {
		return nil, nil
	}
	entries := map[string]yoiEntry{}
	err := o.treeFiles(h, func(name string, mode filemode.FileMode, eh plumbing.Hash) error {
		entries[name] = yoiEntry{hash: eh, mode: mode}
		return nil
	})
	return entries, err
}

// dirHash is e's tree when it is a directory, else zero.
func dirHash(e yoiEntry) plumbing.Hash {
	if e.mode == filemode.Dir {
		return e.hash
	}
	return plumbing.ZeroHash
}

// fileEntry is e when it is not a directory (a file, a link, a
// submodule), else the zero entry.
func fileEntry(e yoiEntry) yoiEntry {
	if e.mode == filemode.Dir {
		return yoiEntry{}
	}
	return e
}
