package main

import (
	"context"
	"errors"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/internal/readall"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

type contextOptions struct {
	format string
}

func newContextCommand(env Env, g *globalOptions) *cli.Command {
	var opts contextOptions
	return &cli.Command{
		Name:      "context",
		Usage:     "print the always-on context: the summary and the model-invocable knowledge",
		UsageText: "git yoimem context [--format text|json]",
		Description: `Prints what an agent session starts with: the body of memory/summary.md
and one line per knowledge record with model_invokation: true (its slug and
description), between <yoimem-memory> markers, within
yoimem.context.budgetChars. Descriptions that do not fit are left out whole
and named in a visible line; a summary alone over the budget is an error
(exit 1). Nothing is ever cut silently.`,
		Flags: []cli.Flag{formatFlag(&opts.format)},
		Action: func(c *cli.Context) error {
			if err := checkFormat(opts.format); err != nil {
				return err
			}
			if c.NArg() > 0 {
				return usageError("context takes no arguments")
			}
			return runContext(c.Context, env, g, opts)
		},
	}
}

func runContext(ctx context.Context, env Env, g *globalOptions, opts contextOptions) error {
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	dirs := []string{record.SummaryPath, record.KnowledgeDir}
	loaded := w.OpenCatalogAsync(true, dirs...)
	snap, err := worktreeSnapshot(w, dirs...)
	cat := <-loaded
	if err != nil {
		return err
	}
	res, err := memory.Context(snap, int(w.Config.Int(config.KeyContextBudgetChars)), cat.Examiner(snap))
	cat.Save()
	if err != nil {
		return &exitError{code: exitFindings, err: err}
	}
	if res.SummaryMissing {
		warnf(env.Stderr, "%s is missing: the context has no summary; restore it (git checkout HEAD -- %[1]s) or write one", record.DisplayPath(record.SummaryPath))
	}
	if len(res.Left) > 0 {
		warnf(env.Stderr, "context over budget: %d description(s) left out (%s)", len(res.Left), strings.Join(res.Left, ", "))
	}
	recordInjections(env, g, w, res)
	if opts.format == "json" {
		return writeJSON(env, res)
	}
	_, err = io.WriteString(env.Stdout, res.Text)
	return err
}

// defaultExpandInputBytes bounds a prompt expand reads: far above any
// agent's prompt, low enough to keep the process small.
const defaultExpandInputBytes = 64 << 20

func newExpandCommand(env Env, g *globalOptions) *cli.Command {
	var maxInput int64
	return &cli.Command{
		Name:      "expand",
		Usage:     "expand #slug references and a leading /slug of stdin to the knowledge they name (stdout)",
		UsageText: "git yoimem expand [--max-input-bytes N] < PROMPT",
		Description: `Reads a prompt on stdin (all of it) and writes it to stdout with the body of every
knowledge record it references as #slug appended once, between
<yoimem-memory> markers. A prompt that begins (after blank space) with
/slug, where slug names a knowledge record, invokes that record the same
way; any other /command is the agent's own and is left alone, unreported.
Records with user_invocable: false are not expanded; unknown #slugs are
reported on stderr. The text itself is unchanged. In a session
(--session, YOIMEM_SESSION) each record expanded is a use: how "slug"
for #slug, "slash" for /slug. A prompt over --max-input-bytes, or a
referenced record over yoimem.lint.maxFileBytes, is an error (exit 1)
with its size, never cut or left out silently.`,
		Flags: []cli.Flag{
			&cli.Int64Flag{Name: "max-input-bytes", Value: defaultExpandInputBytes, Usage: "refuse a prompt longer than `N` bytes (0: no limit)", Destination: &maxInput},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("expand reads stdin and takes no arguments")
			}
			if maxInput < 0 {
				return usageError("--max-input-bytes %d: want 0 (no limit) or more", maxInput)
			}
			return runExpand(c.Context, env, g, maxInput)
		},
	}
}

func runExpand(ctx context.Context, env Env, g *globalOptions, maxInput int64) error {
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	// All of it (a #slug may end it), or a refusal; Ctrl-C stops the wait.
	in, err := readall.Read(ctx, env.Stdin, readall.Limit{Bytes: maxInput, What: "standard input", Setting: "--max-input-bytes"})
	if errors.Is(err, context.Canceled) {
		return err
	}
	var tl *record.TooLargeError
	if errors.As(err, &tl) {
		return &exitError{code: exitFindings, err: err, hints: []string{"pass the prompt in smaller parts, or raise --max-input-bytes (0: no limit)"}}
	}
	if err != nil {
		return cannotRun(err)
	}
	snap, err := worktreeSnapshot(w)
	if err != nil {
		return err
	}
	ex, err := memory.Expand(snap, in)
	if err != nil {
		return toolError(err)
	}
	for _, s := range ex.Refused {
		warnf(env.Stderr, "%s is not user-invocable (user_invocable: false); not expanded", invoked(ex, s))
	}
	for _, s := range ex.Unknown {
		warnf(env.Stderr, "%s names no knowledge record; not expanded", invoked(ex, s))
	}
	if err := ex.Write(env.Stdout, in); err != nil {
		return err
	}
	recordExpansion(env, g, w, ex)
	return nil
}

// invoked is a slug as the prompt invoked it: /slug or #slug.
func invoked(ex memory.Expansion, slug string) string {
	if slug == ex.Slash {
		return "/" + slug
	}
	return "#" + slug
}

// recordExpansion journals each expanded record as an explicit invoke of
// the session: a /slug command as "slash", a #slug as "slug".
func recordExpansion(env Env, g *globalOptions, w *workspace.Workspace, ex memory.Expansion) {
	var slugs []string
	for _, slug := range ex.Expanded {
		path := record.PathFor(record.KindKnowledge, slug)
		if slug == ex.Slash {
			recordUse(env, g, w, metrics.HowSlash, path)
			continue
		}
		slugs = append(slugs, path)
	}
	recordUse(env, g, w, metrics.HowSlug, slugs...)
}
