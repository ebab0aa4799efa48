package workspace

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
	"github.com/yoimem/git-yoimem/record"
)

// YoiDir is the workspace's .yoi/.
func (w *Workspace) YoiDir() string { return filepath.Join(w.Root, record.Dir) }

// StagingDir is .yoi/memory/_staging/, where extract leaves its output
// for consolidation (it may not exist yet).
func (w *Workspace) StagingDir() string {
	return filepath.Join(w.YoiDir(), filepath.FromSlash(record.StagingDir))
}

// LocalDir is the machine-local state that is never committed:
// $(git rev-parse --git-common-dir)/yoimem/, shared by linked worktrees.
func (w *Workspace) LocalDir() string { return filepath.Join(w.Repo.CommonDir, "yoimem") }

// SharedPerm is the repository's core.sharedRepository: the bits of what
// is written into the git directory, LocalDir included (read anew on each
// call; the writers read it when they create a file).
func (w *Workspace) SharedPerm() (sharedperm.Perm, error) { return gitstore.SharedPerm(w.Repo) }

// ExtractStateDir holds extract's pointers, scan state and in-flight
// locks for the logs of foreign agents.
func (w *Workspace) ExtractStateDir() string { return filepath.Join(w.LocalDir(), "extract") }

// RecordsLockFile is the lock every writer of the working tree's records
// takes (the memory tools).
func (w *Workspace) RecordsLockFile() string { return filepath.Join(w.LocalDir(), "records.lock") }

// Display shows an absolute path relative to the working directory when
// it is below it, as messages name files.
func (w *Workspace) Display(p string) string { return Display(w.env.Dir, p) }

// Display shows p relative to dir when it is below it.
func Display(dir, p string) string {
	if rel, err := filepath.Rel(dir, p); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return p
}

// NoYoiError is the workspace's "no .yoi/" as a *Error naming its root,
// or err itself when it is something else.
func (w *Workspace) NoYoiError(err error) error {
	if !errors.Is(err, gitstore.ErrNoYoi) {
		return err
	}
	return &Error{Kind: NoYoi, Err: fmt.Errorf("no .yoi/ in %s", w.Display(w.Root))}
}

// Snapshot lists .yoi/ in the working tree (only the directories given,
// when any), reading no record over yoimem.lint.maxFileBytes. No .yoi/
// is a NoYoi *Error.
func (w *Workspace) Snapshot(dirs ...string) (record.Snapshot, error) {
	snap, err := gitstore.WorktreeSnapshotOf(w.Root, w.Config.Int(config.KeyLintMaxFileBytes), dirs...)
	return snap, w.NoYoiError(err)
}

// Prefix is .yoi/ relative to the repository's top level, slash-separated
// (".yoi", or "sub/.yoi" for a workspace below the top): how git names
// the records in trees and the index.
func (w *Workspace) Prefix() (string, error) {
	rel, err := filepath.Rel(w.Repo.TopLevel, w.YoiDir())
	if err != nil || !filepath.IsLocal(rel) {
		return "", fmt.Errorf("workspace %s is outside the repository %s", w.Root, w.Repo.TopLevel)
	}
	return filepath.ToSlash(rel), nil
}
