package main

import (
	"context"
	"fmt"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/hooks/check"
)

func orZero(s string) string {
	if s == "" {
		return check.ZeroSHA
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
	refs, err := check.ReadPushedRefs(env.Stdin)
	if err != nil {
		return cannotRun(err)
	}
	if len(refs) == 0 {
		if from, to := env.Getenv("PRE_COMMIT_FROM_REF"), env.Getenv("PRE_COMMIT_TO_REF"); to != "" {
			// The pre-commit framework runs pre-push hooks without stdin.
			refs = []check.PushedRef{{LocalRef: to, LocalSHA: to, RemoteRef: env.Getenv("PRE_COMMIT_REMOTE_BRANCH"), RemoteSHA: orZero(from)}}
		}
	}
	pushed := check.Pushed(refs)
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
	p := &check.Push{Repo: w.Repo, Objects: objs, Prefix: prefix, Refs: pushed,
		Branch: w.Config.String(config.KeyBranch), Base: w.Config.String(config.KeyBaseBranch)}
	if err := p.Read(ctx, remote); err != nil {
		return cannotRun(err)
	}
	if cfgErr != nil {
		if p.JudgesMemory() {
			return cfgErr
		}
		return nil
	}
	failures := p.TrailerFailures()
	rep, err := p.Lint(w.LintOptions())
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
