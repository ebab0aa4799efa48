// Package claudecode is git-yoimem's side of Claude Code's hooks: Decode
// reads a hook's JSON input into an agent.Event, Encode writes an
// agent.Response in the output shape Claude Code documents for the
// event, and MergeSettings, UnmergeSettings, MergeMCP and UnmergeMCP add
// our entries to .claude/settings.json and .mcp.json and take them out
// again without touching the user's. It does no I/O of its own: the
// caller reads standard input and writes the files.
package claudecode
