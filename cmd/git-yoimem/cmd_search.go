package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/memory"
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
kind (rule, fact, …) or the record kind (summary, decision, request).

Text output: one block per hit, "== <path> (<kind>)" then the excerpt.
--format json prints [{slug, path, kind, description, model_invokation,
status, excerpt}]. Limits: yoimem.search.maxResults and
yoimem.search.excerptLines. Exit 0 with hits or none; 2 on bad input.`,
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

func newShowCommand(env Env, g *globalOptions) *cli.Command {
	var format string
	return &cli.Command{
		Name:      "show",
		Usage:     "print a knowledge record by slug (what #slug expands to)",
		ArgsUsage: "SLUG",
		UsageText: "git yoimem show [--format text|json] SLUG",
		Flags:     []cli.Flag{formatFlag(&format)},
		Action: func(c *cli.Context) error {
			if err := checkFormat(format); err != nil {
				return err
			}
			if c.NArg() != 1 {
				return usageError("show takes one SLUG")
			}
			return runSearch(c.Context, env, g, searchOptions{format: format, slug: c.Args().First(), scope: memory.ScopeKnowledge, query: ""})
		},
	}
}

func runSearch(ctx context.Context, env Env, g *globalOptions, opts searchOptions) error {
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	srch := newSearcher(env, w)
	hits, skipped, err := srch.search(opts.scope, memory.Query{Text: opts.query, Slug: opts.slug, Kind: opts.kind})
	srch.save()
	var exit *exitError
	if errors.As(err, &exit) {
		return err
	}
	if err != nil {
		return usageError("%v", err)
	}
	for _, s := range skipped {
		warnf(env.Stderr, "skipped .yoi/%s: %s", s.Path, s.Reason)
	}
	how := "search"
	if opts.slug != "" {
		how = "slug"
	}
	var used []string
	for _, h := range hits {
		used = append(used, h.Path)
	}
	recordUse(env, g, w, how, used...)
	if opts.format == "json" {
		if hits == nil {
			hits = []memory.Hit{}
		}
		return writeJSON(env, hits)
	}
	if opts.slug != "" && opts.query == "" && len(hits) == 1 {
		_, err := fmt.Fprint(env.Stdout, hits[0].Excerpt)
		return err
	}
	var b strings.Builder
	for _, h := range hits {
		fmt.Fprintf(&b, "== .yoi/%s (%s)\n%s", h.Path, h.Kind, h.Excerpt)
	}
	_, err = fmt.Fprint(env.Stdout, b.String())
	return err
}
