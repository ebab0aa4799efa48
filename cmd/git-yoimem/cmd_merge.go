package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/workspace"
)

type mergeOptions struct{}

func newMergeCommand(env Env, g *globalOptions) *cli.Command {
	var opts mergeOptions
	return &cli.Command{
		Name:      "merge",
		Usage:     "merge the memory branch into the current branch",
		UsageText: "git yoimem merge",
		Description: `Runs 'git merge' of the memory branch (yoimem.branch, default
yoimem/memory) into the branch you are on. It refuses while .yoi/ has
uncommitted changes (staged, unstaged or untracked), so that no edit of
yours is mixed into the merge, and it refuses a memory branch that would
bring files outside .yoi/ (compared with its merge base with HEAD; no
setting turns this off). A pull request from the memory branch is the
other way to apply memory.`,
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("merge takes no arguments")
			}
			return runMerge(c.Context, env, g, opts)
		},
	}
}

func runMerge(ctx context.Context, env Env, g *globalOptions, _ mergeOptions) error {
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	branch := w.Config.String(config.KeyBranch)
	ref := "refs/heads/" + branch
	// The commit is read once: the guard checks it and merge merges it, so
	// that a branch moving in between brings nothing unchecked.
	tip, err := gitstore.CommitOfRef(ctx, w.Repo, ref)
	switch {
	case errors.Is(err, gitstore.ErrNoRef):
		return cannotRun(fmt.Errorf("no memory branch %s yet", branch), "memory commits are written by consolidation; nothing to merge until one exists")
	case err != nil:
		return cannotRun(err, "'git reflog "+ref+"' shows where it pointed before; 'git update-ref "+ref+" <commit>' repairs it")
	}
	prefix, err := yoiPrefix(w)
	if err != nil {
		return err
	}
	var dirty *gitstore.DirtyError
	if err := gitstore.CheckClean(ctx, w.Repo, prefix); errors.As(err, &dirty) {
		return &exitError{code: exitFindings,
			err:   fmt.Errorf("%s/ has uncommitted changes; refusing to merge %s:\n%s", prefix, branch, dirty.Status),
			hints: []string{"commit or stash them first ('git stash push -- " + prefix + "')"}}
	} else if err != nil {
		return cannotRun(err)
	}
	if err := mergeGuard(ctx, w, tip, branch, prefix); err != nil {
		return err
	}
	out, err := gitstore.MergeCommit(ctx, w.Repo, tip, branch)
	var me *gitstore.MergeError
	if errors.As(err, &me) {
		fmt.Fprint(env.Stderr, me.Output)
		return &exitError{code: exitFindings, err: fmt.Errorf("git merge %s failed", branch),
			hints: []string{"resolve the conflicts under " + prefix + "/ and commit, or 'git merge --abort'"}}
	}
	fmt.Fprint(env.Stderr, out)
	return err
}

// mergeGuard refuses a memory branch that would bring anything but .yoi/:
// it compares the branch with its merge base with HEAD, so that no setting
// (a committed yoimem.baseBranch naming a missing branch, or the memory
// branch itself) can skip the check.
func mergeGuard(ctx context.Context, w *workspace.Workspace, tip, branch, prefix string) error {
	scope, err := gitstore.ScopeOfMerge(ctx, w.Repo, tip, branch)
	switch {
	case errors.Is(err, gitstore.ErrUnbornHead):
		return &exitError{code: exitFindings, err: err,
			hints: []string{"commit on the current branch first, or check out the branch the memory belongs to"}}
	case errors.Is(err, gitstore.ErrNoCommonAncestor):
		return &exitError{code: exitFindings, err: fmt.Errorf("refusing to merge %s: %w", branch, err),
			hints: []string{"check out the branch the memory branch was built on (yoimem.baseBranch, or the default branch)"}}
	case err != nil:
		return cannotRun(err)
	}
	if outside := scope.Outside(prefix); len(outside) > 0 {
		q := w.PathQuoter(ctx)
		for i, p := range outside {
			outside[i] = q.Path(p)
		}
		return &exitError{code: exitFindings,
			err:   fmt.Errorf("%s changes files outside %s/ against %s; refusing to merge:\n  %s", branch, prefix, scope.Into, strings.Join(outside, "\n  ")),
			hints: []string{"memory commits touch only " + prefix + "/; inspect the branch with 'git log -p " + scope.Into + ".." + branch + "'"}}
	}
	return nil
}
