package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

type lintOptionsFlags struct {
	format    string
	listRules bool
	paths     []string
}

func newLintCommand(env Env, g *globalOptions) *cli.Command {
	var opts lintOptionsFlags
	return &cli.Command{
		Name:      "lint",
		Usage:     "check memory records against the linter's rules",
		ArgsUsage: "[PATH...]",
		UsageText: "git yoimem lint [--format text|json|github|sarif] [PATH...]\ngit yoimem lint --list-rules [--format text|json]",
		Description: `Lints the records under .yoi/ in the working tree (all of them, or the
files and directories named, which must be inside .yoi/). References and
replaced_by links are checked against the whole .yoi/ either way.

Findings print one per line, compiler style:
   path:line:col: error|warning rule-id: message
--format json prints {"findings": [...], "files", "errors", "warnings"}
with paths from the workspace root (.yoi/knowledge/x.md). For CI,
--format github prints GitHub Actions workflow commands (annotations on
the pull request) and --format sarif a SARIF 2.1.0 log for code
scanning, both with paths from the repository root (docs/ci.md).
--list-rules lists the rules.

Exit status is 1 when any finding is an error; warnings alone exit 0.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text, json, github or sarif", Destination: &opts.format},
			&cli.BoolFlag{Name: "list-rules", Usage: "list every rule with its severity and exit", Destination: &opts.listRules},
		},
		Action: func(c *cli.Context) error {
			if err := checkFormatOf(opts.format, lintFormats); err != nil {
				return err
			}
			opts.paths = c.Args().Slice()
			if opts.listRules && len(opts.paths) > 0 {
				return usageError("--list-rules takes no PATH")
			}
			if opts.listRules && !(opts.format == "text" || opts.format == "json") {
				return usageError("--list-rules --format %s: want text or json", quote.Value(opts.format))
			}
			return runLint(c.Context, env, g, opts)
		},
	}
}

type lintJSON struct {
	Findings []lint.Finding `json:"findings"`
	Files    int            `json:"files"`
	Errors   int            `json:"errors"`
	Warnings int            `json:"warnings"`
}

func runLint(ctx context.Context, env Env, g *globalOptions, opts lintOptionsFlags) error {
	if opts.listRules {
		return listRules(env, opts.format)
	}
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	lo := w.WithImportance(w.LintOptions())
	snap, err := gitstore.WorktreeSnapshot(w.Root, lo.MaxFileBytes)
	if errors.Is(err, gitstore.ErrNoYoi) {
		return cannotRun(fmt.Errorf("no .yoi/ in %s", displayPath(env, w.Root)), "run 'git yoimem init' to create it")
	}
	if err != nil {
		return cannotRun(err)
	}
	only, err := selectPaths(env, w, snap, opts.paths)
	if err != nil {
		return err
	}
	rep := lint.Tree(snap, lo, only)
	if err := printLint(ctx, env, w, rep, opts.format); err != nil {
		return err
	}
	if rep.HasErrors() {
		return silentExit(exitFindings)
	}
	return nil
}

// selectPaths turns PATH arguments into a filter over .yoi/-relative
// paths; nil selects everything.
func selectPaths(env Env, w *workspace.Workspace, snap record.Snapshot, args []string) (func(string) bool, error) {
	if len(args) == 0 {
		return nil, nil
	}
	var files, dirs []string
	for _, a := range args {
		abs := a
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(env.Dir, a)
		}
		rel, err := filepath.Rel(w.YoiDir(), filepath.Clean(abs))
		if err != nil || !(rel == "." || filepath.IsLocal(rel)) {
			return nil, usageError("%s is outside %s", quote.Short(a), displayPath(env, w.YoiDir()))
		}
		if rel == "." {
			return nil, nil
		}
		rel = filepath.ToSlash(rel)
		e, ok := snap.Lookup(rel)
		switch {
		case !ok:
			return nil, cannotRun(fmt.Errorf("%s: no such file under .yoi/", quote.Short(a)))
		case e.Mode == record.ModeDir:
			dirs = append(dirs, rel+"/")
		default:
			files = append(files, rel)
		}
	}
	return func(p string) bool {
		for _, f := range files {
			if p == f {
				return true
			}
		}
		for _, d := range dirs {
			if strings.HasPrefix(p, d) {
				return true
			}
		}
		return false
	}, nil
}

// printLint prints findings. Text paths are relative to the current
// directory and quoted as git quotes paths, and messages keep to one line:
// no file name can forge a finding or reach the terminal as an escape.
func printLint(ctx context.Context, env Env, w *workspace.Workspace, rep lint.Report, format string) error {
	if format == "github" || format == "sarif" {
		return printLintCI(env, w, rep, format)
	}
	if format == "json" {
		out := lintJSON{Findings: make([]lint.Finding, 0, len(rep.Findings)), Files: rep.Files, Errors: rep.Count(lint.Error), Warnings: rep.Count(lint.Warning)}
		for _, f := range rep.Findings {
			f.Path = record.DisplayPath(f.Path) // from the workspace root
			out.Findings = append(out.Findings, f)
		}
		return writeJSON(env, out)
	}
	q := w.PathQuoter(ctx)
	var b strings.Builder
	for _, f := range rep.Findings {
		p := q.Path(filepath.ToSlash(workspace.RelToDir(env.Dir, filepath.Join(w.YoiDir(), filepath.FromSlash(f.Path)))))
		fmt.Fprintf(&b, "%s:%d:%d: %s %s: %s\n", p, f.Line, f.Col, f.Severity, f.Rule, quote.Controls(f.Message))
	}
	if _, err := fmt.Fprint(env.Stdout, b.String()); err != nil {
		return err
	}
	if len(rep.Findings) > 0 {
		statusf(env.Stderr, "%d error(s), %d warning(s) in %d file(s)", rep.Count(lint.Error), rep.Count(lint.Warning), rep.Files)
	}
	return nil
}

func listRules(env Env, format string) error {
	rules := lint.Rules()
	if format == "json" {
		return writeJSON(env, rules)
	}
	var b strings.Builder
	for _, r := range rules {
		fmt.Fprintf(&b, "%-20s %-7s %s\n", r.ID, r.Severity, r.Summary)
	}
	_, err := fmt.Fprint(env.Stdout, b.String())
	return err
}
