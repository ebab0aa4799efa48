package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/githook"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/lint/annotate"
	"github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

type checkCommitsFlags struct {
	format string
	as     string
	rng    string
}

var checkCommitsFormats = []string{"text", "json", "github"}

func newCheckCommitsCommand(env Env, g *globalOptions) *cli.Command {
	var opts checkCommitsFlags
	return &cli.Command{
		Name:      "check-commits",
		Usage:     "run the pre-push checks on a range of commits (for CI)",
		ArgsUsage: "RANGE",
		UsageText: "git yoimem check-commits [--as REF] [--format text|json|github] RANGE",
		Description: `Runs the pre-push hook's checks on the commits of RANGE, for CI, where a
push made with --no-verify skipped the hook: the .yoi/ records the range
changes are linted as they are at its tip, and memory commits' Yoimem-*
trailers are checked (docs/ci.md).

RANGE is BASE..TIP (the commits TIP has and BASE has not), TIP alone
(every commit TIP has) or BASE...TIP, read as BASE..TIP. The range is
judged as a push of TIP: when TIP is the memory branch (or a remote's
tracking branch of it), its commits are memory commits and need
trailers; --as refs/heads/NAME says which branch TIP is when it is a
hash (a pull request's head).

Findings print with paths from the repository's top level; --format json
prints {"findings", "trailers", "errors", "warnings"} and --format github
GitHub Actions workflow commands. Exit status is 1 when the range would
be refused (a lint error or bad trailers), 2 when it could not be checked.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text, json or github", Destination: &opts.format},
			&cli.StringFlag{Name: "as", Usage: "judge the range as a push of the branch `REF` (refs/heads/NAME)", Destination: &opts.as},
		},
		Action: func(c *cli.Context) error {
			if err := checkFormatOf(opts.format, checkCommitsFormats); err != nil {
				return err
			}
			if opts.as != "" && (!strings.HasPrefix(opts.as, "refs/heads/") || opts.as == "refs/heads/") {
				return usageError("--as %s: want a full branch name, refs/heads/NAME", quote.Value(opts.as))
			}
			switch c.NArg() {
			case 0:
				return usageError("check-commits needs a RANGE (BASE..TIP)")
			case 1:
			default:
				return usageError("check-commits takes one RANGE, not %d", c.NArg())
			}
			opts.rng = c.Args().First()
			return runCheckCommits(c.Context, env, g, opts)
		},
	}
}

func runCheckCommits(ctx context.Context, env Env, g *globalOptions, opts checkCommitsFlags) error {
	w, err := findWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	prefix, err := yoiPrefix(w)
	if err != nil {
		return err
	}
	res, err := githook.CheckRange(ctx, githook.RangeOptions{Repo: w.Repo, Prefix: prefix, Range: opts.rng, As: opts.as,
		Configure: func() (githook.PushSettings, error) {
			if err := workspaceError(w.Configure(ctx)); err != nil {
				return githook.PushSettings{}, err
			}
			return githook.PushSettings{Branch: w.Config.String(config.KeyBranch), Base: w.Config.String(config.KeyBaseBranch),
				Lint: w.LintOptions()}, nil
		}})
	if errors.Is(err, githook.ErrRange) {
		return cannotRun(err, "give BASE..TIP with both commits present: in CI, fetch the whole history (actions/checkout with fetch-depth: 0, GIT_DEPTH: 0 on GitLab)")
	}
	if err != nil {
		var exit *exitError
		if errors.As(err, &exit) || errors.Is(err, context.Canceled) {
			return err
		}
		return cannotRun(err)
	}
	if err := printCheckCommits(ctx, env, w, res, opts.format); err != nil {
		return err
	}
	return checkCommitsVerdict(res, opts.format)
}

type checkCommitsJSON struct {
	Findings []lint.Finding `json:"findings"`
	Trailers []string       `json:"trailers"`
	Errors   int            `json:"errors"`
	Warnings int            `json:"warnings"`
}

// printCheckCommits prints what the check found on stdout: findings with
// paths from the top level (JSON: from the workspace root, .yoi/…), and
// the memory commits with bad trailers.
func printCheckCommits(ctx context.Context, env Env, w *workspace.Workspace, res githook.Result, format string) error {
	switch format {
	case "json":
		out := checkCommitsJSON{Findings: make([]lint.Finding, 0, len(res.Report.Findings)), Trailers: append([]string{}, res.Trailers...),
			Errors: res.Report.Count(lint.Error), Warnings: res.Report.Count(lint.Warning)}
		for _, f := range res.Report.Findings {
			f.Path = record.DisplayPath(f.Path)
			out.Findings = append(out.Findings, f)
		}
		return writeJSON(env, out)
	case "github":
		var b strings.Builder
		if err := annotate.GitHub(&b, res.Report.Findings, res.Path); err != nil {
			return err
		}
		for _, t := range res.Trailers {
			b.WriteString(annotate.GitHubCommand("error", "memory-trailers", t))
		}
		_, err := fmt.Fprint(env.Stdout, b.String())
		return err
	}
	q := w.PathQuoter(ctx)
	var b strings.Builder
	for _, t := range res.Trailers {
		fmt.Fprintln(&b, quote.Controls(t))
	}
	for _, f := range res.Report.Findings {
		fmt.Fprintf(&b, "%s:%d:%d: %s %s: %s\n", q.Path(res.Path(f)), f.Line, f.Col, f.Severity, f.Rule, quote.Controls(f.Message))
	}
	_, err := fmt.Fprint(env.Stdout, b.String())
	return err
}

// checkCommitsVerdict is the exit: 1 with what refused the range, after
// the output has said which findings and commits.
func checkCommitsVerdict(res githook.Result, format string) error {
	if !res.Refused() {
		return nil
	}
	return &exitError{code: exitFindings,
		err: fmt.Errorf("the range fails the pre-push checks: %d error(s) in .yoi/ records, %d memory commit(s) with bad trailers",
			res.Report.Count(lint.Error), len(res.Trailers)),
		hints: []string{"fix the records in a new commit (the range's tip is what is linted); memory commits are written by consolidation: rewrite or drop the bad ones"}}
}
