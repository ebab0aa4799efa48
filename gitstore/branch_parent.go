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
