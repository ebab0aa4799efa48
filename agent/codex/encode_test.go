package codex

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
// events, in Codex's output shapes (testdata/golden/encode).
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
		{"user_prompt_block_no_reason", "user_prompt", agent.Response{Block: true}},
		{"pre_tool_bash_deny", "pre_tool_bash", respond(recorded(t, "pre_tool_bash"))},
		{"pre_tool_apply_patch_deny", "pre_tool_apply_patch", respond(recorded(t, "pre_tool_apply_patch"))},
		{"pre_tool_apply_patch_code_allow", "pre_tool_apply_patch_code", respond(recorded(t, "pre_tool_apply_patch_code"))},
		{"pre_tool_bash_read_allow", "pre_tool_bash_read", respond(recorded(t, "pre_tool_bash_read"))},
		{"pre_tool_mcp_allow", "pre_tool_mcp", respond(recorded(t, "pre_tool_mcp"))},
		{"pre_tool_deny_no_reason", "pre_tool_bash", agent.Response{Deny: true}},
		{"stop", "stop", agent.Response{Message: "extract started", Block: true, Context: ctx}},
		{"pre_compact", "pre_compact", agent.Response{Message: "extract ran", Block: true}},
		{"unknown_post_tool_use", "post_tool_use", agent.Response{Deny: true, Reason: "x", Context: ctx}},
		{"unknown_permission_request", "permission_request", agent.Response{Deny: true, Reason: "x"}},
		{"unknown_post_compact", "post_compact", agent.Response{Message: "x"}},
		{"unknown_subagent_stop", "subagent_stop", agent.Response{Block: true, Reason: "x"}},
		{"unknown_stop_failure", "stop_failure", agent.Response{Message: "x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, code := Encode(recorded(t, tc.event), tc.resp)
			if code != 0 {
				t.Errorf("exit %d; Codex reads JSON output only on exit 0", code)
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

// output is what Codex parses (codex-rs/hooks schema.rs: unknown fields
// are refused there, so they are here).
type output struct {
	Continue           *bool  `json:"continue"`
	SystemMessage      string `json:"systemMessage"`
	Decision           string `json:"decision"`
	Reason             string `json:"reason"`
	HookSpecificOutput *struct {
		HookEventName            string `json:"hookEventName"`
		AdditionalContext        string `json:"additionalContext"`
		PermissionDecision       string `json:"permissionDecision"`
		PermissionDecisionReason string `json:"permissionDecisionReason"`
	} `json:"hookSpecificOutput"`
}

func decodeOutput(t *testing.T, out []byte) output {
	t.Helper()
	var o output
	dec := json.NewDecoder(strings.NewReader(string(out)))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&o); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	return o
}

// TestEncodeShapes: the rules Codex's output parser enforces, or it
// ignores the output (and the deny with it): a deny and a block carry a
// non-empty reason; hookEventName is the event's.
func TestEncodeShapes(t *testing.T) {
	for _, tc := range []struct {
		event string
		resp  agent.Response
	}{
		{"pre_tool_bash", agent.Response{Deny: true}},
		{"pre_tool_bash", agent.Response{Deny: true, Reason: "  \n"}},
		{"pre_tool_apply_patch", agent.Response{Deny: true, Reason: "r", Context: agent.Context{Summary: "s"}, Message: "m"}},
		{"user_prompt", agent.Response{Block: true}},
		{"user_prompt", agent.Response{Block: true, Reason: " "}},
	} {
		ev := recorded(t, tc.event)
		o := decodeOutput(t, mustEncode(t, tc.event, tc.resp))
		switch ev.Kind {
		case agent.PreTool:
			h := o.HookSpecificOutput
			if h == nil || h.HookEventName != "PreToolUse" || h.PermissionDecision != "deny" || strings.TrimSpace(h.PermissionDecisionReason) == "" {
				t.Errorf("%s %+v: %+v", tc.event, tc.resp, h)
			}
			if o.Decision != "" || o.Reason != "" {
				t.Errorf("%s: a legacy decision beside permissionDecision: %+v", tc.event, o)
			}
		case agent.UserPrompt:
			if o.Decision != "block" || strings.TrimSpace(o.Reason) == "" {
				t.Errorf("%s %+v: %+v", tc.event, tc.resp, o)
			}
		}
	}
}

// TestEncodeCap: over OutputCap bytes the summary is kept and a visible
// line names what was left out, for context, reasons and messages alike,
// non-ASCII text included (the cap is in bytes).
func TestEncodeCap(t *testing.T) {
	var desc []string
	for i := 0; i < 400; i++ {
		desc = append(desc, fmt.Sprintf("- #topic-%03d: what topic %d is about, in a sentence", i, i))
	}
	ctx := agent.Context{Summary: summary, Parts: []agent.Part{{Name: "knowledge descriptions", Text: strings.Join(desc, "\n")}}, Hint: "run `git yoimem context` to read them"}
	out, _ := Encode(recorded(t, "session_start"), agent.Response{Context: ctx})
	got := decodeOutput(t, out).HookSpecificOutput.AdditionalContext
	if len(got) > OutputCap {
		t.Fatalf("additionalContext is %d bytes", len(got))
	}
	if !strings.HasPrefix(got, summary) || !strings.Contains(got, "knowledge descriptions (") || !strings.Contains(got, "git yoimem context") {
		t.Errorf("additionalContext = %q", got)
	}

	for _, long := range []string{strings.Repeat("é", OutputCap), strings.Repeat("記憶", OutputCap), strings.Repeat("x", 3*OutputCap)} {
		for _, tc := range []struct {
			event string
			resp  agent.Response
			field func(output) string
		}{
			{"pre_tool_bash", agent.Response{Deny: true, Reason: long}, func(o output) string { return o.HookSpecificOutput.PermissionDecisionReason }},
			{"session_start", agent.Response{Message: long}, func(o output) string { return o.SystemMessage }},
			{"user_prompt", agent.Response{Block: true, Reason: long}, func(o output) string { return o.Reason }},
			{"user_prompt", agent.Response{Context: agent.Context{Summary: long}}, func(o output) string { return o.HookSpecificOutput.AdditionalContext }},
		} {
			got := tc.field(decodeOutput(t, mustEncode(t, tc.event, tc.resp)))
			if len(got) > OutputCap || !strings.HasPrefix(got, long[:4]) || !strings.Contains(got, "left out") {
				t.Errorf("%s: %d bytes: …%q", tc.event, len(got), got[max(0, len(got)-200):])
			}
			if len(got) < OutputCap/2 {
				t.Errorf("%s: only %d bytes used of %d", tc.event, len(got), OutputCap)
			}
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

// TestEncodeQuietEvents: Stop, PreCompact and the events we do not handle
// get no output at all, whatever the response says, so that Codex never
// waits on nor acts on them (a Stop block would make it go on).
func TestEncodeQuietEvents(t *testing.T) {
	full := agent.Response{Context: agent.Context{Summary: "s"}, Deny: true, Reason: "r", Message: "m", Block: true}
	for _, ev := range []string{"stop", "pre_compact", "post_tool_use", "permission_request", "post_compact", "subagent_start", "subagent_stop", "stop_failure"} {
		if out, code := Encode(recorded(t, ev), full); len(out) != 0 || code != 0 {
			t.Errorf("%s: %q, exit %d", ev, out, code)
		}
	}
	ev, _ := DecodeNotify(`{"type":"agent-turn-complete","thread-id":"t"}`)
	if out, code := Encode(ev, full); len(out) != 0 || code != 0 {
		t.Errorf("notify: %q, exit %d", out, code)
	}
}

// TestEncodeRealCodex encodes answers to payloads recorded from Codex CLI
// 0.169 (codex exec against a local Responses API stand-in, hooks from
// $CODEX_HOME/hooks.json). These outputs, produced by this encoder in that
// run, were acted on by Codex: the Bash command writing .yoi/memory was
// blocked ("Command blocked by PreToolUse hook: git-yoimem: …") and both
// additionalContext texts were in the next model request.
func TestEncodeRealCodex(t *testing.T) {
	for _, tc := range []struct {
		event string
		resp  func(agent.Event) agent.Response
	}{
		{"codex0169_session_start", func(agent.Event) agent.Response {
			return agent.Response{Context: agent.Context{Summary: "# Summary\n\nMARKER-SESSION-START-CONTEXT: the shop uses pgx."}, Message: "git-yoimem: memory loaded"}
		}},
		{"codex0169_user_prompt", func(agent.Event) agent.Response {
			return agent.Response{Context: agent.Context{Parts: []agent.Part{{Name: "#retry", Text: "MARKER-PROMPT-CONTEXT: back off 1s, 2s, 4s."}}}}
		}},
		{"codex0169_pre_tool_bash", respond},
		{"codex0169_stop", func(agent.Event) agent.Response { return agent.Response{Message: "extract started"} }},
	} {
		t.Run(tc.event, func(t *testing.T) {
			ev := recorded(t, tc.event)
			out, code := Encode(ev, tc.resp(ev))
			if code != 0 {
				t.Errorf("exit %d", code)
			}
			golden(t, filepath.Join("encode", tc.event+".out"), out)
		})
	}
	if deny, _ := agent.GuardTool(recorded(t, "codex0169_pre_tool_bash")); !deny {
		t.Error("the recorded Bash call into .yoi/memory is not denied")
	}
}
