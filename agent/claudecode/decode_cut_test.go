package claudecode

import (
	"errors"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/agent"
)

// TestDecodeCutPreTool: a tool call over the input limit (a Write of a
// big file) is still judged by the guard from what came before the cut:
// its path decides; a write whose path or command was cut off is denied
// (it cannot be checked). Before: decoded as nothing, so allowed.
func TestDecodeCutPreTool(t *testing.T) {
	const limit = 4096
	big := strings.Repeat("x", 2*limit)
	head := `{"session_id":"s","transcript_path":"/t.jsonl","cwd":"/repo","hook_event_name":"PreToolUse","tool_name":`
	for _, tc := range []struct {
		name, in string
		deny     bool
	}{
		{"write into memory", head + `"Write","tool_input":{"file_path":"/repo/.yoi/memory/a.md","content":"` + big + `"}}`, true},
		{"write elsewhere", head + `"Write","tool_input":{"file_path":"/repo/src/gen.go","content":"` + big + `"}}`, false},
		{"path after the content", head + `"Write","tool_input":{"content":"` + big + `","file_path":"/repo/src/gen.go"}}`, true},
		{"bash cut", head + `"Bash","tool_input":{"command":"echo ` + big + `"}}`, true},
		{"read tool", head + `"Read","tool_input":{"file_path":"/repo/` + big + `"}}`, false},
	} {
		ev, err := Decode(strings.NewReader(tc.in), limit)
		var tl *TooLargeError
		if !errors.As(err, &tl) {
			t.Fatalf("%s: err %v; want a *TooLargeError", tc.name, err)
		}
		if ev.Kind != agent.PreTool || !ev.Cut {
			t.Fatalf("%s: event %+v; want a PreTool event marked cut", tc.name, ev)
		}
		deny, reason := agent.GuardTool(ev)
		if deny != tc.deny {
			t.Errorf("%s: deny %v (%s); want %v", tc.name, deny, reason, tc.deny)
		}
	}
	// other events over the limit: nothing but the error
	ev, err := Decode(strings.NewReader(`{"hook_event_name":"UserPromptSubmit","prompt":"`+big+`"}`), limit)
	if err == nil || ev.Kind == agent.UserPrompt {
		t.Errorf("a prompt over the limit: %+v, %v; want only an error", ev, err)
	}
}
