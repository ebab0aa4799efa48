package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/workspace"
)

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

func orZero(s string) string {
	if s == "" {
		return zeroSHA
	}
	return s
}

// runPrePush lints the .yoi/ records the pushed commits change, as they are
// at each pushed tip, and checks memory commits' trailers, with one git
// process for the whole push however many refs it has (gitstore.ReadPushLog);
// trees and blobs are read here.
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
	var pushed []pushedRef
	for _, r := range refs {
		if r.localSHA != zeroSHA { // a delete pushes nothing
			pushed = append(pushed, r)
		}
	}
	w, err := findWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	prefix, err := yoiPrefix(w)
	if err != nil {
		return err
	}
	if len(pushed) == 0 {
		return nil
	}
	// A bad configuration blocks only pushes that have memory to judge:
	// the push is read with the defaults first, as the pre-commit hook
	// does (docs/hooks.md).
	cfgErr := configure(ctx, w)
	if cfgErr != nil {
		w.Config = config.Defaults()
	}
	objs, err := gitstore.OpenObjects(w.Repo)
	if err != nil {
		return cannotRun(err)
	}
	p := &prePush{w: w, objs: objs, prefix: prefix, refs: pushed}
	if err := p.read(ctx, remote); err != nil {
		return cannotRun(err)
	}
	if cfgErr != nil {
		if p.judgesMemory() {
			return cfgErr
		}
		return nil
	}
	failures := p.trailerFailures()
	rep, err := p.lint()
	if err != nil {
		return cannotRun(err)
	}
	for _, f := range failures {
		fmt.Fprintln(env.Stderr, f)
	}
	err = reportHookFindings(ctx, env, w, prefix, rep, "push")
	if len(failures) > 0 && err == nil {
		err = &exitError{code: exitFindings, err: fmt.Errorf("git-yoimem refused the push: %d memory commit(s) with bad trailers", len(failures)),
			hints: []string{"memory commits are written by consolidation; rewrite or drop the bad ones before pushing"}}
	}
	return err
}

// prePush is one push being checked.
type prePush struct {
	w      *workspace.Workspace
	objs   *gitstore.Objects
	prefix string
	refs   []pushedRef

	log  *gitstore.PushLog
	tips []int // each ref's tip among log.Commits, -1 when it pushes nothing new
	base int   // the base branch's tip among log.Commits, -1 if none
}

// read lists the push's new commits with one git log, excluding what the
// remote has: the refs' old values there, and its tracking refs (every
// remote's for a push to a URL). A ref's tip is found among them by its
// hash, a tag peeled here: tags on commits already listed cost nothing.
func (p *prePush) read(ctx context.Context, remote string) error {
	q := gitstore.PushQuery{Remote: remote, Prefix: p.prefix}
	if strings.ContainsAny(remote, "/:") {
		q.Remote = "*"
	}
	for _, r := range p.refs {
		q.Tips = append(q.Tips, r.localSHA)
		if r.remoteSHA != zeroSHA {
			q.Have = append(q.Have, r.remoteSHA)
		}
	}
	baseRef := ""
	if len(p.memoryRefs()) > 0 {
		// Commits of the base branch that the memory branch is built on
		// are not memory commits, whatever they touch. No base, or the
		// memory branch named as its own base (a committed setting must
		// not excuse every commit): every commit is judged.
		b, err := gitstore.ResolveBase(ctx, p.w.Repo, p.w.Config.String(config.KeyBaseBranch))
		if err == nil && b != p.memoryRef() {
			baseRef, q.Base = b, b
		}
	}
	var err error
	if p.log, err = gitstore.ReadPushLog(ctx, p.w.Repo, p.objs, q); err != nil {
		return err
	}
	p.tips = make([]int, len(p.refs))
	for i, r := range p.refs {
		if p.tips[i], err = p.commitIndex(ctx, r.localSHA); err != nil {
			return fmt.Errorf("%s: %w", r.localRef, err)
		}
	}
	p.base = -1
	if baseRef != "" {
		if h, err := p.objs.RefHash(baseRef); err == nil && h != "" {
			p.base, _ = p.commitIndex(ctx, h)
		}
	}
	return nil
}

