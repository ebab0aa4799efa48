package claudecode

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/agent"
)

func recorded(t *testing.T, name string) agent.Event {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "events", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ev, err := Decode(f, DefaultLimit)
	if err != nil {
		t.Fatal(err)
	}
	return ev
}

var summary = "# Summary\n\nThe shop's checkout service, in Go.\n\n- Postgres through pgx (decision db-driver)."

// TestEncodeRecorded encodes the answers the hooks give to the recorded
// events, in Claude Code's output shapes (testdata/golden/encode).
func TestEncodeRecorded(t *testing.T) {
	ctx := agent.Context{Summary: summary, Parts: []agent.Part{{Name: "knowledge descriptions", Text: "Knowledge (read with memory_read):\n- #retry-policy: how webhook retries back off"}}}
	for _, tc := range []struct {
		name, event string
		resp        agent.Response
	}{
		{"session_start_context", "session_start", agent.Response{Context: ctx}},
		{"session_start_resume_context", "session_start_resume", agent.Response{Context: ctx}},
		{"session_start_nothing", "session_start", agent.Response{}},
		{"session_start_message", "session_start", agent.Response{Context: ctx, Message: "git-yoimem: 3 staging entries wait for consolidation"}},
		{"user_prompt_expansion", "user_prompt", agent.Response{Context: agent.Context{Parts: []agent.Part{{Name: "#retry-policy", Text: "## #retry-policy (.yoi/knowledge/retry-policy.md)\n\nBack off 1s, 2s, 4s; never retry a 4xx."}}}}},
		{"user_prompt_unknown_slug", "user_prompt", agent.Response{Message: "git-yoimem: #retry-polcy names no knowledge record (did you mean #retry-policy?)"}},
		{"user_prompt_nothing", "user_prompt", agent.Response{}},
		{"user_prompt_block", "user_prompt", agent.Response{Block: true, Reason: "git-yoimem: the prompt names #x, which is refused"}},
		{"pre_tool_write_deny", "pre_tool_write", respond(recorded(t, "pre_tool_write"))},
		{"pre_tool_bash_deny", "pre_tool_bash", respond(recorded(t, "pre_tool_bash"))},
		{"pre_tool_notebook_deny", "pre_tool_notebook", respond(recorded(t, "pre_tool_notebook"))},
		{"pre_tool_edit_allow", "pre_tool_edit", respond(recorded(t, "pre_tool_edit"))},
		{"pre_tool_bash_read_allow", "pre_tool_bash_read", respond(recorded(t, "pre_tool_bash_read"))},
		{"stop", "stop", agent.Response{Message: "extract started", Block: true, Context: ctx}},
		{"pre_compact", "pre_compact", agent.Response{Message: "extract ran", Block: true}},
		{"session_end", "session_end", agent.Response{Message: "bye", Context: ctx}},
		{"unknown_post_tool_use", "post_tool_use", agent.Response{Deny: true, Reason: "x", Context: ctx}},
		{"unknown_notification", "notification", agent.Response{Message: "x"}},
		{"unknown_subagent_stop", "subagent_stop", agent.Response{Block: true, Reason: "x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, code := Encode(recorded(t, tc.event), tc.resp)
			if code != 0 {
				t.Errorf("exit %d; Claude Code reads JSON output only on exit 0", code)
			}
			if len(out) > 0 && !json.Valid(out) {
				t.Errorf("not JSON: %s", out)
			}
			golden(t, filepath.Join("encode", tc.name+".out"), out)
		})
	}
}

func respond(ev agent.Event) agent.Response {
	deny, reason := agent.GuardTool(ev)
	return agent.Response{Deny: deny, Reason: reason}
}

type output struct {
	SystemMessage      string `json:"systemMessage"`
	Decision           string `json:"decision"`
	Reason             string `json:"reason"`
	HookSpecificOutput struct {
		HookEventName            string `json:"hookEventName"`
		AdditionalContext        string `json:"additionalContext"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	} `json:"hookSpecificOutput"`
}

func decodeOutput(t *testing.T, out []byte) output {
	t.Helper()
	var o output
	if err := json.Unmarshal(out, &o); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return o
}

// TestEncodeCap: over Claude Code's 10,000-character cap the summary is
// kept and a visible line names what was left out, for context, reasons
// and messages alike.
func TestEncodeCap(t *testing.T) {
	var desc []string
	for i := 0; i < 400; i++ {
		desc = append(desc, fmt.Sprintf("- #topic-%03d: what topic %d is about, in a sentence", i, i))
	}
	ctx := agent.Context{Summary: summary, Parts: []agent.Part{{Name: "knowledge descriptions", Text: strings.Join(desc, "\n")}}, Hint: "run `git yoimem context` to read them"}
	out, _ := Encode(recorded(t, "session_start"), agent.Response{Context: ctx})
	o := decodeOutput(t, out)
	got := o.HookSpecificOutput.AdditionalContext
	if agent.Len(got) > OutputCap {
		t.Fatalf("additionalContext is %d characters", agent.Len(got))
	}
	if !strings.HasPrefix(got, summary) || !strings.Contains(got, "knowledge descriptions (") || !strings.Contains(got, "git yoimem context") {
		t.Errorf("additionalContext = %q", got)
	}

	long := strings.Repeat("é", OutputCap+5)
	for _, tc := range []struct {
		event string
		resp  agent.Response
		field func(output) string
	}{
		{"pre_tool_write", agent.Response{Deny: true, Reason: long}, func(o output) string { return o.HookSpecificOutput.PermissionDecisionReason }},
		{"session_start", agent.Response{Message: long}, func(o output) string { return o.SystemMessage }},
		{"user_prompt", agent.Response{Block: true, Reason: long}, func(o output) string { return o.Reason }},
		{"user_prompt", agent.Response{Context: agent.Context{Summary: long}}, func(o output) string { return o.HookSpecificOutput.AdditionalContext }},
	} {
		got := tc.field(decodeOutput(t, mustEncode(t, tc.event, tc.resp)))
		if agent.Len(got) > OutputCap || !strings.HasPrefix(got, "éé") || !strings.Contains(got, "left out") {
			t.Errorf("%s: %d characters: %.60q…", tc.event, agent.Len(got), got[len(got)-200:])
		}
	}
}

func mustEncode(t *testing.T, event string, resp agent.Response) []byte {
	t.Helper()
	out, code := Encode(recorded(t, event), resp)
	if code != 0 || len(out) == 0 {
		t.Fatalf("%s: exit %d, %q", event, code, out)
	}
	return out
}

// TestEncodeQuietEvents: Stop, PreCompact, SessionEnd and events we do
// not handle get no output at all, whatever the response says, so that
// the agent never waits on nor acts on them.
func TestEncodeQuietEvents(t *testing.T) {
	full := agent.Response{Context: agent.Context{Summary: "s"}, Deny: true, Reason: "r", Message: "m", Block: true}
	for _, ev := range []string{"stop", "pre_compact", "session_end", "post_tool_use", "notification", "subagent_stop"} {
		if out, code := Encode(recorded(t, ev), full); len(out) != 0 || code != 0 {
			t.Errorf("%s: %q, exit %d", ev, out, code)
		}
	}
}
