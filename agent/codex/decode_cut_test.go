package codex

import (
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/agent"
)

// TestDecodeCutPreTool: a Codex tool call over the input limit is still
// judged from what came before the cut (before: decoded as nothing, so
// allowed): a shell command cut off cannot be checked and is denied.
func TestDecodeCutPreTool(t *testing.T) {
	const limit = 4096
	in := `{"session_id":"s","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"cat > .yoi/memory/a.md <<EOF\n` + strings.Repeat("x", 2*limit) + `\nEOF"}}`
	ev, err := Decode(strings.NewReader(in), limit)
	if err == nil || ev.Kind != agent.PreTool || !ev.Cut || ev.Tool != "Bash" {
		t.Fatalf("Decode: %+v, %v; want a cut PreTool event and the error", ev, err)
	}
	if deny, _ := agent.GuardTool(ev); !deny {
		t.Errorf("a cut Bash call into memory was allowed")
	}
	ev, err = Decode(strings.NewReader(`{"hook_event_name":"UserPromptSubmit","prompt":"`+strings.Repeat("x", 2*limit)+`"}`), limit)
	if err == nil || ev.Kind != "" {
		t.Errorf("a prompt over the limit: %+v, %v; want the zero event and the error", ev, err)
	}
}
