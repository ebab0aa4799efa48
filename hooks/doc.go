// Package hooks holds the git hook shims git-yoimem installs, as the plain
// files people can read: hooks/pre-commit and hooks/pre-push in the
// source tree are exactly what 'git yoimem install' writes into a
// repository's hooks directory. Each is a POSIX sh script: the shebang, a
// marker line naming its version, a check that git-yoimem is on PATH, a
// call to a hook kept by 'install --chain' (<name>.yoimem-prev), then
// `exec git-yoimem hook <name> "$@"`.
//
// Package githook installs, upgrades and removes them and runs the
// checks they call; this package only exports their text.
package hooks
