package githook

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/lint"
)

// PushedRef is one line git gives pre-push on stdin.
type PushedRef struct {
	LocalRef, LocalSHA, RemoteRef, RemoteSHA string
}

// ZeroSHA is git's name for no object: a ref created or deleted.
const ZeroSHA = "0000000000000000000000000000000000000000"

// ErrRefLine: a line on pre-push's stdin that is not git's ref line.
var ErrRefLine = errors.New("pre-push: unexpected line on stdin")

// ReadPushedRefs reads git's pre-push lines ("<local ref> <local sha>
// <remote ref> <remote sha>").
func ReadPushedRefs(r io.Reader) ([]PushedRef, error) {
	var refs []PushedRef
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) != 4 {
			return nil, fmt.Errorf("%w: %q", ErrRefLine, sc.Text())
		}
		refs = append(refs, PushedRef{f[0], f[1], f[2], f[3]})
	}
	return refs, sc.Err()
}

// Pushed keeps the refs that push something: a delete pushes nothing.
func Pushed(refs []PushedRef) []PushedRef {
	var out []PushedRef
	for _, r := range refs {
		if r.LocalSHA != ZeroSHA {
			out = append(out, r)
		}
	}
	return out
}

// Push is one push being checked by the pre-push hook: it lints the .yoi/
// records the pushed commits change, as they are at each pushed tip, and
// checks memory commits' trailers, with one git process for the whole
// push however many refs it has (gitstore.ReadPushLog); trees and blobs
// are read from the objects.
type Push struct {
	Repo    gitstore.Repo
	Objects *gitstore.Objects
	Prefix  string      // .yoi/ relative to the top level, e.g. ".yoi"
	Refs    []PushedRef // what is pushed (Pushed)
	Branch  string      // the memory branch, yoimem.branch
	Base    string      // yoimem.baseBranch as configured ("": automatic)

	log  *gitstore.PushLog
	tips []int // each ref's tip among log.Commits, -1 when it pushes nothing new
	base int   // the base branch's tip among log.Commits, -1 if none
}

// Read lists the push's new commits with one git log, excluding what the
// remote has: the refs' old values there, and its tracking refs (every
// remote's for a push to a URL). A ref's tip is found among them by its
// hash, a tag peeled here: tags on commits already listed cost nothing.
func (p *Push) Read(ctx context.Context, remote string) error {
	q := gitstore.PushQuery{Remote: remote, Prefix: p.Prefix}
	if strings.ContainsAny(remote, "/:") {
		q.Remote = "*"
	}
	for _, r := range p.Refs {
		q.Tips = append(q.Tips, r.LocalSHA)
		if r.RemoteSHA != ZeroSHA {
			q.Have = append(q.Have, r.RemoteSHA)
		}
	}
	baseRef := ""
	if len(p.memoryRefs()) > 0 {
		// Commits of the base branch that the memory branch is built on
		// are not memory commits, whatever they touch. No base, or the
		// memory branch named as its own base (a committed setting must
		// not excuse every commit): every commit is judged.
		b, err := gitstore.ResolveBase(ctx, p.Repo, p.Base)
		if err == nil && b != p.memoryRef() {
			baseRef, q.Base = b, b
		}
	}
	var err error
	if p.log, err = gitstore.ReadPushLog(ctx, p.Repo, p.Objects, q); err != nil {
		return err
	}
	p.tips = make([]int, len(p.Refs))
	for i, r := range p.Refs {
		if p.tips[i], err = p.commitIndex(ctx, r.LocalSHA); err != nil {
			return fmt.Errorf("%s: %w", r.LocalRef, err)
		}
	}
	p.base = -1
	if baseRef != "" {
		if h, err := p.Objects.RefHash(baseRef); err == nil && h != "" {
			p.base, _ = p.commitIndex(ctx, h)
		}
	}
	return nil
}

// commitIndex finds the commit an object names among the new commits.
func (p *Push) commitIndex(ctx context.Context, object string) (int, error) {
	if !plumbing.IsHash(object) { // the pre-commit framework may give a name
		h, err := gitstore.ResolveObject(ctx, p.Repo, object)
		if err != nil {
			return -1, err
		}
		object = h
	}
	if i, ok := p.log.Index(plumbing.NewHash(object)); ok {
		return i, nil
	}
	h, ok, err := p.Objects.PeelCommit(object)
	if err != nil || !ok {
		return -1, err // a tree or a blob: no commits
	}
	if i, ok := p.log.Index(h); ok {
		return i, nil
	}
	return -1, nil // a commit the remote has
}

// JudgesMemory says whether the push has anything for the hook to judge:
// a pushed commit that changes .yoi/ or carries Yoimem-* trailers, or the
// memory branch itself.
func (p *Push) JudgesMemory() bool {
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
func (p *Push) memoryRef() string { return "refs/heads/" + p.Branch }

// memoryRefs are the indices of the refs that push the memory branch.
func (p *Push) memoryRefs() []int {
	memoryRef := p.memoryRef()
	var out []int
	for i, r := range p.Refs {
		if r.LocalRef == memoryRef || r.RemoteRef == memoryRef {
			out = append(out, i)
		}
	}
	return out
}

// TrailerFailures checks, once each, the pushed commits that carry
// Yoimem-* trailers, and the memory commits: those the memory branch
// pushes that are not on its base, change only .yoi/ and are not reverts.
func (p *Push) TrailerFailures() []string {
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
		ref := p.Refs[via[i]].LocalRef
		if memory {
			ref = p.Refs[mem[onMemory[i]]].LocalRef
		}
		out = append(out, fmt.Sprintf("%s: memory commit %.12s: %v", ref, c.Hash, c.TrailerErr))
	}
	return out
}

// Lint lints, at each pushed tip, the .yoi/ records the new commits it
// reaches change. A tip whose .yoi/ tree and changed paths were linted
// already (tags on one commit, a branch and its tag) is not linted again,
// and a finding repeated at several tips is reported once.
func (p *Push) Lint(lo lint.Options) (lint.Report, error) {
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
		tree, err := gitstore.PrefixTree(p.Objects, p.log.Commits[i].Hash, p.Prefix)
		if err != nil {
			return lint.Report{}, err
		}
		if k := (key{tree, touched[i]}); done[k] {
			continue
		} else {
			done[k] = true
		}
		snap, err := gitstore.TreeSnapshot(p.Objects, tree, lo.MaxFileBytes)
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
		for _, f := range lint.Changed(snap, Lintable(changed), deleted, lo).Findings {
			if !seen[f] {
				seen[f] = true
				all.Findings = append(all.Findings, f)
			}
		}
	}
	return all, nil
}
