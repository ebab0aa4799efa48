package codex

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/yoimem/git-yoimem/agent"
	"github.com/yoimem/git-yoimem/internal/quote"
)

// DefaultLimit bounds a hook's input (and a notify payload) when the
// caller gives no limit. Hook payloads are small: a prompt, a shell
// command or a patch is the largest.
const DefaultLimit = 8 << 20

// TooLargeError is hook input over the limit. Decode stops reading there,
// so the real size is not known.
type TooLargeError struct {
	Limit   int64
	Setting string // the setting or flag that sets Limit, when the caller has one
	what    string // "hook input" or "notify payload"
	read    []byte // what was read, up to the limit: a tool call is judged from it
}

func (e *TooLargeError) Error() string {
	what := e.what
	if what == "" {
		what = "hook input"
	}
	s := "Codex's " + what + " is over the limit of " + quote.Thousands(e.Limit) + " bytes (not read past it)"
	if e.Setting != "" {
		s += "; " + e.Setting + " sets the limit"
	}
	return s
}

// payload is the hook input: the fields common to every event
// (codex-rs/hooks' generated schemas) and those of the events we act on.
// Unknown fields (model, turn_id, permission_mode, agent_id, …) are
// ignored; transcript_path is null when Codex keeps no rollout.
type payload struct {
	Event      *string         `json:"hook_event_name"`
	Session    string          `json:"session_id"`
	Transcript *string         `json:"transcript_path"`
	Cwd        string          `json:"cwd"`
	Prompt     string          `json:"prompt"`
	Tool       string          `json:"tool_name"`
	ToolInput  json.RawMessage `json:"tool_input"`
	Source     string          `json:"source"`  // SessionStart: startup, resume, clear
	Trigger    string          `json:"trigger"` // PreCompact: manual, auto
}

// kinds are the events we act on; any other is agent.Unknown. Codex has
// no SessionEnd: Stop ends each turn.
var kinds = map[string]agent.Kind{
	"SessionStart":     agent.SessionStart,
	"UserPromptSubmit": agent.UserPrompt,
	"PreToolUse":       agent.PreTool,
	"Stop":             agent.Stop,
	"PreCompact":       agent.PreCompact,
}

// Decode reads one hook input from r: a JSON object with
// hook_event_name. It reads at most limit bytes (DefaultLimit when limit
// is not positive); past that it stops and returns a *TooLargeError.
// Malformed input is an error naming the problem; an event we do not act
// on decodes with Kind agent.Unknown. The Event's Session is Codex's
// thread ID, the one its rollout file is named by (FindRollout).
func Decode(r io.Reader, limit int64) (agent.Event, error) {
	b, err := readLimited(r, limit, "hook input")
	var tl *TooLargeError
	if errors.As(err, &tl) {
		// a tool call over the limit: the guard judges what came before the cut
		return agent.CutPreTool(tl.read, kinds), err
	}
	if err != nil {
		return agent.Event{}, err
	}
	var p payload
	if err := agent.ParseObject(b, &p); err != nil {
		return agent.Event{}, fmt.Errorf("Codex's hook input: %w", err)
	}
	if p.Event == nil || *p.Event == "" {
		return agent.Event{}, errors.New("Codex's hook input: no hook_event_name")
	}
	return event(p), nil
}

func readLimited(r io.Reader, limit int64, what string) ([]byte, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	b, over, err := agent.ReadPayload(r, limit)
	if err != nil {
		return nil, fmt.Errorf("read Codex's %s: %w", what, err)
	}
	if over {
		return nil, &TooLargeError{Limit: limit, what: what, read: b}
	}
	return b, nil
}

func event(p payload) agent.Event {
	name := *p.Event
	kind, ok := kinds[name]
	if !ok {
		kind = agent.Unknown
	}
	ev := agent.Event{
		Kind: kind, Name: name, Session: p.Session, Cwd: p.Cwd,
		Prompt: p.Prompt, Tool: p.Tool, ToolInput: p.ToolInput,
	}
	if p.Transcript != nil {
		ev.LogPath = *p.Transcript
	}
	switch kind {
	case agent.SessionStart:
		ev.Source = p.Source
	case agent.PreCompact:
		ev.Source = p.Trigger
	}
	return ev
}
