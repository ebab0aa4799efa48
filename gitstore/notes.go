package gitstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Notes writes and reads git notes under one notes ref with plumbing:
// a notes commit whose tree holds each note as a blob named by the
// annotated object, flat or in the xx/yyyy… fanout git uses for large
// notes trees. Like the memory branch, it never touches the working
// tree, the index or HEAD, needs no user identity in git's config, and
// moves the ref by compare-and-swap.
type Notes struct {
	Repo    Repo
	Objects *Objects
	Ref     string // full ref, e.g. refs/notes/yoimem
	// MaxRead bounds the size of a note Read returns (0: DefaultMaxNote);
	// a larger one is an error with its size, never cut.
	MaxRead int64
	// MaxAttempts bounds compare-and-swap retries (0: 5).
	MaxAttempts int
}

// DefaultMaxNote is Notes.MaxRead when it is not set.
const DefaultMaxNote = 64 << 20

// Add attaches content as the note of target (a full hex object name),
// replacing any note it had, as one commit on the notes ref. A note
// already holding exactly content commits nothing.
func (n *Notes) Add(ctx context.Context, target string, content []byte, message string, who Signature) error {
	if !plumbing.IsHash(target) {
		return fmt.Errorf("note on %q: not a full object name", target)
	}
	target = strings.ToLower(target)
	blob, err := n.Objects.WriteBlob(content)
	if err != nil {
		return fmt.Errorf("note on %s: %w", target, err)
	}
	attempts := n.MaxAttempts
	if attempts <= 0 {
		attempts = 5
	}
	var lastErr error
	for i := 1; i <= attempts; i++ {
		err := n.try(ctx, target, blob, message, who)
		if !errors.Is(err, errRefMoved) {
			return err
		}
		lastErr = err
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(time.Duration(i*i) * 10 * time.Millisecond):
		}
	}
	return fmt.Errorf("%s kept moving during %d attempts: %w", n.Ref, attempts, lastErr)
}

func (n *Notes) try(ctx context.Context, target string, blob plumbing.Hash, message string, who Signature) error {
	tip, err := n.Objects.RefHash(n.Ref)
	if err != nil {
		return err
	}
	var root plumbing.Hash
	if tip != "" {
		if root, err = n.Objects.commitTree(plumbing.NewHash(tip)); err != nil {
			return fmt.Errorf("%s: %w", n.Ref, err)
		}
	}
	place, existing, _, err := n.locate(root, target)
	if err != nil {
		return err
	}
	edits := []treeEdit{{path: place, blob: blob}}
	if existing != "" && existing != place {
		edits = append(edits, treeEdit{path: existing}) // one note per object
	}
	tree, err := n.Objects.applyEdits(root, edits)
	if err != nil {
		return fmt.Errorf("build the tree of %s: %w", n.Ref, err)
	}
	if tree == root {
		return nil // the note is already there
	}
	sig := object.Signature{Name: identity(who.Name), Email: identity(who.Email), When: who.When}
	c := &object.Commit{Author: sig, Committer: sig, Message: message, TreeHash: tree}
	if tip != "" {
		c.ParentHashes = []plumbing.Hash{plumbing.NewHash(tip)}
	}
	h, err := n.Objects.writeCommit(c)
	if err != nil {
		return err
	}
	return swapRef(ctx, n.Repo, n.Objects, n.Ref, h.String(), tip, "yoimem: "+oneLine(message), who)
}

// Read returns the note of target; ok is false when it has none.
func (n *Notes) Read(_ context.Context, target string) (content []byte, ok bool, err error) {
	if !plumbing.IsHash(target) {
		return nil, false, fmt.Errorf("note on %q: not a full object name", target)
	}
	tip, err := n.Objects.RefHash(n.Ref)
	if err != nil || tip == "" {
		return nil, false, err
	}
	root, err := n.Objects.commitTree(plumbing.NewHash(tip))
	if err != nil {
		return nil, false, fmt.Errorf("%s: %w", n.Ref, err)
	}
	_, existing, blob, err := n.locate(root, strings.ToLower(target))
	if err != nil || existing == "" {
		return nil, false, err
	}
	limit := n.MaxRead
	if limit <= 0 {
		limit = DefaultMaxNote
	}
	b, err := n.Objects.ReadBlob(blob.String(), limit)
	if err != nil {
		return nil, false, fmt.Errorf("note on %s in %s: %w", target, n.Ref, err)
	}
	return b, true, nil
}

// locate finds where target's note is (existing, its blob; "" when none)
// and where a new one goes (place): git reads a note at <hex> or, in a
// fanned-out tree, under the two-hex-digit directories of its prefix, so
// a new note follows the fanout the tree already has.
func (n *Notes) locate(root plumbing.Hash, target string) (place, existing string, blob plumbing.Hash, err error) {
	dir, rest, tree := "", target, root
	for {
		entries, err := n.Objects.readTree(tree)
		if err != nil {
			return "", "", plumbing.ZeroHash, fmt.Errorf("read %s: %w", n.Ref, err)
		}
		var sub plumbing.Hash
		for _, e := range entries {
			switch {
			case e.Name == rest && e.Mode != filemode.Dir:
				existing, blob = dir+rest, e.Hash
			case len(rest) > 2 && e.Name == rest[:2] && e.Mode == filemode.Dir:
				sub = e.Hash
			}
		}
		if sub.IsZero() {
			return dir + rest, existing, blob, nil
		}
		dir, rest, tree = dir+rest[:2]+"/", rest[2:], sub
	}
}
