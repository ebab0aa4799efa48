package gitstore

import (
	"context"
	"fmt"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// afterDivergence chooses the parent when the memory tip is no ancestor of
// the base and the base moved on: the base tip when the whole branch
// reached it by squash or rebase; the unmerged rest replayed onto the
// base tip when only its first commits did; else the memory tip. restart
// says why when the tip is left behind.
func (m *MemoryBranch) afterDivergence(ctx context.Context, tip, base string) (parent, restart string, err error) {
	mp, err := m.mergedUpTo(ctx, tip, base)
	switch {
	case err != nil:
		return "", "", fmt.Errorf("is %s merged into %s: %w", m.Ref(), m.Base, err)
	case mp.upTo == "":
		return tip, "", nil
	case mp.upTo == tip:
		return base, fmt.Sprintf("restarted from %s: %s was squash- or rebase-merged (its changes are in %s); old tip %s", m.Base, m.Branch, abbrev(mp.at), abbrev(tip)), nil
	}
	replayed, err := m.replay(ctx, base, mp.rest)
	switch {
	case err != nil:
		return "", "", fmt.Errorf("replay %s onto %s: %w", m.Ref(), m.Base, err)
	case replayed == "":
		return tip, "", nil
	}
	return replayed, fmt.Sprintf("restarted from %s: %s was partly squash- or rebase-merged (up to %s, in %s); %d unmerged commit(s) replayed; old tip %s", m.Base, m.Branch, abbrev(mp.upTo), abbrev(mp.at), len(mp.rest), abbrev(tip)), nil
}

// mergedPart is how much of a memory branch that diverged from the base
// the base holds by squash or rebase.
type mergedPart struct {
	upTo string   // the last memory commit whose changes the base holds: the tip, one before it, or "" (none)
	at   string   // the base commit that holds them
	rest []string // the memory commits after upTo, oldest first
}

// mergedUpTo finds the newest memory commit since the fork point whose
// changes (net, from the fork point) one base commit holds. Past the tip
// it looks only on a single line of commits (no merge on the branch),
// from the oldest up while each is held (picks and squashes take the
// branch's first commits), so an unmerged branch costs two searches.
func (m *MemoryBranch) mergedUpTo(ctx context.Context, tip, base string) (mergedPart, error) {
	fork, err := m.forkPoint(ctx, tip, base)
	if err != nil || fork == "" {
		return mergedPart{}, err // no history in common: nothing of the branch is in the base
	}
	commits, err := m.baseSince(ctx, fork, tip, base)
	if err != nil || len(commits) == 0 {
		return mergedPart{}, err
	}
	if at, err := m.squashMerged(ctx, fork, tip, commits); err != nil || at != "" {
		return mergedPart{upTo: tip, at: at}, err
	}
	chain, err := m.memoryChain(ctx, fork, tip)
	if err != nil {
		return mergedPart{}, err
	}
	var found mergedPart
	for k := 1; k < len(chain); k++ {
		at, err := m.squashMerged(ctx, fork, chain[k-1], commits)
		if err != nil {
			return mergedPart{}, err
		}
		if at == "" {
			break
		}
		found = mergedPart{upTo: chain[k-1], at: at, rest: chain[k:]}
	}
	return found, nil
}

// memoryChain lists the commits from the fork point to the tip, oldest
// first, when they form a single line (each one's only parent the one
// before); nil otherwise (a merge on the branch: nothing is replayed).
func (m *MemoryBranch) memoryChain(ctx context.Context, fork, tip string) ([]string, error) {
	out, err := m.Repo.Git.Run(ctx, "rev-list", "--reverse", "--parents", tip, "^"+fork, "--")
	if err != nil {
		return nil, fmt.Errorf("commits of %s since %s: %w", m.Ref(), fork, err)
	}
	var chain []string
	prev := fork
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) != 2 || f[1] != prev {
			return nil, nil
		}
		chain = append(chain, f[0])
		prev = f[0]
	}
	return chain, nil
}

// replay writes the commits again on onto, one by one, with their message,
// author and committer (so the same replay gives the same commits), and
// returns the last. It replays nothing ("") when a commit changes
// anything but regular files under .yoi/, or a path the base changed
// since (the file there is not the one the commit changed): the memory
// tip then stays the parent and nothing of the base is overwritten.
func (m *MemoryBranch) replay(ctx context.Context, onto string, commits []string) (string, error) {
	parent := plumbing.NewHash(onto)
	parentTree, err := m.Objects.commitTree(parent)
	if err != nil {
		return "", err
	}
	for _, c := range commits {
		orig, err := m.Objects.readCommit(plumbing.NewHash(c))
		if err != nil {
			return "", err
		}
		edits, ok, err := m.replayEdits(ctx, c, orig, parentTree)
		if err != nil || !ok {
			return "", err
		}
		tree, err := m.Objects.applyEdits(parentTree, edits)
		if err != nil {
			return "", fmt.Errorf("replay %s on %s: %w", c, parent, err)
		}
		next := &object.Commit{Author: orig.Author, Committer: orig.Committer, Message: orig.Message, TreeHash: tree, ParentHashes: []plumbing.Hash{parent}}
		if parent, err = m.Objects.writeCommit(next); err != nil {
			return "", err
		}
		parentTree = tree
	}
	return parent.String(), nil
}

// replayEdits is what commit c changed from its parent, as tree edits,
// (hash), when each changed path is a regular file under .yoi/ (or deleted) and
// holds in onto what it held in c's parent.
func (m *MemoryBranch) replayEdits(ctx context.Context, hash string, c *object.Commit, onto plumbing.Hash) ([]treeEdit, bool, error) {
	before, err := m.Objects.commitTree(c.ParentHashes[0])
	if err != nil {
		return nil, false, err
	}
	var edits []treeEdit
	changed, err := m.changedPaths(ctx, c.ParentHashes[0].String(), hash)
	if err != nil {
		return nil, false, err
	}
	for p, after := range changed {
		if !strings.HasPrefix(p, m.Prefix+"/") || (!after.hash.IsZero() && after.mode != filemode.Regular) {
			return nil, false, nil
		}
		was, err := m.Objects.entryAt(before, p)
		if err != nil {
			return nil, false, err
		}
		now, err := m.Objects.entryAt(onto, p)
		if err != nil {
			return nil, false, err
		}
		if was != now {
			return nil, false, nil
		}
		edits = append(edits, treeEdit{path: p, blob: after.hash})
	}
	return edits, true, nil
}
