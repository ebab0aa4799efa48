// Package check is the work of git-yoimem's git hooks (docs/hooks.md):
// the pre-commit check of a commit (Commit) and the pre-push check of a
// push (Push). They read the index, trees and blobs through gitstore and
// lint with the linter; they print nothing and decide nothing about exit
// codes: the command reports their results.
package check
