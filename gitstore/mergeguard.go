package gitstore

import (
	"context"
	"errors"
	"fmt"
	"strings"
)

// ErrUnbornHead means HEAD names a branch that has no commit yet.
var ErrUnbornHead = errors.New("HEAD has no commit yet")

// ErrNoCommonAncestor means two commits share no history.
var ErrNoCommonAncestor = errors.New("no common ancestor")

// MergeScope is what merging a branch into HEAD would bring.
type MergeScope struct {
	Into    string   // the current branch's short name, or "HEAD" when detached
	Base    string   // the merge base of HEAD and the branch
	Changed []string // top-level-relative, slash-separated paths the branch changes since Base
}

// ScopeOfMerge lists the paths that merging ref into HEAD would change: the
// difference between their merge base and ref. It depends on HEAD and ref
// only, never on configuration, so that no setting can hide what a merge
// brings; an unborn HEAD or unrelated histories are errors, not an empty
// list. Messages call ref name (a branch's name for the commit it held).
func ScopeOfMerge(ctx context.Context, r Repo, ref, name string) (MergeScope, error) {
	var s MergeScope
	head, err := r.Git.Run(ctx, "rev-parse", "-q", "--verify", "HEAD^{commit}")
	if err != nil && ctx.Err() != nil {
		return s, fmt.Errorf("read HEAD: %w", ctx.Err())
	} else if err != nil {
		return s, fmt.Errorf("%w: nothing to merge %s into", ErrUnbornHead, name)
	}
	s.Into = "HEAD"
	if out, err := r.Git.Run(ctx, "symbolic-ref", "-q", "--short", "HEAD"); err == nil {
		s.Into = strings.TrimSpace(string(out))
	}
	out, err := r.Git.Run(ctx, "merge-base", strings.TrimSpace(string(head)), ref)
	var ge *Error
	switch {
	case ctx.Err() != nil:
		return s, fmt.Errorf("merge base of %s and %s: %w", s.Into, name, ctx.Err())
	case errors.As(err, &ge) && ge.ExitCode == 1 && strings.TrimSpace(ge.Stderr) == "":
		return s, fmt.Errorf("%s and %s: %w", s.Into, name, ErrNoCommonAncestor)
	case err != nil:
		return s, fmt.Errorf("merge base of %s and %s: %w", s.Into, name, err)
	}
	s.Base = strings.TrimSpace(string(out))
	out, err = r.Git.Run(ctx, "diff-tree", "-r", "--name-only", "-z", "--no-renames", s.Base, ref, "--")
	if err != nil {
		return s, fmt.Errorf("list what %s changes since %.12s: %w", name, s.Base, err)
	}
	for _, p := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if p != "" {
			s.Changed = append(s.Changed, p)
		}
	}
	return s, nil
}

// Outside returns the changed paths that are not under prefix/.
func (s MergeScope) Outside(prefix string) []string {
	var out []string
	for _, p := range s.Changed {
		if !strings.HasPrefix(p, prefix+"/") {
			out = append(out, p)
		}
	}
	return out
}
