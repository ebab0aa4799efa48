// Package forge opens or updates the pull request (GitHub) or merge
// request (GitLab) of the memory branch through the forge's own command
// line tool, gh or glab, the way `git yoimem push --pr` needs it: Detect
// tells which tool serves a remote, Open runs it (logged in? a request
// already open for the branch? then edit it, else create it), and when
// the tool is missing, not logged in or the host unknown, Open writes the
// description to a file and returns the command to run by hand
// (ManualCommand).
//
// The description always reaches the tool on its standard input, never
// on the command line: it can be larger than the system's argument limit
// and hold anything. Tools run through the Exec seam, without prompts,
// pagers or update checks, detached from the terminal; the caller's
// context stops them and their children.
package forge
