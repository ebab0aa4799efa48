package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/memsync"
)

func newPushCommand(env Env, g *globalOptions) *cli.Command {
	var format string
	return &cli.Command{
		Name:      "push",
		Usage:     "share the memory branch and its notes through the remote",
		ArgsUsage: "[REMOTE]",
		UsageText: "git yoimem push [--format text|json] [REMOTE]",
		Description: `Brings the remote's memory in first (as 'git yoimem pull'), then pushes
the memory branch (yoimem.branch) and the notes (refs/notes/yoimem) to
REMOTE (default: yoimem.remote, else the base branch's remote, else
origin), never forced. When another clone pushed in between, the push is
rejected by the remote; it then pulls again and pushes again, at most 5
times. Your hooks run as for any push (the pre-push hook checks the
memory commits).

When a record was changed on both sides at the same lines, nothing is
pushed (exit 1): resolve it with git (docs/sync.md). A push the remote
refuses (its hooks, a protected branch) or the pre-push hook refuses
exits 1 too; a remote that cannot be reached exits 2.

--format json prints the sync's report, with what the remote did with
each ref under "pushed".`,
		Flags: []cli.Flag{formatFlag(&format)},
		Action: func(c *cli.Context) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			if c.NArg() > 1 {
				return usageError("push takes at most one REMOTE")
			}
			return runPush(c.Context, env, g, format, c.Args().First())
		},
	}
}

func runPush(ctx context.Context, env Env, g *globalOptions, format, remote string) error {
	_, o, err := openSync(ctx, env, g, "push", remote)
	if err != nil {
		return err
	}
	tip, err := o.Branch.Objects.RefHash(o.Branch.Ref())
	if err != nil {
		return cannotRun(err)
	}
	if tip == "" {
		if rep, err := memsync.Pull(ctx, o); err != nil || rep.Outcome != "" && rep.After != "" {
			return finishSync(env, format, rep, err) // nothing of ours; the remote's is here now
		}
		return cannotRun(fmt.Errorf("no memory branch %s yet, here or on %s", o.Branch.Branch, o.Remote), "memory commits are written by consolidation ('git yoimem consolidate'); push after one")
	}
	rep, err := memsync.Push(ctx, o)
	return finishSync(env, format, rep, err)
}
