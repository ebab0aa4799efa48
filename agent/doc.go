// Package agent is what git-yoimem's agent integrations share: one Event
// (what an agent's hook tells us), one Response (what we answer), and the
// pure policy the hooks apply (GuardTool: generic file tools never write
// memory; Context.Fit: the always-on context within an agent's output
// cap, never cut silently). It does no I/O; each agent's package
// (agent/claudecode, agent/codex) decodes its hook input into an Event,
// encodes a Response in its own output shape and exit codes, and merges
// its settings files.
package agent