// commitIndex finds the commit an object names among the new commits.
func (p *prePush) commitIndex(ctx context.Context, object string) (int, error) {
	if !plumbing.IsHash(object) { // the pre-commit framework may give a name
		out, err := p.w.Repo.Git.Run(ctx, "rev-parse", "--verify", "--end-of-options", object+"^{object}")
		if err != nil {
			return -1, err
		}
		object = strings.TrimSpace(string(out))
	}
	if i, ok := p.log.Index(plumbing.NewHash(object)); ok {
		return i, nil
	}
	h, ok, err := p.objs.PeelCommit(object)
	if err != nil || !ok {
		return -1, err // a tree or a blob: no commits
	}
	if i, ok := p.log.Index(h); ok {
		return i, nil
	}
	return -1, nil // a commit the remote has
}

// judgesMemory says whether the push has anything for the hook to judge:
// a pushed commit that changes .yoi/ or carries Yoimem-* trailers, or the
// memory branch itself.
func (p *prePush) judgesMemory() bool {
	if len(p.memoryRefs()) > 0 {
		return true
	}
	touched, via := p.log.Touched(), p.log.Reach(p.tips)
	for i, c := range p.log.Commits {
		if via[i] >= 0 && (touched[i].Len() > 0 || c.Trailers) {
			return true
		}
	}
	return false
}

// memoryRef is the memory branch's full ref name.
func (p *prePush) memoryRef() string { return "refs/heads/" + p.w.Config.String(config.KeyBranch) }

// memoryRefs are the indices of the refs that push the memory branch.
func (p *prePush) memoryRefs() []int {
	memoryRef := p.memoryRef()
	var out []int
	for i, r := range p.refs {
		if r.localRef == memoryRef || r.remoteRef == memoryRef {
			out = append(out, i)
		}
	}
	return out
}

// trailerFailures checks, once each, the pushed commits that carry
// Yoimem-* trailers, and the memory commits: those the memory branch
// pushes that are not on its base, change only .yoi/ and are not reverts.
func (p *prePush) trailerFailures() []string {
	via := p.log.Reach(p.tips)
	mem := p.memoryRefs()
	memTips := make([]int, len(mem))
	for i, r := range mem {
		memTips[i] = p.tips[r]
	}
	onMemory, onBase := p.log.Reach(memTips), p.log.Reach([]int{p.base})
	var out []string
	for i, c := range p.log.Commits {
		if via[i] < 0 || c.TrailerErr == nil {
			continue // not pushed (only on the base), or nothing to say
		}
		memory := onMemory[i] >= 0 && onBase[i] < 0 && c.OnlyPrefix && !c.Revert
		if !c.Trailers && !memory {
			continue
		}
		ref := p.refs[via[i]].localRef
		if memory {
			ref = p.refs[mem[onMemory[i]]].localRef
		}
		out = append(out, fmt.Sprintf("%s: memory commit %.12s: %v", ref, c.Hash, c.TrailerErr))
	}
	return out
}

// lint lints, at each pushed tip, the .yoi/ records the new commits it
// reaches change. A tip whose .yoi/ tree and changed paths were linted
// already (tags on one commit, a branch and its tag) is not linted again,
// and a finding repeated at several tips is reported once.
func (p *prePush) lint() (lint.Report, error) {
	lo := p.w.LintOptions()
	touched := p.log.Touched()
	type key struct {
		tree  plumbing.Hash
		paths *gitstore.PathSet
	}
	tipDone, done := map[int]bool{}, map[key]bool{}
	seen := map[lint.Finding]bool{}
	var all lint.Report
	for _, i := range p.tips {
		if i < 0 || touched[i].Len() == 0 || tipDone[i] {
			continue
		}
		tipDone[i] = true
		tree, err := gitstore.PrefixTree(p.objs, p.log.Commits[i].Hash, p.prefix)
		if err != nil {
			return lint.Report{}, err
		}
		if k := (key{tree, touched[i]}); done[k] {
			continue
		} else {
			done[k] = true
		}
		snap, err := gitstore.TreeSnapshot(p.objs, tree, lo.MaxFileBytes)
		if err != nil {
			return lint.Report{}, err
		}
		var changed, deleted []string
		for _, path := range touched[i].Sorted() {
			if _, ok := snap.Lookup(path); ok {
				changed = append(changed, path)
			} else {
				deleted = append(deleted, path)
			}
		}
		for _, f := range lint.Changed(snap, lintable(changed), deleted, lo).Findings {
			if !seen[f] {
				seen[f] = true
				all.Findings = append(all.Findings, f)
			}
		}
	}
	return all, nil
}
