// Package handler answers an agent's hook calls against a workspace: it
// turns an agent.Event into an agent.Response, and runs the extract and
// consolidation checks the turn-ending events trigger in a detached
// background process.
//
// What each event does:
//   - SessionStart: the always-on context (memory.Context: the summary
//     and the model-invocable knowledge descriptions) within the agent's
//     output cap, recorded as a context cost of the session.
//   - UserPrompt: the #slug (and leading /slug) expansions of the prompt
//     (memory.Expand) as context, each recorded as an invoke of the
//     session; unknown and refused slugs named in the context. A prompt
//     with neither returns at once with nothing.
//   - PreTool: agent.GuardTool: generic tools never write memory.
//   - Stop, PreCompact, SessionEnd: a background run is started (Spawn)
//     and the hook returns at once with nothing. PreCompact bounds it at
//     the transcript's size at the event, so that extract covers the
//     history as it was before the compaction whenever the run gets to it.
//   - Anything else: nothing.
//
// A hook never blocks the agent on our account: no workspace, no .yoi/,
// or a malformed call is an empty answer, and the reason goes to the
// agent's log under the machine-local state (LogFile).
//
// The background run (Run) holds a lock per session: a trigger while one
// runs leaves its job for the holder, which runs it at its end. It writes
// a status file per session (Status, LastRuns) that `git yoimem doctor`
// reads.
package handler
