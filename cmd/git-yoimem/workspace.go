package main

import (
	"context"
	"errors"
	"strings"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

// The workspace as the command line opens it: the global flags and the
// process's environment in, exit codes and hints for its errors out.

func workspaceEnv(env Env) workspace.Env {
	return workspace.Env{
		Dir: env.Dir, Getenv: env.Getenv, Environ: env.Environ, Now: env.Now,
		Warn: func(msg string) { warnf(env.Stderr, "%s", msg) },
	}
}

func workspaceOptions(g *globalOptions) workspace.Options {
	return workspace.Options{Workspace: g.workspace, Config: g.configFlags}
}

// openWorkspace opens the workspace with its configuration (fast where it
// can be: workspace.Open).
func openWorkspace(ctx context.Context, env Env, g *globalOptions) (*workspace.Workspace, error) {
	w, err := workspace.Open(ctx, workspaceEnv(env), workspaceOptions(g))
	return w, workspaceError(err)
}

// findWorkspace finds the workspace and reads no configuration, for a
// command that may not need it (configure reads it).
func findWorkspace(ctx context.Context, env Env, g *globalOptions) (*workspace.Workspace, error) {
	w, err := workspace.Find(ctx, workspaceEnv(env), workspaceOptions(g))
	return w, workspaceError(err)
}

// locate finds the workspace through git; it reads no configuration.
func locate(ctx context.Context, env Env, g *globalOptions) (*workspace.Workspace, error) {
	w, err := workspace.Locate(ctx, workspaceEnv(env), workspaceOptions(g))
	var we *workspace.Error
	if err != nil && !errors.As(err, &we) && !errors.Is(err, context.Canceled) {
		// git itself could not answer (a broken .git/config, a bad GIT_DIR)
		return nil, cannotRun(err, "'git status' here shows the same problem: fix what git reports, then run the command again")
	}
	return w, workspaceError(err)
}

func configure(ctx context.Context, w *workspace.Workspace) error {
	return workspaceError(w.Configure(ctx))
}

// workspaceError gives a workspace's error its exit code and what to do.
func workspaceError(err error) error {
	var we *workspace.Error
	if err == nil {
		return nil
	} else if !errors.As(err, &we) {
		return cannotRun(err)
	}
	switch we.Kind {
	case workspace.NotRepository:
		return cannotRun(err, "run 'git init' first, or cd into a repository")
	case workspace.NoWorkTree:
		return cannotRun(err, "run git yoimem inside a working tree")
	case workspace.OutsideWorkTree:
		return cannotRun(err, "give a directory of this repository's working tree (the default is its top level), or cd into the repository that holds it")
	case workspace.BadConfigFlag:
		return badConfigFlag(we.Arg, we.Err)
	case workspace.BadConfigValue:
		return cannotRun(err, "fix the value, or remove it to use the default; 'git yoimem config' lists every key")
	case workspace.BadConfigFile:
		return cannotRun(err, "fix the line the message names (git config syntax: [yoimem \"section\"] then key = value on lines of their own), or move the file away to use the defaults")
	case workspace.BadBranch:
		return cannotRun(err, "use a name git accepts as a branch (git check-ref-format --branch NAME)")
	case workspace.NoYoi:
		return cannotRun(err, "run 'git yoimem init' to create it")
	}
	return cannotRun(err)
}

// noYoi is the error of a command that writes into .yoi/ when there is
// none, with the hint to make it; other errors are cannotRun.
func noYoi(w *workspace.Workspace, err error) error {
	err = w.NoYoiError(err)
	var we *workspace.Error
	if errors.As(err, &we) && we.Kind == workspace.NoYoi {
		return cannotRun(err, "run 'git yoimem init' first")
	}
	return cannotRun(err)
}

// worktreeSnapshot lists .yoi/ in the working tree (only dirs, when any).
func worktreeSnapshot(w *workspace.Workspace, dirs ...string) (record.Snapshot, error) {
	snap, err := w.Snapshot(dirs...)
	return snap, workspaceError(err)
}

// badConfigFlag is a -c that names no key: what was meant, or its shape.
func badConfigFlag(arg string, err error) error {
	name, value, _ := strings.Cut(arg, "=")
	if s := config.SuggestKeys(name); len(s) == 1 {
		return usageErrorHint("did you mean -c "+s[0]+"="+value+"?", "%v", err)
	}
	return usageErrorHint("write it as -c yoimem.<section>.<key>=VALUE; 'git yoimem config' lists every key", "%v", err)
}

// displayPath shows an absolute path relative to the working directory
// when it is below it.
func displayPath(env Env, p string) string { return workspace.Display(env.Dir, p) }

// hookConfigError is a git hook's configuration error: what to fix, and
// that the hook can be skipped (CI still lints).
func hookConfigError(err error) error {
	var we *workspace.Error
	if !errors.As(err, &we) {
		return workspaceError(err)
	}
	switch we.Kind {
	case workspace.BadConfigValue, workspace.BadConfigFile, workspace.BadBranch:
		return cannotRun(err,
			"fix the value or line the message names (in .yoi/config, or in git config when it names git config), or remove it to use the default; 'git yoimem config' then shows each value and where it comes from",
			skipHookHint)
	}
	return workspaceError(err)
}
