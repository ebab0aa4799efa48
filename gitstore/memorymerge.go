package gitstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// DirtyError is prefix/ having uncommitted changes (staged, unstaged or
// untracked; ignored files, such as the staging, do not count): a merge
// into the branch would mix them in.
type DirtyError struct {
	Prefix string
	Status string // git status --porcelain lines under prefix/
}

func (e *DirtyError) Error() string {
	return fmt.Sprintf("%s/ has uncommitted changes:\n%s", e.Prefix, e.Status)
}

// MergeError is git merge failing (a conflict): Output is what it printed.
// MergeMemory leaves the merge for the person to resolve; AutoMerge aborts
// it.
type MergeError struct {
	Branch string
	Output string
	Err    error
}

func (e *MergeError) Error() string { return fmt.Sprintf("git merge %s failed: %v", e.Branch, e.Err) }
func (e *MergeError) Unwrap() error { return e.Err }

// CheckClean returns a *DirtyError when prefix/ has uncommitted changes.
func CheckClean(ctx context.Context, r Repo, prefix string) error {
	status, err := r.Git.Run(ctx, "status", "--porcelain", "--untracked-files=all", "--", prefix+"/")
	if err != nil {
		return fmt.Errorf("status of %s/: %w", prefix, err)
	}
	if dirty := strings.TrimRight(string(status), "\n"); strings.TrimSpace(dirty) != "" {
		return &DirtyError{Prefix: prefix, Status: dirty}
	}
	return nil
}

// MergeCommit runs git merge of commit tip (read once from the memory
// branch, so that a branch moving meanwhile brings nothing unchecked)
// into the current branch, with the message "Merge memory branch
// <branch>", and returns what git printed. A failed merge is a
// *MergeError. The caller has checked it (CheckClean, ScopeOfMerge).
func MergeCommit(ctx context.Context, r Repo, tip, branch string) (string, error) {
	out, err := r.Git.Run(ctx, "merge", "--no-edit", "-m", "Merge memory branch "+branch, tip)
	var ge *Error
	if errors.As(err, &ge) {
		return string(out), &MergeError{Branch: branch, Output: string(out) + ge.Stderr, Err: err}
	}
	return string(out), err
}

// InProgress names the operation that has the working tree in the middle
// of it (a merge, a rebase, a cherry-pick, a revert), or "".
func InProgress(r Repo) (string, error) {
	for _, s := range []struct{ file, what string }{
		{"MERGE_HEAD", "a merge"}, {"rebase-merge", "a rebase"}, {"rebase-apply", "a rebase"},
		{"CHERRY_PICK_HEAD", "a cherry-pick"}, {"REVERT_HEAD", "a revert"},
	} {
		_, err := os.Lstat(filepath.Join(r.GitDir, s.file))
		if err == nil {
			return s.what, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("is %s in progress: %w", s.what, err)
		}
	}
	return "", nil
}

// AutoMergeRequest is a memory commit (or a series) to bring into the
// current branch.
type AutoMergeRequest struct {
	Branch string // the memory branch, yoimem.branch
	Prefix string // .yoi/ relative to the top level
	Tip    string // the last memory commit made
	First  string // the first memory commit made: its parent is what the memory was built on
}

// AutoMergeResult says whether AutoMerge merged, and if not, why.
type AutoMergeResult struct {
	Merged bool   `json:"merged"`
	Reason string `json:"reason"`
}

func notMerged(format string, args ...any) AutoMergeResult {
	return AutoMergeResult{Reason: fmt.Sprintf(format, args...)}
}

