package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/githook"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/workspace"
)

type hookOptions struct {
	name string
	args []string
}

func newHookCommand(env Env, g *globalOptions) *cli.Command {
	var opts hookOptions
	return &cli.Command{
		Name:      "hook",
		Usage:     "run a git hook or an agent's hook (called by what 'git yoimem install' writes)",
		ArgsUsage: "pre-commit | pre-push REMOTE URL | claude-code EVENT | codex EVENT",
		UsageText: "git yoimem hook pre-commit\ngit yoimem hook pre-push [REMOTE [URL]] < REF-LINES\n" +
			"git yoimem hook claude-code EVENT < PAYLOAD\ngit yoimem hook codex EVENT < PAYLOAD\ngit yoimem hook codex notify JSON",
		Description: `pre-commit lints the staged versions of the changed .yoi/ records
(references checked against the staged tree) and refuses staged files
under .yoi/memory/_staging/ (extract output and the consolidation lock are
machine-local). It reads the index git uses for this commit, so
'git commit -a', 'git commit PATH' and linked worktrees work, and it never
takes the index lock.

pre-push reads git's ref lines on stdin, lints the .yoi/ records changed
by the commits being pushed (as they are at the pushed tip), and checks
the Yoimem-* trailers of memory commits (commits on the memory branch that
are not on its base, and any commit that carries Yoimem-* trailers).

Findings print compiler style; exit 1 refuses the commit or push.

claude-code and codex answer the agent's hooks, which
'git yoimem install --agent claude-code' (or codex) registers: the hook's
JSON payload on stdin, the agent's output shape on stdout. Claude Code's events:
session-start, user-prompt-submit, pre-tool-use, stop, pre-compact, session-end.
Codex's: session-start, user-prompt-submit, pre-tool-use, stop, pre-compact,
and notify (its JSON as the last argument, where hooks are off). session-start
adds the always-on context, user-prompt-submit expands #slug, pre-tool-use
denies generic writes into .yoi/memory and .yoi/knowledge, and the
turn-ending events start the extract and consolidation checks in a
detached background run (docs/agents.md). An agent's hook never fails
the agent: whatever goes wrong is an empty answer with exit 0, the
reason in the agent's log under .git/yoimem/agent/.`,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageError("hook needs a name: pre-commit, pre-push, claude-code or codex")
			}
			opts.name, opts.args = c.Args().First(), c.Args().Tail()
			switch opts.name {
			case "pre-commit":
				return runPreCommit(c.Context, env, g)
			case "pre-push":
				return runPrePush(c.Context, env, g, opts)
			case "claude-code", "codex":
				return runAgentHook(c.Context, env, g, opts.name, opts.args)
			}
			return choiceError("hook", opts.name, []string{"pre-commit", "pre-push", "claude-code", "codex"}, "git yoimem hook")
		},
	}
}

// hookEnv absolutizes GIT_INDEX_FILE (githook.AbsIndexFile): git passes
// it relative to the worktree root, and commands we run must see the same
// index.
func hookEnv(env Env) Env {
	if env.Environ == nil {
		return env
	}
	base, dir := env.Environ, env.Dir
	env.Environ = func() []string { return githook.AbsIndexFile(base(), dir) }
	return env
}

// yoiPrefix is .yoi/ relative to the top level, slash-separated.
func yoiPrefix(w *workspace.Workspace) (string, error) {
	prefix, err := w.Prefix()
	if err != nil {
		return "", cannotRun(err)
	}
	return prefix, nil
}

// runPreCommit finds what the commit stages under .yoi/ before it reads
// the configuration: a commit that stages nothing there goes through
// whatever the configuration says (a bad uncommitted .yoi/config must not
// block commits of other files).
func runPreCommit(ctx context.Context, env Env, g *globalOptions) error {
	env = hookEnv(env)
	w, err := findWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	prefix, err := yoiPrefix(w)
	if err != nil {
		return err
	}
	res, err := githook.PreCommit(ctx, githook.Commit{Repo: w.Repo, Prefix: prefix, Index: w.Repo.IndexFile(env.Dir, env.Getenv),
		Lint: func() (lint.Options, error) {
			if err := hookConfigError(w.Configure(ctx)); err != nil {
				return lint.Options{}, err
			}
			return w.LintOptions(), nil
		}})
	var cl *githook.CannotLintError
	switch {
	case errors.Is(err, gitstore.ErrIndexChecksum):
		return cannotRun(err, "'git reset' rebuilds the index from HEAD (the working tree is kept); then stage your changes again")
	case errors.As(err, &cl):
		return cannotRun(err, "run 'git yoimem lint' on the working tree, then commit with --no-verify")
	case err != nil:
		return hookError(err)
	case len(res.Staging) > 0:
		return &exitError{code: exitFindings,
			err:   fmt.Errorf("machine-local files are staged: %s (extract output and the consolidation lock never belong in a commit)", strings.Join(res.Staging, ", ")),
			hints: []string{"git rm --cached -- " + strings.Join(res.Staging, " ")}}
	}
	return reportHookFindings(ctx, env, w, res, "commit")
}

// hookError is a git hook's error: the configuration's as it is, with
// its hints; anything else could not run, and says that the hook can be
// skipped.
func hookError(err error) error {
	var exit *exitError
	if errors.As(err, &exit) || errors.Is(err, context.Canceled) {
		return err
	}
	var hints []string
	if errors.Is(err, githook.ErrRefLine) {
		hints = append(hints, "git runs pre-push with its ref lines on stdin (<local ref> <local sha> <remote ref> <remote sha>): let 'git push' run it")
	}
	return cannotRun(err, append(hints, skipHookHint)...)
}

const skipHookHint = "--no-verify skips this hook; CI's 'git yoimem lint' still checks"

func reportHookFindings(ctx context.Context, env Env, w *workspace.Workspace, res githook.Result, what string) error {
	hints := []string{
		"fix the records and stage them again ('git yoimem lint' checks the working tree)",
		skipHookHint,
	}
	if what == "push" {
		hints = []string{
			"fix the records in a new commit (the pushed tip is what is linted), then push again",
			skipHookHint,
		}
	}
	q := w.PathQuoter(ctx)
	var b strings.Builder
	for _, f := range res.Report.Findings {
		fmt.Fprintf(&b, "%s:%d:%d: %s %s: %s\n", q.Path(res.Path(f)), f.Line, f.Col, f.Severity, f.Rule, quote.Controls(f.Message))
	}
	// Hooks talk to the person committing: findings go to stderr, where
	// git shows hook output.
	fmt.Fprint(env.Stderr, b.String())
	if !res.Report.HasErrors() {
		return nil
	}
	return &exitError{code: exitFindings,
		err:   fmt.Errorf("git-yoimem refused the %s: %d error(s) in .yoi/ records", what, res.Report.Count(lint.Error)),
		hints: hints}
}
