package gitstore

import (
	"context"
	"errors"
	"fmt"
)

// ErrParentMoved means the commit a memory commit was planned on is no
// longer the one it would be written on.
var ErrParentMoved = errors.New("the memory branch's parent moved")

// ParentMovedError is a commit refused because its parent changed since it
// was planned (CommitRequest.ExpectParent): another writer moved the
// memory branch, or the base branch moved or merged it. The change set
// was worked out against a tree that is no longer the parent's: plan again.
type ParentMovedError struct {
	Ref      string
	Expected string // the parent the change set was planned on
	Parent   string // the parent it would be written on now
}

func (e *ParentMovedError) Error() string {
	return fmt.Sprintf("%s: the next commit would be written on %s, not on %s as planned: %v", e.Ref, e.Parent, e.Expected, ErrParentMoved)
}

func (e *ParentMovedError) Unwrap() error { return ErrParentMoved }

// Parent is the commit the next memory commit would be written on: the
// memory branch tip while it is not merged into the base, else the base
// tip ("" when neither exists). Merged means an ancestor of the base, or
// its changes to .yoi/ all in one base commit since the fork point (a
// squash or rebase merge). Consolidation plans on that commit's
// tree (DESIGN 7: the base of a run), never on the working tree.
func (m *MemoryBranch) Parent(ctx context.Context) (string, error) {
	if err := CheckBranchName(m.Branch); err != nil {
		return "", err
	}
	tip, base, err := m.tips(ctx)
	if err != nil {
		return "", err
	}
	p, _, err := m.parent(ctx, tip, base)
	return p, err
}

// UnmergedSince is where the memory commits the base does not have yet
// begin: `<since>..<branch>` lists them. It is the base ref, or, for a
// branch merged by squash or rebase, the last memory commit whose changes
// the base holds (the tip itself when it holds them all).
func (m *MemoryBranch) UnmergedSince(ctx context.Context) (string, error) {
	if err := CheckBranchName(m.Branch); err != nil {
		return "", err
	}
	tip, base, err := m.tips(ctx)
	if err != nil || tip == "" || base == "" {
		return m.Base, err
	}
	a, err := m.ancestry(ctx, tip, base)
	if err != nil || a != tipDiverged {
		return m.Base, err
	}
	mp, err := m.mergedUpTo(ctx, tip, base)
	switch {
	case err != nil:
		return "", fmt.Errorf("is %s merged into %s: %w", m.Ref(), m.Base, err)
	case mp.upTo == "":
		return m.Base, nil
	}
	return mp.upTo, nil
}

// Merged reports whether the base holds the whole memory branch: its tip
// is an ancestor of the base, or a squash or rebase merge put all its
// changes there. A memory branch that does not exist is not merged.
func (m *MemoryBranch) Merged(ctx context.Context) (bool, error) {
	if err := CheckBranchName(m.Branch); err != nil {
		return false, err
	}
	tip, base, err := m.tips(ctx)
	switch {
	case err != nil || tip == "" || base == "":
		return false, err
	case tip == base:
		return true, nil
	}
	a, err := m.ancestry(ctx, tip, base)
	if err != nil || a != tipDiverged {
		return a == tipInBase && err == nil, err
	}
	mp, err := m.mergedUpTo(ctx, tip, base)
	if err != nil {
		return false, fmt.Errorf("is %s merged into %s: %w", m.Ref(), m.Base, err)
	}
	return mp.upTo == tip, nil
}
