// Package lint is git-yoimem's linter: a pure function over a snapshot of
// .yoi/ plus, optionally, a proposed change. The same code runs as the
// memory tools' pre-write check, `git yoimem lint`, the git hooks and the
// post-run check of consolidation.
//
// Every rule has a stable id (see Rules). Errors refuse a write; warnings
// are hints for the tidy-up. The linter never panics on bad input: a file
// that cannot be read as a record is a finding, and the other files are
// linted on.
package lint
