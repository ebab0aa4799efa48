// Package doctor checks that a repository's memory runs by itself: the
// git hooks, each agent's hooks and MCP server per scope (agent/setup),
// the extract and consolidation models with their API keys (named, never
// read out), the helper that makes API calls, the staging backlog, the
// memory commits not yet merged into the base branch and the usage
// events not yet moved into a commit. Every check that finds a problem
// says what fixes it, as a command to run. Doctor writes nothing.
package doctor
