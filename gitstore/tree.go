package gitstore

import (
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/yoimem/git-yoimem/record"
)

// treeEdit is a change to one file of a tree: a blob to put, or a delete
// (zero hash).
type treeEdit struct {
	path string // relative to the tree being edited
	blob plumbing.Hash
}

// applyEdits returns root with the edits applied. Only the trees on the
// edited paths are read and rewritten; every other subtree keeps its hash,
// so the cost follows the change, not the repository. Emptied directories
// disappear, as in git.
func (o *Objects) applyEdits(root plumbing.Hash, edits []treeEdit) (plumbing.Hash, error) {
	entries, err := o.readTree(root)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	here := map[string]plumbing.Hash{} // files of this level
	below := map[string][]treeEdit{}   // edits grouped by subdirectory
	for _, e := range edits {
		dir, rest, nested := strings.Cut(e.path, "/")
		if nested {
			below[dir] = append(below[dir], treeEdit{path: rest, blob: e.blob})
		} else {
			here[dir] = e.blob
		}
	}
	byName := map[string]int{}
	for i, e := range entries {
		byName[e.Name] = i
	}
	out := make([]object.TreeEntry, 0, len(entries)+len(here))
	drop := map[string]bool{}
	for name, sub := range below {
		if blob, ok := here[name]; ok && !blob.IsZero() {
			return plumbing.ZeroHash, fmt.Errorf("%s is both a file and a directory in the change set", name)
		}
		var subRoot plumbing.Hash
		if i, ok := byName[name]; ok {
			if blob, deleted := here[name]; entries[i].Mode != filemode.Dir && !(deleted && blob.IsZero()) {
				return plumbing.ZeroHash, fmt.Errorf("%s is a file in the tree, not a directory", name)
			} else if entries[i].Mode == filemode.Dir {
				subRoot = entries[i].Hash
			}
		}
		h, err := o.applyEdits(subRoot, sub)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		drop[name] = true
		if !h.IsZero() {
			out = append(out, object.TreeEntry{Name: name, Mode: filemode.Dir, Hash: h})
		}
	}
	for name, blob := range here {
		if _, isDir := below[name]; isDir {
			continue // a deleted file whose name a new directory takes
		}
		if i, ok := byName[name]; ok && entries[i].Mode == filemode.Dir {
			return plumbing.ZeroHash, fmt.Errorf("%s is a directory in the tree, not a file", name)
		}
		drop[name] = true
		if !blob.IsZero() {
			out = append(out, object.TreeEntry{Name: name, Mode: filemode.Regular, Hash: blob})
		}
	}
	for _, e := range entries {
		if !drop[e.Name] {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		return plumbing.ZeroHash, nil
	}
	return o.writeTree(out)
}

// editsFor turns a change set into tree edits under prefix (the .yoi/
// directory relative to the top level), writing the blobs.
func (o *Objects) editsFor(cs *record.ChangeSet, prefix string) ([]treeEdit, error) {
	var edits []treeEdit
	for _, c := range cs.Changes() {
		if _, err := record.CleanRel(c.Path); err != nil {
			return nil, err
		}
		e := treeEdit{path: prefix + "/" + c.Path}
		if c.Op == record.OpPut {
			h, err := o.WriteBlob(c.Content)
			if err != nil {
				return nil, err
			}
			e.blob = h
		}
		edits = append(edits, e)
	}
	return edits, nil
}
