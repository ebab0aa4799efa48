package githook

import (
	"context"
	"io"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/lint"
)

// PushOptions say which push PrePush checks and how to read the
// configuration.
type PushOptions struct {
	Repo   gitstore.Repo
	Prefix string // .yoi/ relative to the top level, e.g. ".yoi"
	// Remote is the remote's name or URL as git gives it to the hook; ""
	// when it gave none: then PRE_COMMIT_REMOTE_NAME, then origin.
	Remote string
	// Getenv reads the pre-commit framework's PRE_COMMIT_* variables: it
	// runs pre-push hooks without ref lines on stdin. nil reads none.
	Getenv func(string) string
	// Configure reads the configuration. It is called only when the push
	// pushes something; when it fails, the push is read with the
	// defaults and the error is returned only if the push has memory to
	// judge (docs/hooks.md).
	Configure func() (PushSettings, error)
}

// PushSettings is what the pre-push check takes from the configuration.
type PushSettings struct {
	Branch string // the memory branch, yoimem.branch
	Base   string // yoimem.baseBranch as configured ("": automatic)
	Lint   lint.Options
}

// PrePush is the pre-push hook's check: it reads git's ref lines from
// refLines, lints the .yoi/ records the pushed commits change, as they
// are at each pushed tip (Result.Report), and checks memory commits'
// trailers (Result.Trailers), with one git process for the whole push
// however many refs it has (gitstore.ReadPushLog). A push that only
// deletes refs is not read further. Configure's error is returned as it
// is; other errors mean the push could not be checked.
func PrePush(ctx context.Context, o PushOptions, refLines io.Reader) (Result, error) {
	getenv := o.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	refs, err := ReadPushedRefs(refLines)
	if err != nil {
		return Result{}, err
	}
	if len(refs) == 0 {
		if from, to := getenv("PRE_COMMIT_FROM_REF"), getenv("PRE_COMMIT_TO_REF"); to != "" {
			// The pre-commit framework runs pre-push hooks without stdin.
			refs = []PushedRef{{LocalRef: to, LocalSHA: to, RemoteRef: getenv("PRE_COMMIT_REMOTE_BRANCH"), RemoteSHA: orZero(from)}}
		}
	}
	res := Result{Prefix: o.Prefix}
	pushed := Pushed(refs)
	if len(pushed) == 0 {
		return res, nil
	}
	remote := o.Remote
	if remote == "" {
		remote = getenv("PRE_COMMIT_REMOTE_NAME")
	}
	if remote == "" {
		remote = "origin"
	}
	set, cfgErr := o.Configure()
	if cfgErr != nil {
		d := config.Defaults()
		set = PushSettings{Branch: d.String(config.KeyBranch), Base: d.String(config.KeyBaseBranch)}
	}
	objs, err := gitstore.OpenObjects(o.Repo)
	if err != nil {
		return Result{}, err
	}
	p := &Push{Repo: o.Repo, Objects: objs, Prefix: o.Prefix, Refs: pushed, Branch: set.Branch, Base: set.Base}
	if err := p.Read(ctx, remote); err != nil {
		return Result{}, err
	}
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

func orZero(s string) string {
	if s == "" {
		return ZeroSHA
	}
	return s
}
