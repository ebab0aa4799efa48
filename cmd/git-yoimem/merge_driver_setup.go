package main

import (
	"context"
	"path/filepath"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/workspace"
)

// workspaceRel is the workspace root relative to the top level, slashed.
func workspaceRel(w *workspace.Workspace) string {
	rel, err := filepath.Rel(w.Repo.TopLevel, w.Root)
	if err != nil {
		return "."
	}
	return filepath.ToSlash(rel)
}

// registerMergeDriver registers the record merge driver (init, install)
// and says what changed. It returns the .gitattributes it wrote, if any:
// a file to commit, so that every clone merges records the same way.
func registerMergeDriver(ctx context.Context, env Env, w *workspace.Workspace) (string, error) {
	changes, err := gitstore.InstallMergeDriver(ctx, w.Repo, workspaceRel(w))
	reportMergeDriver(env, changes, "set %s in the local git config")
	if err != nil {
		return "", cannotRun(err, "the record merge driver is optional: without it git merges records as text (docs/merging.md)")
	}
	for _, c := range changes {
		if c.Path != "" {
			return c.Path, nil
		}
	}
	return "", nil
}

// unregisterMergeDriver takes the registration out (uninstall).
func unregisterMergeDriver(ctx context.Context, env Env, w *workspace.Workspace) error {
	changes, err := gitstore.UninstallMergeDriver(ctx, w.Repo, workspaceRel(w))
	reportMergeDriver(env, changes, "removed %s from the local git config")
	if err != nil {
		return cannotRun(err)
	}
	return nil
}

func reportMergeDriver(env Env, changes []gitstore.MergeDriverChange, configFormat string) {
	for _, c := range changes {
		switch {
		case c.Path == "":
			statusf(env.Stderr, configFormat, c.What[len("config "):])
		case c.Created:
			statusf(env.Stderr, "created %s", displayPath(env, c.Path))
		case c.Removed:
			statusf(env.Stderr, "removed %s", displayPath(env, c.Path))
		default:
			statusf(env.Stderr, "updated %s", displayPath(env, c.Path))
		}
	}
}
