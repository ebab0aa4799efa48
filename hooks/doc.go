// Package hooks installs and removes git-yoimem's git hook shims.
//
// A shim is a small POSIX sh script: a marker line, a check that git-yoimem
// is on PATH, a call to a chained previous hook if there is one, then
// `exec git yoimem hook <name> "$@"`. Everything here is a file operation on
// a hooks directory the caller has resolved, normally with
//
//	git rev-parse --path-format=absolute --git-path hooks
//
// which honours core.hooksPath and puts a linked worktree's hooks in the
// common directory. The package never runs git and keeps no state.
//
// A hook git-yoimem did not write ("foreign") is never overwritten or
// deleted: Install refuses, or with Options.Chain keeps it as
// <name>.yoimem-prev and has the shim run it first; Uninstall removes only
// the shims and moves a chained hook back. Hook managers that own the hooks
// directory (husky, lefthook, the pre-commit framework) are recognised by
// DetectManager, which gives the line to add to their configuration instead.
//
// What the hooks check (the pre-commit and pre-push checks) is package
// hooks/check.
package hooks
