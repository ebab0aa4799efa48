package claudecode

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/yoimem/git-yoimem/agent"
	"github.com/yoimem/git-yoimem/internal/quote"
)

// DefaultLimit bounds a hook's input when the caller gives no limit. Hook
// payloads are small (a prompt, a tool's input); a file Write's content
// is the largest.
const DefaultLimit = 8 << 20

// TooLargeError is hook input over the limit. Decode stops reading there,
// so the real size is not known.
type TooLargeError struct {
	Limit   int64
	Setting string // the setting or flag that sets Limit, when the caller has one
}

func (e *TooLargeError) Error() string {
	s := "Claude Code's hook input is over the limit of " + quote.Thousands(e.Limit) + " bytes (not read past it)"
	if e.Setting != "" {
		s += "; " + e.Setting + " sets the limit"
	}
	return s
}

// payload is the hook input: the fields common to every event and those
// of the events we act on. Unknown fields are ignored (Claude Code adds
// some every few releases).
type payload struct {
	Event      *string         `json:"hook_event_name"`
	Session    string          `json:"session_id"`
	Transcript string          `json:"transcript_path"`
	Cwd        string          `json:"cwd"`
	Prompt     string          `json:"prompt"`
	Tool       string          `json:"tool_name"`
	ToolInput  json.RawMessage `json:"tool_input"`
	Source     string          `json:"source"`  // SessionStart
	Trigger    string          `json:"trigger"` // PreCompact
	Reason     string          `json:"reason"`  // SessionEnd
}

// kinds are the events we act on; any other is agent.Unknown.
var kinds = map[string]agent.Kind{
	"SessionStart":     agent.SessionStart,
	"UserPromptSubmit": agent.UserPrompt,
	"PreToolUse":       agent.PreTool,
	"Stop":             agent.Stop,
	"PreCompact":       agent.PreCompact,
	"SessionEnd":       agent.SessionEnd,
}

// Decode reads one hook input from r: a JSON object with
// hook_event_name. It reads at most limit bytes (DefaultLimit when limit
// is not positive); past that it stops and returns a *TooLargeError.
// Malformed input is an error naming the problem; an event we do not act
// on decodes with Kind agent.Unknown.
func Decode(r io.Reader, limit int64) (agent.Event, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	b, over, err := agent.ReadPayload(r, limit)
	if err != nil {
		return agent.Event{}, fmt.Errorf("read Claude Code's hook input: %w", err)
	}
	if over {
		return agent.CutPreTool(b, kinds), &TooLargeError{Limit: limit}
	}
	p, err := parse(b)
	if err != nil {
		return agent.Event{}, fmt.Errorf("Claude Code's hook input: %w", err)
	}
	return event(p), nil
}

func parse(b []byte) (payload, error) {
	var p payload
	if err := agent.ParseObject(b, &p); err != nil {
		return p, err
	}
	if p.Event == nil || *p.Event == "" {
		return p, errors.New("no hook_event_name")
	}
	return p, nil
}

func event(p payload) agent.Event {
	name := *p.Event
	kind, ok := kinds[name]
	if !ok {
		kind = agent.Unknown
	}
	ev := agent.Event{
		Kind: kind, Name: name, Session: p.Session, LogPath: p.Transcript, Cwd: p.Cwd,
		Prompt: p.Prompt, Tool: p.Tool, ToolInput: p.ToolInput,
	}
	switch kind {
	case agent.SessionStart:
		ev.Source = p.Source
	case agent.PreCompact:
		ev.Source = p.Trigger
	case agent.SessionEnd:
		ev.Source = p.Reason
	}
	return ev
}
