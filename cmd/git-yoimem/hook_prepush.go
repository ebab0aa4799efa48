package main

import (
	"context"
	"fmt"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/githook"
)

// runPrePush runs githook.PrePush on the ref lines git gives on stdin and
// reports what it found: bad trailers, then the findings.
func runPrePush(ctx context.Context, env Env, g *globalOptions, opts hookOptions) error {
	w, err := findWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	prefix, err := yoiPrefix(w)
	if err != nil {
		return err
	}
	o := githook.PushOptions{Repo: w.Repo, Prefix: prefix, Getenv: env.Getenv,
		Configure: func() (githook.PushSettings, error) {
			if err := hookConfigError(w.Configure(ctx)); err != nil {
				return githook.PushSettings{}, err
			}
			return githook.PushSettings{Branch: w.Config.String(config.KeyBranch), Base: w.Config.String(config.KeyBaseBranch),
				Lint: w.LintOptions()}, nil
		}}
	if len(opts.args) > 0 {
		o.Remote = opts.args[0]
	}
	res, err := githook.PrePush(ctx, o, env.Stdin)
	if err != nil {
		return hookError(err)
	}
	for _, f := range res.Trailers {
		fmt.Fprintln(env.Stderr, f)
	}
	err = reportHookFindings(ctx, env, w, res, "push")
	if len(res.Trailers) > 0 && err == nil {
		err = &exitError{code: exitFindings, err: fmt.Errorf("git-yoimem refused the push: %d memory commit(s) with bad trailers", len(res.Trailers)),
			hints: []string{"memory commits are written by consolidation; rewrite or drop the bad ones before pushing"}}
	}
	return err
}
