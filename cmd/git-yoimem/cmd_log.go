package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

type logOptions struct {
	format string
	rng    string
}

func newLogCommand(env Env, g *globalOptions) *cli.Command {
	var opts logOptions
	return &cli.Command{
		Name:      "log",
		Usage:     "list memory commits with their operations and categories",
		ArgsUsage: "[REV-RANGE]",
		UsageText: "git yoimem log [--format text|json] [REV-RANGE]",
		Description: `Lists the memory commits (commits with a Yoimem-Run trailer) reachable
from the memory branch, newest first, or from REV-RANGE (any range git log
takes, e.g. main..yoimem/memory). Each shows its record operations
(add, update, replace A -> B, drop, merge, split, trim, rewrite) with
category and reason, and its run ID, engine and category counts.

--format json prints an array of {commit, date, subject, ops, run_id,
engine, model, consumed, sessions, categories}; each op is {op, path,
target, category, reason}. Paths print from the workspace root
(.yoi/memory/decisions/x.md), in text and JSON.`,
		Flags: []cli.Flag{formatFlag(&opts.format)},
		Action: func(c *cli.Context) error {
			if err := checkFormat(opts.format); err != nil {
				return err
			}
			if c.NArg() > 1 {
				return usageError("log takes at most one REV-RANGE")
			}
			opts.rng = c.Args().First()
			return runLog(c.Context, env, g, opts)
		},
	}
}

func runLog(ctx context.Context, env Env, g *globalOptions, opts logOptions) error {
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	rng := opts.rng
	if strings.HasPrefix(rng, "-") {
		return badRange(rng, "a range does not start with '-'")
	}
	if rng == "" {
		rng = "refs/heads/" + w.Config.String(config.KeyBranch)
		_, err := gitstore.CommitOfRef(ctx, w.Repo, rng)
		switch {
		case errors.Is(err, gitstore.ErrNoRef):
			statusf(env.Stderr, "no memory branch yet (%s)", strings.TrimPrefix(rng, "refs/heads/"))
			return emptyLog(env, opts.format)
		case err != nil:
			return cannotRun(err, "'git reflog "+rng+"' shows where it pointed before; 'git update-ref "+rng+" <commit>' repairs it, 'git update-ref -d "+rng+"' removes it")
		}
	}
	entries, bad, err := gitstore.MemoryLog(ctx, w.Repo, rng)
	var ge *gitstore.Error
	switch {
	case errors.As(err, &ge) && opts.rng != "" && ge.ExitCode == 128:
		return badRange(rng, ge.Message())
	case errors.As(err, &ge):
		return cannotRun(fmt.Errorf("read the history of %s: %s", rng, ge.Message()))
	case err != nil:
		return cannotRun(fmt.Errorf("read the history of %s: %w", rng, err))
	}
	for i := range entries {
		displayOps(entries[i].Message)
	}
	for _, b := range bad {
		warnf(env.Stderr, "skipped %s", b)
	}
	if opts.format == "json" {
		if entries == nil {
			entries = []gitstore.MemoryCommit{}
		}
		return writeJSON(env, entries)
	}
	q := w.PathQuoter(ctx)
	var b strings.Builder
	for _, e := range entries {
		writeLogEntry(&b, q, e)
	}
	_, err = fmt.Fprint(env.Stdout, b.String())
	return err
}

// badRange is a usage error naming the range, in what git said of it
// (not in git's command line, which is ours).
func badRange(rng, why string) error {
	return &exitError{code: exitCannotRun, err: fmt.Errorf("bad revision range %s: %s", quote.Value(rng), why),
		hints: []string{"give a range git log takes, e.g. 'git yoimem log main..yoimem/memory', or none for the memory branch"}}
}

func emptyLog(env Env, format string) error {
	if format == "json" {
		_, err := fmt.Fprintln(env.Stdout, "[]")
		return err
	}
	return nil
}

// displayOps gives the operations' paths as commands print them, from
// the workspace root (".yoi/…"); the message itself names them
// .yoi/-relative.
func displayOps(m *memlog.Message) *memlog.Message {
	for i, op := range m.Ops {
		m.Ops[i].Path = record.DisplayPath(op.Path)
		if op.Target != "" {
			m.Ops[i].Target = record.DisplayPath(op.Target)
		}
	}
	return m
}

// writeLogEntry prints one memory commit. Its text comes from a commit
// message anyone could have written: paths are quoted as git quotes them
// and control characters escaped, so it cannot reach the terminal raw.
func writeLogEntry(b *strings.Builder, q *workspace.PathQuoter, e gitstore.MemoryCommit) {
	fmt.Fprintf(b, "commit %s\nDate:   %s\n\n    %s\n", e.Commit, e.Date, quote.Controls(e.Subject))
	for _, op := range e.Ops {
		fmt.Fprintf(b, "    %s\n", opLine(q, op))
	}
	engine := quote.Controls(e.Engine)
	if e.Model != "" {
		engine += " (" + quote.Controls(e.Model) + ")"
	}
	var counts []string
	for _, c := range memlog.Categories() {
		if n := e.Categories[c]; n > 0 {
			counts = append(counts, fmt.Sprintf("%s=%d", c, n))
		}
	}
	if len(counts) == 0 {
		counts = []string{"none"}
	}
	entries := "entries"
	if len(e.Consumed) == 1 {
		entries = "entry"
	}
	fmt.Fprintf(b, "    run %s, engine %s, %d staging %s, categories: %s\n\n", quote.Controls(e.RunID), engine, len(e.Consumed), entries, strings.Join(counts, " "))
}

// opLine is an operation as log prints it: op, path, target, categories
// and reason, with paths quoted as git quotes them.
func opLine(q *workspace.PathQuoter, op memlog.Op) string {
	line := string(op.Kind) + " " + q.Path(op.Path)
	if op.Target != "" {
		line += " -> " + q.Path(op.Target)
	}
	if len(op.Categories) > 0 {
		cs := make([]string, len(op.Categories))
		for i, c := range op.Categories {
			cs[i] = string(c)
		}
		line += " [" + strings.Join(cs, ",") + "]"
	}
	return line + ": " + quote.Controls(op.Reason)
}
