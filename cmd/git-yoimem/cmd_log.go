package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
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
engine, model, consumed, sessions, categories}.`,
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

type logEntry struct {
	Commit string `json:"commit"`
	Date   string `json:"date"`
	*gitstore.Message
}

func runLog(ctx context.Context, env Env, g *globalOptions, opts logOptions) error {
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	rng := opts.rng
	if rng == "" {
		rng = "refs/heads/" + w.cfg.String(config.KeyBranch)
		if _, err := w.repo.Git.Run(ctx, "rev-parse", "--verify", "-q", rng); err != nil {
			statusf(env.Stderr, "no memory branch yet (%s)", strings.TrimPrefix(rng, "refs/heads/"))
			return emptyLog(env, opts.format)
		}
	}
	out, err := w.repo.Git.Run(ctx, "log", "-z", "--grep=^Yoimem-Run: ", "--format=%H%x00%aI%x00%B", rng, "--")
	if err != nil {
		return cannotRun(fmt.Errorf("git log %s: %w", rng, err))
	}
	entries, bad := parseMemoryLog(out)
	for _, b := range bad {
		warnf(env.Stderr, "skipped %s", b)
	}
	if opts.format == "json" {
		if entries == nil {
			entries = []logEntry{}
		}
		return writeJSON(env, entries)
	}
	var b strings.Builder
	for _, e := range entries {
		writeLogEntry(&b, e)
	}
	_, err = fmt.Fprint(env.Stdout, b.String())
	return err
}

func emptyLog(env Env, format string) error {
	if format == "json" {
		_, err := fmt.Fprintln(env.Stdout, "[]")
		return err
	}
	return nil
}

// parseMemoryLog reads `git log -z --format=%H%x00%aI%x00%B`: hash, date
// and message, NUL-separated, commits separated by NUL as well.
func parseMemoryLog(out []byte) (entries []logEntry, bad []string) {
	fields := bytes.Split(out, []byte{0})
	for i := 0; i+2 < len(fields); i += 3 {
		hash := string(bytes.TrimSpace(fields[i]))
		if hash == "" {
			continue
		}
		m, err := gitstore.ParseMessage(string(fields[i+2]))
		if errors.Is(err, gitstore.ErrNotMemoryCommit) {
			continue // the grep matched prose, not a trailer
		}
		if err != nil {
			bad = append(bad, fmt.Sprintf("commit %.12s: %v", hash, err))
			continue
		}
		entries = append(entries, logEntry{Commit: hash, Date: string(fields[i+1]), Message: m})
	}
	return entries, bad
}

func writeLogEntry(b *strings.Builder, e logEntry) {
	fmt.Fprintf(b, "commit %s\nDate:   %s\n\n    %s\n", e.Commit, e.Date, e.Subject)
	for _, op := range e.Ops {
		line := string(op.Kind) + " " + op.Path
		if op.Target != "" {
			line += " -> " + op.Target
		}
		if op.Category != "" {
			line += " [" + string(op.Category) + "]"
		}
		fmt.Fprintf(b, "    %s: %s\n", line, op.Reason)
	}
	engine := e.Engine
	if e.Model != "" {
		engine += " (" + e.Model + ")"
	}
	var counts []string
	for _, c := range gitstore.Categories() {
		if n := e.Categories[c]; n > 0 {
			counts = append(counts, fmt.Sprintf("%s=%d", c, n))
		}
	}
	if len(counts) == 0 {
		counts = []string{"none"}
	}
	fmt.Fprintf(b, "    run %s, engine %s, %d staging entr(ies), categories: %s\n\n", e.RunID, engine, len(e.Consumed), strings.Join(counts, " "))
}
