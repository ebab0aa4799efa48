package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/internal/suggest"
	"github.com/yoimem/git-yoimem/workspace"
)

type configOptions struct {
	format string
	key    string
}

func newConfigCommand(env Env, g *globalOptions) *cli.Command {
	var opts configOptions
	return &cli.Command{
		Name:      "config",
		Usage:     "show effective settings and where each comes from",
		ArgsUsage: "[KEY]",
		UsageText: "git yoimem config [--format text|json] [KEY]",
		Description: `Lists every yoimem.* setting with its effective value and origin:
a -c flag, git config (any scope), the committed .yoi/config, or the
built-in default; a list key (yoimem.consolidate.locked) has a row for
each item, with its own origin. With KEY, prints that key's value alone
(a list's items one a line). In JSON a list's value is an array, and
items gives each item with its origin.

To change a setting for everyone, edit .yoi/config and commit it; for
yourself, use git config (e.g. git config yoimem.search.maxResults 30).`,
		Flags: []cli.Flag{formatFlag(&opts.format)},
		Action: func(c *cli.Context) error {
			if err := checkFormat(opts.format); err != nil {
				return err
			}
			if c.NArg() > 1 {
				return usageError("config takes at most one KEY")
			}
			opts.key = c.Args().First()
			return runConfig(c.Context, env, g, opts)
		},
	}
}

// configValueJSON is one key in config --format json. A list key's value
// is an array of its items, and items says where each was set.
type configValueJSON struct {
	Key     string            `json:"key"`
	Value   any               `json:"value"` // a string; a list key's, an array
	Items   *[]configItemJSON `json:"items,omitempty"`
	Type    string            `json:"type"`
	Default string            `json:"default"`
	Origin  string            `json:"origin"` // of the last setting
	Doc     string            `json:"doc"`
}

type configItemJSON struct {
	Value  string `json:"value"`
	Origin string `json:"origin"`
}

func configJSON(v config.Value) configValueJSON {
	j := configValueJSON{Key: v.Key.Name, Value: v.Raw, Type: v.Key.Type.String(), Default: v.Key.Default, Origin: v.Origin.String(), Doc: v.Key.Doc}
	if v.Key.Type == config.List {
		values, items := []string{}, []configItemJSON{}
		for _, it := range v.Items() {
			values = append(values, it.Value)
			items = append(items, configItemJSON{Value: it.Value, Origin: it.Origin.String()})
		}
		j.Value, j.Items = values, &items
	}
	return j
}

func runConfig(ctx context.Context, env Env, g *globalOptions, opts configOptions) error {
	wenv := workspaceEnv(env)
	git, file := wenv.Git(env.Dir), ""
	w, err := workspace.Locate(ctx, wenv, workspaceOptions(g))
	var we *workspace.Error
	switch {
	case err == nil:
		git, file = w.Repo.Git, w.ConfigFile()
	case !errors.As(err, &we) || we.Kind != workspace.NotRepository:
		return workspaceError(err) // outside a repository: git's settings and the defaults
	}
	cfg, err := workspace.LoadConfig(ctx, wenv, workspaceOptions(g), git, file)
	if err != nil {
		return workspaceError(err)
	}
	values := cfg.All()
	if opts.key != "" {
		v, ok := cfg.Get(opts.key)
		if !ok {
			return unknownKey(opts.key)
		}
		values = []config.Value{v}
		if opts.format == "text" {
			return printValue(env, v)
		}
	}
	if opts.format == "json" {
		out := make([]configValueJSON, 0, len(values))
		for _, v := range values {
			out = append(out, configJSON(v))
		}
		if opts.key != "" {
			return writeJSON(env, out[0])
		}
		return writeJSON(env, out)
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	for _, v := range values {
		items := v.Items()
		if len(items) == 0 {
			fmt.Fprintf(tw, "%s\t%s\t%s\n", v.Key.Name, quoteEmpty(v.Raw), v.Origin)
		}
		for _, it := range items { // a list: a row for each item
			fmt.Fprintf(tw, "%s\t%s\t%s\n", v.Key.Name, quoteEmpty(it.Value), it.Origin)
		}
	}
	tw.Flush()
	_, err = fmt.Fprint(env.Stdout, b.String())
	return err
}

// printValue prints one key's value alone: a list key's items a line
// each (none for an empty list), as git config --get-all.
func printValue(env Env, v config.Value) error {
	if v.Key.Type != config.List {
		_, err := fmt.Fprintln(env.Stdout, v.Raw)
		return err
	}
	var b strings.Builder
	for _, it := range v.Items() {
		b.WriteString(it.Value + "\n")
	}
	_, err := io.WriteString(env.Stdout, b.String())
	return err
}

// unknownKey is a KEY argument that names no setting, with what it
// probably meant.
func unknownKey(key string) error {
	if s := config.SuggestKeys(key); len(s) > 0 {
		return usageErrorHint("did you mean "+suggest.OrList(s)+"?", "unknown key %s", quote.Short(key))
	}
	return usageErrorHint("'git yoimem config' lists every key", "unknown key %s", quote.Short(key))
}

func quoteEmpty(s string) string {
	if s == "" {
		return `""`
	}
	return s
}