// AutoMerge merges the memory commit m.Tip into the current branch, as
// git yoimem merge does (MergeCommit), when that is a fast-forward of
// .yoi/ alone: a branch is checked out (not detached, not the memory
// branch itself, no merge, rebase, cherry-pick or revert in progress),
// prefix/ is clean (CheckClean), the memory commits change nothing
// outside prefix/ (ScopeOfMerge), and the branch's prefix/ tree is the one
// the memory commits were built on (m.First's parent's), so that bringing prefix/
// to the tip loses nothing. Otherwise it changes nothing and gives the
// reason. A merge that fails anyway is aborted. Errors are the checks
// failing to run.
func AutoMerge(ctx context.Context, r Repo, m AutoMergeRequest) (AutoMergeResult, error) {
	if err := ctx.Err(); err != nil {
		return AutoMergeResult{}, err
	}
	if r.TopLevel == "" {
		return notMerged("the repository has no working tree"), nil
	}
	if what, err := InProgress(r); err != nil {
		return AutoMergeResult{}, err
	} else if what != "" {
		return notMerged("%s is in progress", what), nil
	}
	head, err := r.Git.Run(ctx, "symbolic-ref", "-q", "HEAD")
	var ge *Error
	if errors.As(err, &ge) && ge.ExitCode == 1 && ctx.Err() == nil {
		return notMerged("HEAD is detached; check out a branch and run 'git yoimem merge'"), nil
	} else if err != nil {
		return AutoMergeResult{}, errOrCanceled(ctx, fmt.Errorf("read HEAD: %w", err))
	}
	current := strings.TrimSpace(string(head))
	if current == "refs/heads/"+m.Branch {
		return notMerged("the current branch is the memory branch %s", m.Branch), nil
	}
	var dirty *DirtyError
	if err := CheckClean(ctx, r, m.Prefix); errors.As(err, &dirty) {
		return notMerged("%s/ has uncommitted changes; commit or stash them, then run 'git yoimem merge'", m.Prefix), nil
	} else if err != nil {
		return AutoMergeResult{}, err
	}
	scope, err := ScopeOfMerge(ctx, r, m.Tip, m.Branch)
	if ctx.Err() != nil {
		return AutoMergeResult{}, ctx.Err()
	}
	if errors.Is(err, ErrUnbornHead) || errors.Is(err, ErrNoCommonAncestor) {
		return notMerged("%v", err), nil
	} else if err != nil {
		return AutoMergeResult{}, err
	}
	if out := scope.Outside(m.Prefix); len(out) > 0 {
		return notMerged("%s changes files outside %s/ (%s)", m.Branch, m.Prefix, strings.Join(out, ", ")), nil
	}
	same, err := builtOn(r, current, m.First, m.Prefix)
	if err != nil {
		return AutoMergeResult{}, err
	}
	if !same {
		return notMerged("%s/ on %s differs from what %s was built on; run 'git yoimem merge' to merge it", m.Prefix, scope.Into, m.Branch), nil
	}
	// The merge is short and is not cut by an interrupt: it is done, or
	// not begun, never left half-way.
	if err := ctx.Err(); err != nil {
		return AutoMergeResult{}, err
	}
	if _, err := MergeCommit(context.WithoutCancel(ctx), r, m.Tip, m.Branch); err != nil {
		var me *MergeError
		if errors.As(err, &me) {
			_, _ = r.Git.Run(context.WithoutCancel(ctx), "merge", "--abort")
			return notMerged("git merge failed and was aborted: %s", strings.TrimSpace(me.Output)), nil
		}
		return AutoMergeResult{}, err
	}
	return AutoMergeResult{Merged: true, Reason: fmt.Sprintf("merged %s into %s", m.Branch, scope.Into)}, nil
}

// errOrCanceled is ctx's error when it is done (the git command was
// stopped by it), else err.
func errOrCanceled(ctx context.Context, err error) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// builtOn tells whether ref's prefix/ tree is the one commit was built
// on: its first parent's (no prefix/ in either counts as the same).
func builtOn(r Repo, ref, commit, prefix string) (bool, error) {
	objs, err := OpenObjects(r)
	if err != nil {
		return false, err
	}
	head, err := objs.RefHash(ref)
	if err != nil {
		return false, err
	}
	parents, _, err := objs.commitInfo(plumbing.NewHash(commit))
	if err != nil {
		return false, err
	}
	if len(parents) == 0 {
		return false, nil // a root memory commit: built on nothing of the branch
	}
	var trees [2]plumbing.Hash
	for i, c := range []plumbing.Hash{plumbing.NewHash(head), parents[0]} {
		if trees[i], err = PrefixTree(objs, c, prefix); err != nil {
			return false, err
		}
	}
	return trees[0] == trees[1], nil
}
