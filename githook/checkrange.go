package githook

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
)

// RangeOptions say which commits CheckRange checks.
type RangeOptions struct {
	Repo   gitstore.Repo
	Prefix string // .yoi/ relative to the top level, e.g. ".yoi"
	// Range is BASE..TIP (the commits TIP has and BASE has not), TIP
	// alone (every commit TIP has), or BASE...TIP, read as BASE..TIP: only
	// the tip's side is judged. An empty side is HEAD, as for git.
	Range string
	// As is the ref the range is judged as a push of (refs/heads/NAME):
	// the memory branch's commits are checked as memory commits. ""
	// names it from TIP: a branch, or a remote's tracking branch as the
	// branch it tracks.
	As string
	// Configure reads the configuration, as PushOptions.Configure.
	Configure func() (PushSettings, error)
}

// ErrRange: a range CheckRange cannot read.
var ErrRange = errors.New("bad range")

// CheckRange runs the pre-push checks on a range of commits, for CI where
// a push may have skipped the hook (--no-verify): the .yoi/ records the
// range changes are linted as they are at its tip, and memory commits'
// trailers are checked, exactly as PrePush checks a push of TIP to a
// remote that has BASE (Push).
func CheckRange(ctx context.Context, o RangeOptions) (Result, error) {
	ref, err := rangeRef(ctx, o.Repo, o.Range)
	if err != nil {
		return Result{}, err
	}
	set, cfgErr := o.Configure()
	if cfgErr != nil {
		d := config.Defaults()
		set = PushSettings{Branch: d.String(config.KeyBranch), Base: d.String(config.KeyBaseBranch)}
	}
	ref.RemoteRef = o.As
	if ref.RemoteRef == "" {
		ref.RemoteRef = pushedAs(ref.LocalRef, set.Branch)
	}
	objs, err := gitstore.OpenObjects(o.Repo)
	if err != nil {
		return Result{}, err
	}
	p := &Push{Repo: o.Repo, Objects: objs, Prefix: o.Prefix, Refs: []PushedRef{ref}, Branch: set.Branch, Base: set.Base}
	if err := p.Read(ctx, ""); err != nil { // "": no remote's refs excluded
		return Result{}, err
	}
	res := Result{Prefix: o.Prefix}
	if cfgErr != nil {
		if p.JudgesMemory() {
			return Result{}, cfgErr
		}
		return res, nil
	}
	res.Trailers = p.TrailerFailures()
	if res.Report, err = p.Lint(set.Lint); err != nil {
		return Result{}, err
	}
	return res, nil
}

// rangeRef reads a range as the one ref line a push of its tip to a
// remote that has its base would give pre-push.
func rangeRef(ctx context.Context, r gitstore.Repo, rng string) (PushedRef, error) {
	base, tip, two := strings.Cut(rng, "..")
	if two {
		tip = strings.TrimPrefix(tip, ".") // BASE...TIP
		base, tip = orHEAD(base), orHEAD(tip)
	} else {
		base, tip = "", rng
	}
	if tip == "" {
		return PushedRef{}, fmt.Errorf("%w: empty range: want BASE..TIP or TIP", ErrRange)
	}
	ref := PushedRef{LocalRef: tip, RemoteSHA: ZeroSHA}
	var err error
	if ref.LocalSHA, err = revision(ctx, r, tip); err != nil {
		return PushedRef{}, err
	}
	if base != "" {
		if ref.RemoteSHA, err = revision(ctx, r, base); err != nil {
			return PushedRef{}, err
		}
	}
	if full, err := gitstore.SymbolicFullName(ctx, r, tip); err == nil && full != "" {
		ref.LocalRef = full
	}
	return ref, nil
}

func orHEAD(s string) string {
	if s == "" {
		return "HEAD"
	}
	return s
}

// revision resolves one side of a range to its object's hash.
func revision(ctx context.Context, r gitstore.Repo, name string) (string, error) {
	if strings.HasPrefix(name, "-") {
		return "", fmt.Errorf("%w: %q is not a revision", ErrRange, name)
	}
	h, err := gitstore.ResolveObject(ctx, r, name)
	if err != nil {
		return "", fmt.Errorf("%w: %q names no commit here (a shallow clone may not have it): %w", ErrRange, name, err)
	}
	return h, nil
}

// pushedAs is the branch a ref would be pushed as: a branch as itself, a
// remote's tracking branch of the memory branch as the memory branch (a
// remote's name may hold '/', so only that branch is recognised), and
// anything else as no branch.
func pushedAs(full, memory string) string {
	switch {
	case strings.HasPrefix(full, "refs/heads/"):
		return full
	case strings.HasPrefix(full, "refs/remotes/") && strings.HasSuffix(full, "/"+memory):
		return "refs/heads/" + memory
	}
	return ""
}
