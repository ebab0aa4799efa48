package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

type searchOptions struct {
	format string
	slug   string
	kind   string
	scope  memory.Scope
	query  string
}

func newSearchCommand(env Env, g *globalOptions) *cli.Command {
	var opts searchOptions
	return &cli.Command{
		Name:      "search",
		Usage:     "search knowledge or memory records (knowledge_search, memory_search)",
		ArgsUsage: "knowledge|memory [QUERY...]",
		UsageText: "git yoimem search knowledge|memory [--kind KIND] [--format text|json] QUERY...\ngit yoimem search knowledge|memory --slug SLUG [--format text|json]",
		Description: `Searches the records in the working tree: knowledge/*.md, or the summary,
decisions and requests. Every term of QUERY must appear in a record
(case-insensitive, frontmatter included, matched literally). --slug gives
one record whole (how #slug resolves); --kind filters by the knowledge
kind (rule, fact, …) or the record kind (summary, decision, request), and
without a QUERY lists every record of that kind.

Text output: one block per hit, "== <path> (<kind>)" then the excerpt
(for a listing, the record's first line); paths from the workspace root,
beginning with .yoi/. At most yoimem.search.maxResults hits are shown; a
last line says how many more matched. --format json prints {hits: [{slug,
path, kind, description, model_invokation, status, excerpt}], skipped,
more}. Excerpts: yoimem.search.excerptLines lines around each match. Exit
0 with hits or none; 2 on bad input (an empty query without --kind or
--slug).`,
		Flags: []cli.Flag{
			formatFlag(&opts.format),
			&cli.StringFlag{Name: "slug", Usage: "return the record `SLUG` whole", Destination: &opts.slug},
			&cli.StringFlag{Name: "kind", Usage: "only records of this `KIND`", Destination: &opts.kind},
		},
		Action: func(c *cli.Context) error {
			if err := checkFormat(opts.format); err != nil {
				return err
			}
			switch scope := c.Args().First(); scope {
			case "knowledge":
				opts.scope = memory.ScopeKnowledge
			case "memory":
				opts.scope = memory.ScopeMemory
			case "":
				return usageError("search needs a scope: knowledge or memory")
			default:
				return choiceError("search scope", scope, []string{"knowledge", "memory"}, "git yoimem search")
			}
			opts.query = strings.Join(c.Args().Tail(), " ")
			return runSearch(c.Context, env, g, opts)
		},
	}
}

type showOptions struct {
	format string
	kind   string
	ref    string
}

func newShowCommand(env Env, g *globalOptions) *cli.Command {
	var opts showOptions
	return &cli.Command{
		Name:      "show",
		Usage:     "print a record by slug or path (for knowledge, what #slug expands to)",
		ArgsUsage: "SLUG|PATH",
		UsageText: "git yoimem show [--format text|json] [--kind KIND] SLUG|PATH",
		Description: `Prints one record whole. A SLUG is looked up as #slug resolves it:
knowledge first, then decisions, then requests; "summary" is the summary.
When the name belongs to records of several kinds, the first is shown and
the others are named on stderr: pick one with --kind or by its path
(.yoi/memory/decisions/x.md or memory/decisions/x.md).

--format json prints {slug, path, kind, description, model_invokation,
status, excerpt (the whole record), also (the other records of that
name)}. Exit 0 when shown; 2 when there is no such record or the input
is bad.`,
		Flags: []cli.Flag{
			formatFlag(&opts.format),
			&cli.StringFlag{Name: "kind", Usage: "only a record of this `KIND`: knowledge, decision, request or summary", Destination: &opts.kind},
		},
		Action: func(c *cli.Context) error {
			if err := checkFormat(opts.format); err != nil {
				return err
			}
			if c.NArg() != 1 {
				return usageError("show takes one SLUG or PATH")
			}
			opts.ref = c.Args().First()
			return runShow(c.Context, env, g, opts)
		},
	}
}

func runShow(ctx context.Context, env Env, g *globalOptions, opts showOptions) error {
	kind := record.KindNone
	if opts.kind != "" {
		k, err := record.ParseKind(opts.kind)
		if err != nil {
			return usageError("--kind %s: want knowledge, decision, request or summary", opts.kind)
		}
		kind = k
	}
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	snap, err := worktreeSnapshot(w, "memory", record.KnowledgeDir)
	if err != nil {
		return err
	}
	shown, err := memory.Show(snap, opts.ref, kind)
	var tl *record.TooLargeError
	if errors.As(err, &tl) {
		return tooLargeError(err, tl)
	}
	if errors.Is(err, memory.ErrNotFound) {
		return cannotRun(err, "list records with 'git yoimem search knowledge --kind KIND' or 'git yoimem search memory --kind decision|request|summary'")
	}
	if errors.Is(err, record.ErrBadSlug) || errors.Is(err, memory.ErrNotRecordPath) {
		return cannotRun(err, "give a slug (kebab-case, e.g. retry-policy) or a record path (e.g. .yoi/memory/decisions/use-sqlite.md)")
	}
	if err != nil {
		return cannotRun(err)
	}
	if len(shown.Others) > 0 {
		other, _ := record.ToolPath(shown.Others[0])
		warnf(env.Stderr, "%s also names %s; show it with --kind %s or by its path", opts.ref, strings.Join(shown.Others, ", "), record.Classify(other).Kind)
	}
	recordUse(env, g, w, metrics.HowSlug, shown.Rel)
	if opts.format == "json" {
		return writeJSON(env, shown)
	}
	_, err = io.WriteString(env.Stdout, shown.Excerpt)
	return err
}

func runSearch(ctx context.Context, env Env, g *globalOptions, opts searchOptions) error {
	defer collectAtLimitOnly(env)()
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	srch := w.Searcher()
	res, err := srch.Search(opts.scope, memory.Query{Text: opts.query, Slug: opts.slug, Kind: opts.kind})
	srch.Save()
	var listErr *workspace.ListError
	if errors.As(err, &listErr) { // the records, not the query
		return workspaceError(listErr.Err)
	}
	if errors.Is(err, memory.ErrEmptyQuery) {
		return cannotRun(err, "search for words: git yoimem search knowledge retry backoff; or list a kind: git yoimem search knowledge --kind rule")
	}
	var tl *record.TooLargeError
	if errors.As(err, &tl) { // the record asked for is over the limit
		return tooLargeError(err, tl)
	}
	if err != nil {
		return usageError("%v", err)
	}
	for _, s := range res.Skipped {
		warnf(env.Stderr, "skipped %s: %s", s.Path, s.Reason)
	}
	how := metrics.HowSearch
	if opts.slug != "" {
		how = metrics.HowSlug
	}
	var used []string
	for _, h := range res.Hits {
		used = append(used, h.Path)
	}
	recordUse(env, g, w, how, used...)
	if opts.format == "json" {
		return writeJSON(env, res)
	}
	if opts.slug != "" && opts.query == "" && len(res.Hits) == 1 {
		_, err := fmt.Fprint(env.Stdout, res.Hits[0].Excerpt)
		return err
	}
	var b strings.Builder
	for _, h := range res.Hits {
		fmt.Fprintf(&b, "== %s (%s)\n%s", h.Path, h.Kind, h.Excerpt)
	}
	if res.More > 0 {
		fmt.Fprintf(&b, "[git-yoimem: %d more not shown (%s is %d): narrow the query or raise the limit]\n", res.More, config.KeySearchMaxResults, w.Config.Int(config.KeySearchMaxResults))
	}
	_, err = fmt.Fprint(env.Stdout, b.String())
	return err
}
