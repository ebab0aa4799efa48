package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
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
			return usageError("unknown hook %q: want pre-commit or pre-push", opts.name)
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
func yoiPrefix(w *workspace) (string, error) {
	rel, err := filepath.Rel(w.repo.TopLevel, w.yoiDir())
	if err != nil || !filepath.IsLocal(rel) {
		return "", cannotRun(fmt.Errorf("workspace %s is outside the repository %s", w.root, w.repo.TopLevel))
	}
	return filepath.ToSlash(rel), nil
}

func runPreCommit(ctx context.Context, env Env, g *globalOptions) error {
	env = hookEnv(env)
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	prefix, err := yoiPrefix(w)
	if err != nil {
		return err
	}
	objs, err := gitstore.OpenObjects(w.repo)
	if errors.Is(err, gitstore.ErrSHA256) {
		return preCommitWithoutObjects(ctx, w, prefix, err)
	}
	if err != nil {
		return cannotRun(err)
	}
	lo := lintOptions(w.cfg)
	// The index and objects are read directly; git answers when the index
	// is split or sparse, or anything else is out of the ordinary.
	changed, deleted, lazySnap, err := gitstore.StagedFast(objs, w.repo.IndexFile(env.Dir, env.Getenv), prefix, lo.MaxFileBytes)
	if errors.Is(err, gitstore.ErrIndexChecksum) {
		return cannotRun(err, "'git reset' rebuilds the index from HEAD (the working tree is kept); then stage your changes again")
	}
	if err != nil {
		if changed, deleted, err = stagedChanges(ctx, w.repo, prefix); err != nil {
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
	var snap record.Snapshot
	if lazySnap != nil {
		snap = lazySnap()
	} else if snap, err = gitstore.IndexSnapshot(ctx, w.repo, objs, prefix, lo.MaxFileBytes); err != nil {
		return cannotRun(err)
	}
	rep := lint.Changed(snap, records, deleted, lo)
	return reportHookFindings(env, w, prefix, rep, "commit")
}

// preCommitWithoutObjects serves repositories whose objects cannot be read
// here (SHA-256): commits that stage nothing under .yoi/ go through; the
// others are refused with the reason, since they cannot be linted.
func preCommitWithoutObjects(ctx context.Context, w *workspace, prefix string, cause error) error {
	changed, deleted, err := stagedChanges(ctx, w.repo, prefix)
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

func reportHookFindings(env Env, w *workspace, prefix string, rep lint.Report, what string) error {
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
	var b strings.Builder
	for _, f := range rep.Findings {
		fmt.Fprintf(&b, "%s/%s:%d:%d: %s %s: %s\n", prefix, f.Path, f.Line, f.Col, f.Severity, f.Rule, f.Message)
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

// pushedRef is one line git gives pre-push on stdin.
type pushedRef struct {
	localRef, localSHA, remoteRef, remoteSHA string
}

const zeroSHA = "0000000000000000000000000000000000000000"

func readPushedRefs(r io.Reader) ([]pushedRef, error) {
	var refs []pushedRef
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 4 {
			return nil, fmt.Errorf("pre-push: unexpected line on stdin: %q", sc.Text())
		}
		refs = append(refs, pushedRef{f[0], f[1], f[2], f[3]})
	}
	return refs, sc.Err()
}

func runPrePush(ctx context.Context, env Env, g *globalOptions, opts hookOptions) error {
	remote := "origin"
	if len(opts.args) > 0 {
		remote = opts.args[0]
	} else if r := env.Getenv("PRE_COMMIT_REMOTE_NAME"); r != "" {
		remote = r
	}
	refs, err := readPushedRefs(env.Stdin)
	if err != nil {
		return cannotRun(err)
	}
	if len(refs) == 0 {
		if from, to := env.Getenv("PRE_COMMIT_FROM_REF"), env.Getenv("PRE_COMMIT_TO_REF"); to != "" {
			// The pre-commit framework runs pre-push hooks without stdin.
			refs = []pushedRef{{localRef: to, localSHA: to, remoteRef: env.Getenv("PRE_COMMIT_REMOTE_BRANCH"), remoteSHA: orZero(from)}}
		}
	}
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	prefix, err := yoiPrefix(w)
	if err != nil {
		return err
	}
	var objs *gitstore.Objects
	var failures []string
	var all lint.Report
	for _, r := range refs {
		if r.localSHA == zeroSHA {
			continue // a delete pushes nothing
		}
		// What the remote has is not ours to judge; a push to a URL (no
		// remote-tracking refs of its own) compares with every remote.
		exclude := []string{"--not", "--remotes=" + remote}
		if strings.ContainsAny(remote, "/:") {
			exclude = []string{"--not", "--remotes"}
		}
		if r.remoteSHA != zeroSHA && objectExists(ctx, w.repo, r.remoteSHA) {
			exclude = []string{"^" + r.remoteSHA}
		}
		if objs == nil {
			if objs, err = gitstore.OpenObjects(w.repo); err != nil {
				return cannotRun(err)
			}
		}
		rep, bad, err := checkPushedRange(ctx, w, objs, prefix, r, exclude)
		if err != nil {
			return cannotRun(err)
		}
		all.Findings = append(all.Findings, rep.Findings...)
		failures = append(failures, bad...)
	}
	for _, f := range failures {
		fmt.Fprintln(env.Stderr, f)
	}
	err = reportHookFindings(env, w, prefix, all, "push")
	if len(failures) > 0 && err == nil {
		err = &exitError{code: exitFindings, err: fmt.Errorf("git-yoimem refused the push: %d memory commit(s) with bad trailers", len(failures)),
			hints: []string{"memory commits are written by 'git yoimem consolidate'; rewrite or drop the bad ones before pushing"}}
	}
	return err
}

func orZero(s string) string {
	if s == "" {
		return zeroSHA
	}
	return s
}

func objectExists(ctx context.Context, repo gitstore.Repo, sha string) bool {
	_, err := repo.Git.Run(ctx, "cat-file", "-e", sha+"^{commit}")
	return err == nil
}

// checkPushedRange lints the .yoi/ records the range changes, at the
// pushed tip, and checks memory commits' trailers.
func checkPushedRange(ctx context.Context, w *workspace, objs *gitstore.Objects, prefix string, r pushedRef, exclude []string) (lint.Report, []string, error) {
	args := append([]string{"log", "-z", "--no-renames", "--format=%x01%H%x00%B%x00", "--name-status", r.localSHA}, exclude...)
	args = append(args, "--")
	out, err := w.repo.Git.Run(ctx, args...)
	if err != nil {
		return lint.Report{}, nil, fmt.Errorf("list pushed commits of %s: %w", r.localRef, err)
	}
	commits := parseLogWithFiles(out)
	memoryRef := "refs/heads/" + w.cfg.String(config.KeyBranch)
	isMemoryPush := r.localRef == memoryRef || r.remoteRef == memoryRef
	onBase := map[string]bool{}
	if isMemoryPush {
		// Commits of the base branch that the memory branch is built on
		// are not memory commits, whatever they touch.
		if onBase, err = baseCommits(ctx, w, r.localSHA, exclude); err != nil {
			return lint.Report{}, nil, err
		}
	}
	var bad []string
	touched := map[string]bool{}
	for _, c := range commits {
		hasTrailers := false
		for _, t := range gitstore.ParseTrailers(c.message) {
			hasTrailers = hasTrailers || strings.HasPrefix(strings.ToLower(t.Key), "yoimem-")
		}
		isRevert := !hasTrailers && strings.Contains(c.message, "\nThis reverts commit ")
		if isMemoryPush && !onBase[c.hash] && !isRevert && touchesOnly(c.files, prefix) || hasTrailers {
			if err := gitstore.CheckTrailers(c.message); err != nil {
				bad = append(bad, fmt.Sprintf("%s: memory commit %.12s: %v", r.localRef, c.hash, err))
			}
		}
		for _, f := range c.files {
			if rel, ok := strings.CutPrefix(f, prefix+"/"); ok {
				touched[rel] = true
			}
		}
	}
	if len(touched) == 0 {
		return lint.Report{}, bad, nil
	}
	lo := lintOptions(w.cfg)
	snap, err := gitstore.RevisionSnapshot(ctx, w.repo, objs, r.localSHA, prefix, lo.MaxFileBytes)
	if err != nil {
		return lint.Report{}, nil, err
	}
	var changed, deleted []string
	for p := range touched {
		if _, ok := snap.Lookup(p); ok {
			changed = append(changed, p)
		} else {
			deleted = append(deleted, p)
		}
	}
	return lint.Changed(snap, lintable(changed), deleted, lo), bad, nil
}

// baseCommits lists the pushed commits that are on the base branch (local
// or origin's): git rev-list <tip> <exclude…> minus those not on the base.
func baseCommits(ctx context.Context, w *workspace, tip string, exclude []string) (map[string]bool, error) {
	base, err := gitstore.ResolveBase(ctx, w.repo, w.cfg.String(config.KeyBaseBranch))
	if err != nil {
		return map[string]bool{}, nil // no base: every commit is judged
	}
	args := append([]string{"rev-list", tip}, exclude...)
	all, err := w.repo.Git.Run(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("list pushed commits: %w", err)
	}
	notBase, err := w.repo.Git.Run(ctx, append(append([]string{"rev-list", tip}, exclude...), "^"+base)...)
	if err != nil {
		return nil, fmt.Errorf("list pushed commits not on %s: %w", base, err)
	}
	out := map[string]bool{}
	for _, h := range strings.Fields(string(all)) {
		out[h] = true
	}
	for _, h := range strings.Fields(string(notBase)) {
		delete(out, h)
	}
	return out, nil
}

// touchesOnly: a commit whose changes are all under prefix (a memory
// commit's shape). Merges list no files and are not memory commits.
func touchesOnly(files []string, prefix string) bool {
	if len(files) == 0 {
		return false
	}
	for _, f := range files {
		if !strings.HasPrefix(f, prefix+"/") {
			return false
		}
	}
	return true
}

type loggedCommit struct {
	hash, message string
	files         []string
}

// parseLogWithFiles reads `git log -z --format=%x01%H%x00%B%x00 --name-status`.
func parseLogWithFiles(out []byte) []loggedCommit {
	var commits []loggedCommit
	for _, chunk := range bytes.Split(out, []byte{1}) {
		parts := bytes.Split(chunk, []byte{0})
		if len(parts) < 2 {
			continue
		}
		c := loggedCommit{hash: string(bytes.TrimSpace(parts[0])), message: string(parts[1])}
		// Then: empty separators, and status / path pairs ("\nA", path, "D", path…).
		wantPath := false
		for _, tok := range parts[2:] {
			switch {
			case wantPath:
				c.files = append(c.files, string(tok))
				wantPath = false
			case len(bytes.TrimSpace(tok)) > 0:
				wantPath = true
			}
		}
		commits = append(commits, c)
	}
	return commits
}
