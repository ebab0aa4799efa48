// Package workspace opens a repository with its settings: the git
// repository around a directory, the workspace root that holds .yoi/ (the
// top level, or --workspace), and the effective configuration (flag >
// git config > .yoi/config > default, docs/configuration.md). A
// Workspace then answers what every command and runner asks of it: the
// .yoi/ paths and the machine-local directory, the linter's options, the
// configured models, the memory tools on the working tree, the search
// cache (catalog) and the recording of usage (journals per session).
//
// Opening is on the path of every hook and agent turn, so it is fast
// where it can be: Open finds a plain repository without running git
// (gitstore.Discover) and asks git for its yoimem.* settings only when
// its config files may hold some; Find reads no configuration at all,
// for a hook that may not need it. Anything unusual goes to git.
//
// Side effects come in through Env: the environment, the working
// directory, the clock, and a sink for warnings. Errors that a command
// line reports with a hint are *Error values with a Kind.
package workspace
