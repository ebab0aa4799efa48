package gitstore

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// List returns every note of the ref at commit tip ("": the ref's tip),
// by the full name of the object it annotates, whatever the fanout.
func (n *Notes) List(_ context.Context, tip string) (map[string]plumbing.Hash, error) {
	if tip == "" {
		var err error
		if tip, err = n.Objects.RefHash(n.Ref); err != nil || tip == "" {
			return map[string]plumbing.Hash{}, err
		}
	}
	root, err := n.Objects.commitTree(plumbing.NewHash(tip))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", n.Ref, err)
	}
	out := map[string]plumbing.Hash{}
	return out, n.walk(root, "", out)
}

func (n *Notes) walk(tree plumbing.Hash, prefix string, out map[string]plumbing.Hash) error {
	entries, err := n.Objects.readTree(tree)
	if err != nil {
		return fmt.Errorf("read %s: %w", n.Ref, err)
	}
	for _, e := range entries {
		name := prefix + e.Name
		switch {
		case e.Mode == filemode.Dir && len(e.Name) == 2 && len(name) < 40:
			if err := n.walk(e.Hash, name, out); err != nil {
				return err
			}
		case e.Mode != filemode.Dir && plumbing.IsHash(name):
			out[strings.ToLower(name)] = e.Hash
		}
	}
	return nil
}

// Move gives each replayed commit the note its original had (the evidence
// travels with the change) and takes it off the original, which only the
// reflog still reaches and which was never pushed, so that the notes ref
// a push shares holds no notes of commits nobody has. One commit on the
// notes ref; it returns how many notes it moved. A new commit that has a
// note keeps it; the original's then stays too unless it is the same
// note, so that no evidence is lost.
func (n *Notes) Move(ctx context.Context, pairs []Rewritten, message string, who Signature) (int, error) {
	if len(pairs) == 0 {
		return 0, nil
	}
	return n.update(ctx, message, who, "", func(have map[string]plumbing.Hash) map[string]plumbing.Hash {
		add := map[string]plumbing.Hash{}
		for _, p := range pairs {
			blob, ok := have[p.Old]
			if !ok {
				continue
			}
			if mine, exists := have[p.New]; !exists {
				add[p.New] = blob
			} else if mine != blob {
				continue
			}
			add[p.Old] = plumbing.ZeroHash
		}
		return add
	})
}

// NotesMerge says what Merge did.
type NotesMerge struct {
	Outcome Integration // UpToDate, Ahead, Created, FastForward or Replayed (merged)
	Added   int         // notes of theirs that ours lacked
	// Differing are objects both sides annotated differently: ours kept.
	Differing []string
}

// Merge brings theirs (a notes commit, e.g. a remote's fetched notes)
// into the ref: nothing when ours has it, a fast-forward when ours is
// behind, else a merge commit (both as parents) whose tree holds the
// notes of both. Notes are per commit, and each clone notes its own
// commits, so the sides rarely meet; when both annotate one object
// differently, ours is kept and the object is listed.
func (n *Notes) Merge(ctx context.Context, theirs, message string, who Signature) (NotesMerge, error) {
	ours, err := n.Objects.RefHash(n.Ref)
	if err != nil || theirs == "" || ours == theirs {
		return NotesMerge{Outcome: UpToDate}, err
	}
	if ours == "" {
		return NotesMerge{Outcome: Created}, swapRef(ctx, n.Repo, n.Objects, n.Ref, theirs, "", "yoimem: "+oneLine(message), who)
	}
	if in, err := isAncestorIn(ctx, n.Repo, n.Objects, theirs, ours); err != nil || in {
		return NotesMerge{Outcome: Ahead}, err
	}
	if in, err := isAncestorIn(ctx, n.Repo, n.Objects, ours, theirs); err != nil || in {
		if err != nil {
			return NotesMerge{}, err
		}
		return NotesMerge{Outcome: FastForward}, swapRef(ctx, n.Repo, n.Objects, n.Ref, theirs, ours, "yoimem: "+oneLine(message), who)
	}
	theirNotes, err := n.List(ctx, theirs)
	if err != nil {
		return NotesMerge{}, err
	}
	res := NotesMerge{Outcome: Replayed}
	_, err = n.update(ctx, message, who, theirs, func(have map[string]plumbing.Hash) map[string]plumbing.Hash {
		add := map[string]plumbing.Hash{}
		res.Differing = res.Differing[:0]
		for obj, blob := range theirNotes {
			mine, ok := have[obj]
			switch {
			case !ok:
				add[obj] = blob
			case mine != blob:
				res.Differing = append(res.Differing, obj)
			}
		}
		res.Added = len(add)
		sort.Strings(res.Differing)
		return add
	})
	return res, err
}

