package sessionlog

import (
	"encoding/json"
	"time"
)

// Role is who a conversation entry is from; "" for entries that are not
// part of the conversation (metadata, usage, extensions).
type Role string

// Roles.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
	RoleSystem    Role = "system"
)

// Kind is what an entry is.
type Kind string

// Kinds.
const (
	// KindMessage: text a person typed or the assistant wrote (Text), maybe
	// with tool calls.
	KindMessage Kind = "message"
	// KindToolCall: an assistant entry with tool calls and no text.
	KindToolCall Kind = "tool_call"
	// KindToolResult: tool output (ToolResults, as summaries).
	KindToolResult Kind = "tool_result"
	// KindReasoning: model thinking; its text is not kept.
	KindReasoning Kind = "reasoning"
	// KindMeta: noise around the conversation: harness-generated user
	// turns (isMeta, system reminders, slash-command wrappers, interruption
	// markers, compaction summaries), attachments (including hook context
	// git-yoimem injected), system lines, session and turn metadata.
	KindMeta Kind = "meta"
	// KindCompaction: a compaction boundary: the agent's context was
	// summarized here.
	KindCompaction Kind = "compaction"
	// KindExtension: a native extension entry (Extension).
	KindExtension Kind = "extension"
	// KindUsage: an entry that only reports token usage.
	KindUsage Kind = "usage"
	// KindOther: a line of a type known to carry nothing of interest, of an
	// unknown type, or not understood (Problem says why).
	KindOther Kind = "other"
)

// Entry is one line of a session log. Every complete line that is not
// blank yields one entry.
type Entry struct {
	Index  int   // 1-based line number: the stable index for source ranges and pointers
	Offset int64 // byte offset of the line's first byte
	End    int64 // byte offset just after the line's '\n'

	Kind      Kind
	Role      Role
	Time      time.Time // zero if absent
	SessionID string

	// Text is the human-visible text: what the user typed, what the
	// assistant wrote. Wrapper blocks (<system-reminder>, <command-name>,
	// <yoimem-memory>, …) are removed from message text; a meta entry keeps
	// its text as written.
	Text        string
	ToolCalls   []ToolCall
	ToolResults []ToolResult

	// Usage is set on the first entry of each API call only (entries
	// repeating a call's usage are deduplicated), nil otherwise.
	Usage *Usage

	Sidechain bool // a sub-agent's entry (Claude Code isSidechain)
	// Injected: text the harness or git-yoimem put into the session rather
	// than a person typed: hook context, isMeta turns, AGENTS.md and
	// environment blocks, reminders. Extract leaves it out.
	Injected bool

	Extension *Extension // native extension entries

	// Type is the line's type as written, for diagnostics; with a subtype
	// after a colon where the format has one ("system:compact_boundary",
	// "event_msg:token_count").
	Type string
	// Problem says why a KindOther line was not understood ("not JSON",
	// "line longer than … bytes"); "" otherwise.
	Problem string
}

// ToolCall is a tool the assistant called.
type ToolCall struct {
	ID      string `json:"id"`
	Name    string `json:"name"`
	Summary string `json:"summary"` // short display of the input: the command, the file path, …; at most SummaryBytes
}

// ToolResult is a tool's output, summarized. The raw output is never kept.
type ToolResult struct {
	CallID  string `json:"call_id"`
	Summary string `json:"summary"` // its first lines, at most SummaryBytes
	Bytes   int    `json:"bytes"`   // size of the raw output, decoded, in bytes
	IsError bool   `json:"is_error,omitempty"`
}

// Usage is the token usage of one API call.
type Usage struct {
	// MessageID identifies the call for deduplication: the API message id
	// (Claude Code, native) or the cumulative totals (Codex, "total:…").
	MessageID string `json:"message_id,omitempty"`
	// InputTokens is the whole input of the call, cached or not: Anthropic
	// input + cache creation + cache read; OpenAI and Codex input_tokens,
	// which already include cached tokens.
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
}

// Extension is a native extension entry: a domain and its payload, passed
// through undecoded. Domain "memory.extract" carries extract's pointer.
type Extension struct {
	Domain  string          `json:"domain"`
	Payload json.RawMessage `json:"payload,omitempty"`
}
