package agent

import "encoding/json"

// Kind is what happened in the agent, across agents.
type Kind string

// The kinds of events the hooks act on. Any other event an agent sends is
// Unknown: decoded, answered with nothing, ignored.
const (
	Unknown      Kind = "unknown"
	SessionStart Kind = "session_start" // a session starts, resumes, is cleared or compacted
	UserPrompt   Kind = "user_prompt"   // the user submitted a prompt, before the model sees it
	PreTool      Kind = "pre_tool"      // the model called a tool, before it runs
	Stop         Kind = "stop"          // the agent finished its turn
	PreCompact   Kind = "pre_compact"   // the conversation is about to be compacted
	SessionEnd   Kind = "session_end"   // the session ends
)

// Event is one hook call from an agent, decoded. Fields an event does not
// carry are empty (and left out of its JSON form, for logs).
type Event struct {
	Kind Kind `json:"kind,omitempty"`
	// Name is the event's name as the agent sent it (e.g. "PreToolUse"),
	// for messages and for the Unknown kind.
	Name string `json:"name,omitempty"`
	// Session is the agent's session ID.
	Session string `json:"session_id,omitempty"`
	// LogPath is the session's log (Claude Code's transcript, a Codex
	// rollout); the agent writes it asynchronously, so it may lag the
	// event.
	LogPath string `json:"log_path,omitempty"`
	// Cwd is the agent's working directory; relative tool paths are
	// relative to it.
	Cwd string `json:"cwd,omitempty"`
	// Prompt is the user's prompt (UserPrompt).
	Prompt string `json:"prompt,omitempty"`
	// Tool and ToolInput are the tool called and its arguments as the
	// agent sent them (PreTool), e.g. "Write" and {"file_path": …}.
	Tool      string          `json:"tool_name,omitempty"`
	ToolInput json.RawMessage `json:"tool_input,omitempty"`
	// Source says why the event fired, where the agent says: how a
	// session started (startup, resume, clear, compact), what triggered a
	// compaction (manual, auto), why a session ended (clear, logout, …).
	Source string `json:"source,omitempty"`
	// Cut says the hook input was over the decoder's limit: only the
	// fields before the cut are here (ToolInput holds the string fields of
	// the tool's input seen before it). Decoders return a cut event for
	// PreTool only, so that the guard still judges the call: a write it
	// cannot check is denied.
	Cut bool `json:"cut,omitempty"`
}
