// Package agentcli is the llm consolidation engine with an agent CLI the
// user already has (claude -p, codex exec) as the model: a command:
// consolidation model. The CLI gets the consolidation brief (the system
// prompt's principles and the first message of consolidate/agent) on
// stdin and in a file, and exactly one MCP server, git yoimem mcp --run
// <run-id>, which serves the run's guarded overlay (the running
// consolidate.Session) through agent.Served: the same tools, the same
// code-enforced principles and the same report as the built-in loop.
//
// The session lives in the consolidation process; the server the CLI
// starts reaches it through a unix socket under the machine-local state
// (channel.go: <git-common-dir>/yoimem/runs/<run-id>.sock, 0600, a short
// path under the temporary directory when that one is too long for a
// socket) and a token the run hands to the CLI's environment and MCP
// configuration. The CLI runs under a deadline in its own process group,
// killed at the deadline or on an interrupt; what it printed and every
// tool call go to the run's log, <runs>/<run-id>.log. When it exits, the
// run goes on as the llm engine's does (report called, every staging
// entry covered; then lint, commit, staging cleanup), or ends with an
// error that names the command, and nothing is committed.
package agentcli
