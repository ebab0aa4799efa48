package sessionlog

import (
	"strings"
	"testing"
)

// said is a conversation entry as the reader gives it: a message's text, a
// tool call's name and summary, a tool result's summary.
type said struct {
	kind Kind
	role Role
	text string
}

// conversation is what extract reads of a log: messages, tool calls and
// results, never injected.
func conversation(t *testing.T, entries []Entry) []said {
	t.Helper()
	var out []said
	for _, e := range entries {
		switch e.Kind {
		case KindMessage:
			if e.Injected {
				t.Errorf("line %d: an injected message: %q", e.Index, e.Text)
			}
			out = append(out, said{e.Kind, e.Role, e.Text})
		case KindToolCall:
			for _, c := range e.ToolCalls {
				out = append(out, said{e.Kind, e.Role, c.Name + ": " + c.Summary})
			}
		case KindToolResult:
			for _, r := range e.ToolResults {
				out = append(out, said{e.Kind, e.Role, r.Summary})
			}
		}
	}
	return out
}

// TestCodexRecorded reads rollouts the real Codex CLI wrote: each prompt
// and answer once, the shell call and its output, none of what Codex
// injects (developer messages, <environment_context>, skills, hook context).
func TestCodexRecorded(t *testing.T) {
	tools := []said{
		{KindMessage, RoleUser, "What is in this repository? Run ls to check."},
		{KindMessage, RoleAssistant, "I'll list the files first."},
		{KindToolCall, RoleAssistant, "exec_command: ls -a && cat README.md"},
		{KindToolResult, RoleTool, ".\n..\n.git\nREADME.md\nhi"},
		{KindMessage, RoleAssistant, "The repository holds README.md, which says hi. Decision: keep README.md as the only doc."},
		{KindMessage, RoleUser, "And how should retries work?"},
		{KindMessage, RoleAssistant, "Retries: use exponential backoff with at most 5 attempts, as agreed."},
	}
	hookContext := []said{
		{KindMessage, RoleUser, "Remember: tabs, not spaces."},
		{KindMessage, RoleAssistant, "Noted: tabs, not spaces."},
	}
	type recording struct {
		file string
		want []said
	}
	var tests []recording
	// the newer generation (item_completed) and the older (user_message)
	for _, v := range []string{"0.171.0", "0.128.0"} {
		dir := "../../testdata/agents/codex/" + v + "/"
		tests = append(tests, recording{dir + "tools/rollout.jsonl", tools}, recording{dir + "hook-context/rollout.jsonl", hookContext})
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			entries, _ := readAll(t, readFixture(t, tt.file), Codex, Options{})
			got := conversation(t, entries)
			if len(got) != len(tt.want) {
				t.Fatalf("%d conversation entries, want %d:\n%s", len(got), len(tt.want), showSaid(got))
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("entry %d: got %+v, want %+v", i, got[i], tt.want[i])
				}
			}
			for _, e := range entries {
				if strings.Contains(e.Text, "context from the") && (!e.Injected || e.Kind != KindMeta) {
					t.Errorf("line %d: hook context read as %s (injected %v)", e.Index, e.Kind, e.Injected)
				}
			}
		})
	}
}

func showSaid(s []said) string {
	var b strings.Builder
	for _, x := range s {
		b.WriteString(string(x.kind) + " " + string(x.role) + " " + x.text + "\n")
	}
	return b.String()
}

// TestCodexMirrors: the same prompt or answer written in two forms is read
// once, from the event form of its generation; each line is judged alone,
// so a read resumed between the two forms reads the same.
func TestCodexMirrors(t *testing.T) {
	item := func(role, typ, text string) string {
		return `{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"` + role + `","content":[{"type":"` + typ + `","text":"` + text + `"}]}}`
	}
	completed := func(typ, block, text string) string {
		return `{"timestamp":"t","type":"event_msg","payload":{"type":"item_completed","thread_id":"th","turn_id":"tu","item":{"type":"` + typ + `","id":"i","content":[{"type":"` + block + `","text":"` + text + `"}]}}}`
	}
	tests := []struct {
		name string
		line string
		kind Kind
		role Role
		text string
	}{
		{"0.171 prompt", completed("UserMessage", "text", "fix the build"), KindMessage, RoleUser, "fix the build"},
		{"0.171 answer", completed("AgentMessage", "Text", "Fixed."), KindMessage, RoleAssistant, "Fixed."},
		{"prompt mirror", item("user", "input_text", "fix the build"), KindOther, RoleUser, "fix the build"},
		{"answer mirror", item("assistant", "output_text", "Fixed."), KindOther, RoleAssistant, "Fixed."},
		{"legacy prompt", `{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"fix the build"}}`, KindMessage, RoleUser, "fix the build"},
		{"legacy answer", `{"timestamp":"t","type":"event_msg","payload":{"type":"agent_message","message":"Fixed."}}`, KindMessage, RoleAssistant, "Fixed."},
		{"command item", `{"timestamp":"t","type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"call_1","command":["ls"]}}}`, KindOther, "", ""},
		{"usage record", `{"timestamp":"t","type":"token_usage_record","payload":{"response_id":"r","usage":{"input_tokens":5}}}`, KindUsage, "", ""},
		{"world state", `{"timestamp":"t","type":"world_state","payload":{"full":true}}`, KindMeta, "", ""},
		{"prompt with a yoimem block", completed("UserMessage", "text", `use #db\n<yoimem-memory kind=\"knowledge\" slug=\"db\">\nPostgres.\n</yoimem-memory>`), KindMessage, RoleUser, "use #db"},
		{"hook prompt", completed("UserMessage", "text", `<hook_prompt hook_run_id=\"h1\">run the tests</hook_prompt>`), KindMeta, RoleUser, `<hook_prompt hook_run_id="h1">run the tests</hook_prompt>`},
		{"skills block", item("user", "input_text", `<skill>\n<name>x</name>\n</skill>`), KindMeta, RoleUser, "<skill>\n<name>x</name>\n</skill>"},
		{"turn aborted", item("user", "input_text", `<turn_aborted>\nThe user interrupted.\n</turn_aborted>`), KindMeta, RoleUser, "<turn_aborted>\nThe user interrupted.\n</turn_aborted>"},
		{"empty prompt", completed("UserMessage", "text", ""), KindMeta, RoleUser, ""},
	}
	for _, tt := range tests {
		entries, _ := readAll(t, []byte(tt.line+"\n"), Codex, Options{})
		if len(entries) != 1 {
			t.Fatalf("%s: %d entries", tt.name, len(entries))
		}
		e := entries[0]
		if e.Kind != tt.kind || e.Role != tt.role || e.Text != tt.text || e.Usage != nil {
			t.Errorf("%s: got %s/%q %q usage %v, want %s/%q %q", tt.name, e.Kind, e.Role, e.Text, e.Usage, tt.kind, tt.role, tt.text)
		}
	}
}
