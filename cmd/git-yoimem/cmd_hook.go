package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
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
		Usage:     "run a git hook (called by the shims 'git yoimem install' writes)",
		ArgsUsage: "pre-commit | pre-push REMOTE URL",
		UsageText: "git yoimem hook pre-commit\ngit yoimem hook pre-push [REMOTE [URL]] < REF-LINES",
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

Findings print compiler style; exit 1 refuses the commit or push.`,
		Action: func(c *cli.Context) error {
			if c.NArg() == 0 {
				return usageError("hook needs a name: pre-commit or pre-push")
			}
			opts.name, opts.args = c.Args().First(), c.Args().Tail()
			switch opts.name {
			case "pre-commit":
				return runPreCommit(c.Context, env, g)
			case "pre-push":
				return runPrePush(c.Context, env, g, opts)
			}
			return choiceError("hook", opts.name, []string{"pre-commit", "pre-push"}, "git yoimem hook")
		},
	}
}

// hookEnv absolutizes GIT_INDEX_FILE: git passes it relative to the
// worktree root, and commands we run must see the same index.
func hookEnv(env Env) Env {
	if env.Environ == nil {
		return env
	}
	base := env.Environ
	dir := env.Dir
	env.Environ = func() []string {
		vars := base()
		for i, kv := range vars {
			if v, ok := strings.CutPrefix(kv, "GIT_INDEX_FILE="); ok && v != "" && !filepath.IsAbs(v) {
				vars[i] = "GIT_INDEX_FILE=" + filepath.Join(dir, v)
			}
		}
		return vars
	}
	return env
}

// yoiPrefix is .yoi/ relative to the top level, slash-separated.
func yoiPrefix(w *workspace.Workspace) (string, error) {
	rel, err := filepath.Rel(w.Repo.TopLevel, w.YoiDir())
	if err != nil || !filepath.IsLocal(rel) {
		return "", cannotRun(fmt.Errorf("workspace %s is outside the repository %s", w.Root, w.Repo.TopLevel))
	}
	return filepath.ToSlash(rel), nil
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
	objs, err := gitstore.OpenObjects(w.Repo)
	if errors.Is(err, gitstore.ErrSHA256) {
		return preCommitWithoutObjects(ctx, w, prefix, err)
	}
	if err != nil {
		return cannotRun(err)
	}
	// The index and objects are read directly; git answers when the index
	// is split or sparse, or anything else is out of the ordinary.
	index := w.Repo.IndexFile(env.Dir, env.Getenv)
	maxRead := config.Defaults().Int(config.KeyLintMaxFileBytes)
	changed, deleted, lazySnap, err := gitstore.StagedFast(objs, index, prefix, maxRead)
	if errors.Is(err, gitstore.ErrIndexChecksum) {
		return cannotRun(err, "'git reset' rebuilds the index from HEAD (the working tree is kept); then stage your changes again")
	}
	if err != nil {
		if changed, deleted, err = stagedChanges(ctx, w.Repo, prefix); err != nil {
			return cannotRun(err)
		}
	}
	if refused := stagingFiles(prefix, changed); len(refused) > 0 {
		return &exitError{code: exitFindings,
			err:   fmt.Errorf("machine-local files are staged: %s (extract output and the consolidation lock never belong in a commit)", strings.Join(refused, ", ")),
			hints: []string{"git rm --cached -- " + strings.Join(refused, " ")}}
	}
	records := lintable(changed)
	if len(records) == 0 && len(deleted) == 0 {
		return nil
	}
	if err := configure(ctx, w); err != nil {
		return err
	}
	lo := w.LintOptions()
	if lazySnap != nil && lo.MaxFileBytes != maxRead {
		// The size limit is configured: read the index again with it.
		_, _, lazySnap, _ = gitstore.StagedFast(objs, index, prefix, lo.MaxFileBytes)
	}
	var snap record.Snapshot
	if lazySnap != nil {
		snap = lazySnap()
	} else if snap, err = gitstore.IndexSnapshot(ctx, w.Repo, objs, prefix, lo.MaxFileBytes); err != nil {
		return cannotRun(err)
	}
	rep := lint.Changed(snap, records, deleted, lo)
	return reportHookFindings(ctx, env, w, prefix, rep, "commit")
}

// preCommitWithoutObjects serves repositories whose objects cannot be read
// here (SHA-256): commits that stage nothing under .yoi/ go through; the
// others are refused with the reason, since they cannot be linted.
func preCommitWithoutObjects(ctx context.Context, w *workspace.Workspace, prefix string, cause error) error {
	changed, deleted, err := stagedChanges(ctx, w.Repo, prefix)
	if err != nil {
		return cannotRun(err)
	}
	if len(lintable(changed)) == 0 && len(deleted) == 0 && len(stagingFiles(prefix, changed)) == 0 {
		return nil
	}
	return cannotRun(fmt.Errorf("cannot lint the staged %s/ records: %w", prefix, cause),
		"run 'git yoimem lint' on the working tree, then commit with --no-verify")
}

// stagedChanges lists .yoi/-relative paths added or modified, and deleted,
// in the index against HEAD (or the empty tree before the first commit).
func stagedChanges(ctx context.Context, repo gitstore.Repo, prefix string) (changed, deleted []string, err error) {
	out, err := repo.Git.Run(ctx, "--no-optional-locks", "diff", "--cached", "--name-status", "--no-renames", "-z", "--", prefix+"/")
	if err != nil {
		return nil, nil, fmt.Errorf("list staged changes: %w", err)
	}
	fields := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		status, p := string(fields[i]), string(fields[i+1])
		rel, ok := strings.CutPrefix(p, prefix+"/")
		if !ok {
			continue
		}
		if strings.HasPrefix(status, "D") {
			deleted = append(deleted, rel)
		} else {
			changed = append(changed, rel)
		}
	}
	return changed, deleted, nil
}

// stagingFiles returns the changed paths that must never be committed.
func stagingFiles(prefix string, changed []string) []string {
	var out []string
	for _, p := range changed {
		if record.Classify(p).Area == record.AreaStaging {
			out = append(out, prefix+"/"+p)
		}
	}
	return out
}

// lintable keeps the paths the linter has something to say about:
// records, anything the layout does not name, and (for credentials) every
// other committed file; staging files are refused apart.
func lintable(paths []string) []string {
	var out []string
	for _, p := range paths {
		if record.Classify(p).Area != record.AreaStaging {
			out = append(out, p)
		}
	}
	return out
}

func reportHookFindings(ctx context.Context, env Env, w *workspace.Workspace, prefix string, rep lint.Report, what string) error {
	hints := []string{
		"fix the records and stage them again ('git yoimem lint' checks the working tree)",
		"--no-verify skips this hook; CI's 'git yoimem lint' still checks",
	}
	if what == "push" {
		hints = []string{
			"fix the records in a new commit (the pushed tip is what is linted), then push again",
			"--no-verify skips this hook; CI's 'git yoimem lint' still checks",
		}
	}
	q := w.PathQuoter(ctx)
	var b strings.Builder
	for _, f := range rep.Findings {
		fmt.Fprintf(&b, "%s:%d:%d: %s %s: %s\n", q.Path(prefix+"/"+f.Path), f.Line, f.Col, f.Severity, f.Rule, quote.Controls(f.Message))
	}
	// Hooks talk to the person committing: findings go to stderr, where
	// git shows hook output.
	fmt.Fprint(env.Stderr, b.String())
	if !rep.HasErrors() {
		return nil
	}
	return &exitError{code: exitFindings,
		err:   fmt.Errorf("git-yoimem refused the %s: %d error(s) in .yoi/ records", what, rep.Count(lint.Error)),
		hints: hints}
}
