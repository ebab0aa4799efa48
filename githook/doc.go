// Package githook is git-yoimem's git hooks (docs/hooks.md): installing,
// upgrading and removing the shims of package hooks (Install, Uninstall,
// DetectManager for the hook managers that own a repository's hooks), and
// what the shims call: PreCommit, the check of a commit, and PrePush, the
// check of a push.
//
// Install and Uninstall are file operations on a hooks directory the
// caller has resolved (gitstore.HooksDir, which honours core.hooksPath and
// puts a linked worktree's hooks in the common directory). A hook
// git-yoimem did not write ("foreign") is never overwritten or deleted:
// Install refuses, or with Options.Chain keeps it as <name>.yoimem-prev
// and has the shim run it first; Uninstall removes only the shims and
// moves a chained hook back.
//
// PreCommit and PrePush read the index, trees and blobs through gitstore
// (every git command they need is a named function there) and lint with
// the linter. They print nothing and decide no exit code: a Result says
// what refuses the commit or push, and the command reports it. They take
// the configuration as functions, called only when there is something to
// judge, so that a bad configuration never blocks a commit or a push that
// does not touch memory; the package imports neither the workspace nor
// the runners.
package githook
