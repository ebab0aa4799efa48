package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/consolidate/setup"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/memsync"
	"github.com/yoimem/git-yoimem/workspace"
)

func newPullCommand(env Env, g *globalOptions) *cli.Command {
	var format string
	return &cli.Command{
		Name:      "pull",
		Usage:     "bring the remote's memory branch and notes into this clone's",
		ArgsUsage: "[REMOTE]",
		UsageText: "git yoimem pull [--format text|json] [REMOTE]",
		Description: `Fetches the memory branch (yoimem.branch) and the notes
(refs/notes/yoimem) of REMOTE (default: yoimem.remote, else the base
branch's remote, else origin) and brings them in: the local memory branch
fast-forwards when it is behind; when both moved, the local memory
commits the remote lacks are replayed onto the remote's, one by one, with
their messages and trailers, and a record changed on both sides is merged
as the merge driver merges it (docs/merging.md). Their notes follow them.
Only the memory branch, the notes ref and their tracking refs
(refs/remotes/REMOTE/BRANCH, refs/notes/remotes/REMOTE/yoimem) move; the
working tree, the index and HEAD are not touched.

When a record was changed on both sides at the same lines, nothing moves
and the records are named (exit 1): resolve it with git (docs/sync.md).

--format json prints the sync's report with snake_case keys.`,
		Flags: []cli.Flag{formatFlag(&format)},
		Action: func(c *cli.Context) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			if c.NArg() > 1 {
				return usageError("pull takes at most one REMOTE")
			}
			return runPull(c.Context, env, g, format, c.Args().First())
		},
	}
}

func runPull(ctx context.Context, env Env, g *globalOptions, format, remote string) error {
	_, o, err := openSync(ctx, env, g, "pull", remote)
	if err != nil {
		return err
	}
	rep, err := memsync.Pull(ctx, o)
	return finishSync(env, format, rep, err)
}

// openSync wires a sync of the workspace's memory branch with remote for
// command (push or pull, named in hints).
func openSync(ctx context.Context, env Env, g *globalOptions, command, remote string) (*workspace.Workspace, memsync.Options, error) {
	if strings.HasPrefix(remote, "-") {
		return nil, memsync.Options{}, usageError("REMOTE %s: a remote's name does not start with '-'", quote.Value(remote))
	}
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return nil, memsync.Options{}, err
	}
	branch, err := memoryBranch(ctx, w)
	if err != nil {
		return nil, memsync.Options{}, err
	}
	o, err := setup.Sync(ctx, w, branch, remote, env.Now)
	if errors.Is(err, gitstore.ErrNoRemote) {
		name := "name one ('git yoimem push REMOTE')"
		if command == "pull" {
			name = "name one ('git yoimem pull REMOTE')"
		}
		return nil, o, cannotRun(err, "add one ('git remote add origin URL'), "+name+", or set yoimem.remote")
	}
	if err != nil {
		return nil, o, cannotRun(err)
	}
	return w, o, nil
}

// finishSync prints a sync's report and maps its outcome to the exit
// code: a conflict, a push a hook or the remote refused, a branch
// checked out elsewhere are refusals (1), a failure cannot run (2), a
// held lock 3.
func finishSync(env Env, format string, rep memsync.Report, err error) error {
	if format == "json" && (err == nil || rep.Outcome != "") {
		if jerr := writeJSON(env, rep); jerr != nil && err == nil {
			err = jerr
		}
	} else if format != "json" {
		printSync(env, rep)
	}
	var checkedOut *gitstore.CheckedOutError
	var refused *memsync.RefusedError
	switch {
	case errors.As(err, &refused):
		return &exitError{code: exitFindings, err: err, hints: []string{"the remote's hooks or branch rules refused the memory branch; ask its owners to let " + refused.Ref + " be pushed, or set yoimem.remote to another remote"}}
	case errors.Is(err, gitstore.ErrPushDeclined):
		return &exitError{code: exitFindings, err: err, hints: []string{"the repository's pre-push hook refused the push; fix what it reported (for git-yoimem's hook: 'git yoimem lint' on the memory branch), then push again"}}
	case errors.As(err, &checkedOut):
		return &exitError{code: exitFindings, err: err, hints: []string{"bring the remote's memory in there: 'git -C " + checkedOut.Worktree + " merge " + rep.Tracked + "' (or switch that worktree to another branch), then run this again"}}
	case errors.Is(err, gitstore.ErrLocked):
		return &exitError{code: exitLocked, err: err, hints: []string{"another git-yoimem process is writing the memory branch; try again when it is done"}}
	case err != nil:
		return cannotRun(err, "nothing was pushed or moved unless it says so; run it again")
	case rep.Conflicted():
		return &exitError{code: exitFindings, err: fmt.Errorf("%w: nothing was moved", memsync.ErrConflict),
			hints: []string{"merge by hand: 'git worktree add ../memory " + strings.TrimPrefix(rep.Tracked, rep.Remote+"/") + "', there 'git merge " + rep.Tracked + "', resolve, commit, then 'git yoimem push' (docs/sync.md)"}}
	}
	return nil
}

// printSync tells on stderr what a sync did.
func printSync(env Env, rep memsync.Report) {
	if line := syncLine(rep); line != "" {
		statusf(env.Stderr, "%s", line)
	}
	for _, c := range rep.Conflicts {
		what := c.Path + ": " + c.Reason
		if c.Commit != "" {
			what += " (replaying " + shortHash(c.Commit) + ")"
		}
		warnf(env.Stderr, "%s", what)
	}
	for _, p := range rep.Pushed {
		statusf(env.Stderr, "%s %s: %s", rep.Remote, p.Ref, strings.ReplaceAll(p.Status, "_", " "))
	}
}

// syncLine says in one line how the local memory took the remote's.
func syncLine(rep memsync.Report) string {
	from := rep.Tracked
	switch rep.Outcome {
	case gitstore.NoRemoteBranch:
		return from + " does not exist yet"
	case gitstore.UpToDate:
		return "the memory branch is up to date with " + from
	case gitstore.Ahead:
		return "the memory branch is ahead of " + from
	case gitstore.Created, gitstore.FastForward:
		return fmt.Sprintf("the memory branch now is %s (%s)", from, shortHash(rep.After))
	case gitstore.Replayed:
		line := fmt.Sprintf("replayed %s onto %s", count(len(rep.Replayed), "local memory commit", "local memory commits"), from)
		if len(rep.Merged) > 0 {
			line += "; merged " + strings.Join(rep.Merged, ", ")
		}
		if len(rep.Kept) > 0 {
			line += "; kept (deleted on one side, changed on the other) " + strings.Join(rep.Kept, ", ")
		}
		return line
	case gitstore.Superseded:
		line := from + " was merged into the base branch by squash or rebase; a merge commit records it"
		if len(rep.Replayed) > 0 {
			line += fmt.Sprintf(" (%s replayed onto the base branch)", count(len(rep.Replayed), "local memory commit", "local memory commits"))
		}
		return line
	case gitstore.Conflicted:
		return fmt.Sprintf("%s and the local memory branch changed the same lines; nothing was moved", from)
	}
	return ""
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
