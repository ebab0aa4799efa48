package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
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
yours is mixed into the merge. A pull request from the memory branch is
the other way to apply memory.`,
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
	branch := w.cfg.String(config.KeyBranch)
	ref := "refs/heads/" + branch
	if _, err := w.repo.Git.Run(ctx, "rev-parse", "--verify", "-q", ref); err != nil {
		return cannotRun(fmt.Errorf("no memory branch %s yet", branch), "memory commits are written by consolidation, which comes in a later version; nothing to merge until then")
	}
	prefix, err := yoiPrefix(w)
	if err != nil {
		return err
	}
	status, err := w.repo.Git.Run(ctx, "status", "--porcelain", "--untracked-files=all", "--", prefix+"/")
	if err != nil {
		return cannotRun(err)
	}
	if dirty := strings.TrimRight(string(status), "\n"); strings.TrimSpace(dirty) != "" {
		return &exitError{code: exitFindings,
			err:   fmt.Errorf("%s/ has uncommitted changes; refusing to merge %s:\n%s", prefix, branch, dirty),
			hints: []string{"commit or stash them first ('git stash push -- " + prefix + "')"}}
	}
	if outside, err := outsideYoi(ctx, w, ref, prefix); err != nil {
		return cannotRun(err)
	} else if len(outside) > 0 {
		return &exitError{code: exitFindings,
			err:   fmt.Errorf("%s changes files outside %s/ against its base; refusing to merge:\n  %s", branch, prefix, strings.Join(outside, "\n  ")),
			hints: []string{"memory commits touch only " + prefix + "/; inspect the branch with 'git log -p " + branch + "'"}}
	}
	out, err := w.repo.Git.Run(ctx, "merge", "--no-edit", "-m", "Merge memory branch "+branch, ref)
	fmt.Fprint(env.Stderr, string(out))
	var ge *gitstore.Error
	if errors.As(err, &ge) {
		fmt.Fprint(env.Stderr, ge.Stderr)
		return &exitError{code: exitFindings, err: fmt.Errorf("git merge %s failed", branch),
			hints: []string{"resolve the conflicts under " + prefix + "/ and commit, or 'git merge --abort'"}}
	}
	return err
}

// outsideYoi lists what the memory branch changes outside .yoi/ relative
// to its base: a memory branch must bring memory only.
func outsideYoi(ctx context.Context, w *workspace, ref, prefix string) ([]string, error) {
	base, err := gitstore.ResolveBase(ctx, w.repo, w.cfg.String(config.KeyBaseBranch))
	if err != nil {
		return nil, nil // no base to compare with: git merge shows what it brings
	}
	out, err := w.repo.Git.Run(ctx, "diff", "--name-only", "-z", "--no-renames", base+"..."+ref)
	if err != nil {
		return nil, fmt.Errorf("list what %s changes: %w", ref, err)
	}
	var outside []string
	for _, p := range strings.Split(strings.TrimRight(string(out), "\x00"), "\x00") {
		if p != "" && !strings.HasPrefix(p, prefix+"/") {
			outside = append(outside, p)
		}
	}
	return outside, nil
}
