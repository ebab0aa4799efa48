package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memory"
)

type memoryOptions struct {
	op       string
	path     string
	create   bool
	old, new string
}

func newMemoryCommand(env Env, g *globalOptions) *cli.Command {
	var opts memoryOptions
	return &cli.Command{
		Name:      "memory",
		Usage:     "the memory tools for agents that run shell commands: read, write, edit, delete",
		ArgsUsage: "read|write|edit|delete PATH",
		UsageText: "git yoimem memory read PATH\ngit yoimem memory write PATH [--create] < FILE\ngit yoimem memory edit PATH --old TEXT --new TEXT\ngit yoimem memory delete PATH",
		Description: `The same tools an MCP client or the consolidation agent gets, on records
of the working tree. PATH is relative to .yoi/ (e.g. knowledge/retry.md).

   read PATH                       print the record
   write PATH [--create] < FILE    replace it (or create it: refused when
                                   the slug exists; update instead)
   edit PATH --old TEXT --new TEXT replace the one occurrence of TEXT
   delete PATH                     remove it (decisions are replaced, not
                                   deleted)

Every write is linted first, as automation: only records under memory/ and
knowledge/, never workflow/, never a read-only file. A refusal lists the
findings and exits 1; nothing is written.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "create", Usage: "write: create a new record", Destination: &opts.create},
			&cli.StringFlag{Name: "old", Usage: "edit: the `TEXT` to replace", Destination: &opts.old},
			&cli.StringFlag{Name: "new", Usage: "edit: the replacement `TEXT`", Destination: &opts.new},
		},
		Action: func(c *cli.Context) error {
			opts.op, opts.path = c.Args().Get(0), c.Args().Get(1)
			if err := checkMemoryArgs(c.NArg(), opts.op); err != nil {
				return err
			}
			return runMemory(c.Context, env, g, opts)
		},
	}
}

var memoryOps = []string{"read", "write", "edit", "delete"}

// checkMemoryArgs: an operation and one PATH.
func checkMemoryArgs(n int, op string) error {
	switch {
	case n == 0:
		return usageError("memory needs an operation and a PATH")
	case !slices.Contains(memoryOps, op):
		return choiceError("memory operation", op, memoryOps, "git yoimem memory")
	case n == 1:
		return usageError("memory %s needs a PATH", op)
	case n > 2:
		return usageError("memory %s takes one PATH", op)
	}
	return nil
}

func runMemory(ctx context.Context, env Env, g *globalOptions, opts memoryOptions) error {
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	tools := worktreeTools(w)
	var warnings []lint.Finding
	switch opts.op {
	case "read":
		b, err := tools.Read(opts.path)
		if err != nil {
			return toolError(err)
		}
		recordUse(env, g, w, "read", opts.path)
		_, err = env.Stdout.Write(b)
		return err
	case "write":
		content, rerr := io.ReadAll(io.LimitReader(env.Stdin, 16<<20))
		if rerr != nil {
			return cannotRun(fmt.Errorf("read stdin: %w", rerr))
		}
		warnings, err = tools.Write(opts.path, content, opts.create)
	case "edit":
		warnings, err = tools.Edit(opts.path, opts.old, opts.new)
	case "delete":
		warnings, err = tools.Delete(opts.path)
	}
	if err != nil {
		return toolError(err)
	}
	for _, f := range warnings {
		warnf(env.Stderr, ".yoi/%s:%d:%d: %s: %s", f.Path, f.Line, f.Col, f.Rule, f.Message)
	}
	statusf(env.Stderr, "%s .yoi/%s", map[string]string{"write": "wrote", "edit": "edited", "delete": "deleted"}[opts.op], opts.path)
	return nil
}

// toolError maps the tools' refusals to exit 1 and the rest to exit 2.
func toolError(err error) error {
	var r *memory.Refusal
	switch {
	case errors.As(err, &r), errors.Is(err, memory.ErrReadOnly), errors.Is(err, memory.ErrNotFound):
		return &exitError{code: exitFindings, err: err}
	}
	// edit's "does not occur" and friends are the caller's to fix too;
	// I/O failures surface as they are (exit 2).
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return cannotRun(err)
	}
	return &exitError{code: exitFindings, err: err}
}

// worktreeTools are the memory tools on the working tree's .yoi/.
func worktreeTools(w *workspace) *memory.Tools {
	return &memory.Tools{
		Store: gitstore.WorktreeStore{Root: w.root, MaxRead: w.cfg.Int(config.KeyLintMaxFileBytes)},
		Lint:  lintOptions(w.cfg),
	}
}