// update adds the notes add returns (given the notes the ref has; a zero
// blob removes the object's note) as one commit, with second parent other when set (a merge), by compare-and-
// swap, retried when the ref moved. It returns how many it added.
func (n *Notes) update(ctx context.Context, message string, who Signature, other string, add func(map[string]plumbing.Hash) map[string]plumbing.Hash) (int, error) {
	attempts := n.MaxAttempts
	if attempts <= 0 {
		attempts = 5
	}
	var lastErr error
	for i := 1; i <= attempts; i++ {
		added, err := n.tryUpdate(ctx, message, who, other, add)
		if !errors.Is(err, errRefMoved) {
			return added, err
		}
		lastErr = err
	}
	return 0, fmt.Errorf("%s kept moving during %d attempts: %w", n.Ref, attempts, lastErr)
}

func (n *Notes) tryUpdate(ctx context.Context, message string, who Signature, other string, add func(map[string]plumbing.Hash) map[string]plumbing.Hash) (int, error) {
	tip, err := n.Objects.RefHash(n.Ref)
	if err != nil {
		return 0, err
	}
	have, err := n.List(ctx, tip)
	if err != nil {
		return 0, err
	}
	adds := add(have)
	if len(adds) == 0 && other == "" {
		return 0, nil
	}
	var root plumbing.Hash
	if tip != "" {
		if root, err = n.Objects.commitTree(plumbing.NewHash(tip)); err != nil {
			return 0, err
		}
	}
	objs := make([]string, 0, len(adds))
	for obj := range adds {
		objs = append(objs, obj)
	}
	sort.Strings(objs)
	added := 0
	for _, obj := range objs {
		place, existing, _, err := n.locate(root, obj)
		if err != nil {
			return 0, err
		}
		edit := treeEdit{path: place, blob: adds[obj]}
		if edit.blob.IsZero() { // a note to remove
			if existing == "" {
				continue
			}
			edit.path = existing
		} else {
			added++
		}
		if root, err = n.Objects.applyEdits(root, []treeEdit{edit}); err != nil {
			return 0, fmt.Errorf("build the tree of %s: %w", n.Ref, err)
		}
	}
	sig := object.Signature{Name: identity(who.Name), Email: identity(who.Email), When: who.When}
	c := &object.Commit{Author: sig, Committer: sig, Message: message, TreeHash: root}
	if tip != "" {
		c.ParentHashes = append(c.ParentHashes, plumbing.NewHash(tip))
	}
	if other != "" {
		c.ParentHashes = append(c.ParentHashes, plumbing.NewHash(other))
	}
	h, err := n.Objects.writeCommit(c)
	if err != nil {
		return 0, err
	}
	return added, swapRef(ctx, n.Repo, n.Objects, n.Ref, h.String(), tip, "yoimem: "+oneLine(message), who)
}

// isAncestorIn: is a an ancestor of b (or b itself) in r? A short walk
// back from b decides it without git most of the time (a sync's tips are
// a few commits apart); past 64 commits git answers.
func isAncestorIn(ctx context.Context, r Repo, objs *Objects, a, b string) (bool, error) {
	if found, decided, err := objs.reaches(plumbing.NewHash(b), plumbing.NewHash(a), 64); err == nil && decided {
		return found, nil
	}
	_, err := r.Git.Run(ctx, "merge-base", "--is-ancestor", a, b)
	var ge *Error
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ge) && ge.ExitCode == 1:
		return false, nil
	}
	return false, fmt.Errorf("is %s an ancestor of %s: %w", abbrev(a), abbrev(b), err)
}
