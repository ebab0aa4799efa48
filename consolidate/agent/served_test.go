package agent

import (
	"context"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/memory"
)

// TestServed: the tools an agent CLI calls over MCP are the loop's, over
// the same session: a refusal is a tool error, report ends the run, and
// calls after it change nothing.
func TestServed(t *testing.T) {
	s := newSession(t, sampleInput(t, nil))
	v, err := Serve(s, BriefOptions{}, memory.Options{MaxResults: 10})
	if err != nil {
		t.Fatal(err)
	}
	want, _ := Tools()
	if len(v.Tools()) != len(want) || v.Tools()[len(want)-1].Name != ToolReport {
		t.Fatalf("tools %v; want the loop's %v", v.Tools(), want)
	}
	p := v.Prompt("yoimem")
	for _, w := range []string{SystemPrompt, `MCP server "yoimem"`, "Consolidation run 019ad5e1-0000-7000-8000-00000000run1", "# Staging entries"} {
		if !strings.Contains(p, w) {
			t.Errorf("prompt lacks %q", w)
		}
	}
	ctx := context.Background()
	steps := []struct {
		name, input string
		isErr       bool
		want        string
	}{
		{ToolMemoryWrite, `{"path":".yoi/workflow/x.md","content":"# X\n","reason":"r"}`, true, "workflow"},
		{ToolMemoryDelete, `{"path":".yoi/memory/decisions/json-logs.md","categories":["unused"],"reason":"r"}`, true, "never deleted"},
		{ToolMemoryWrite, `{"path":"memory/decisions/slog-ids.md","content":"---\nstatus: resolved\n---\n# IDs\nyes\n","reason":"settled","staging_ids":["e1"]}`, false, "Done: add .yoi/memory/decisions/slog-ids.md"},
		{"nope", `{}`, true, "no such tool"},
		{ToolReport, `{"summary":"one decision"}`, false, "Report received"},
		{ToolMemoryWrite, `{"path":"memory/decisions/more.md","content":"---\nstatus: open\n---\n# M\n","reason":"r","staging_ids":["e1"]}`, true, "the run has ended"},
	}
	for i, st := range steps {
		r, err := v.Call(ctx, st.name, []byte(st.input))
		if err != nil {
			t.Fatalf("step %d: %v", i+1, err)
		}
		if r.IsError != st.isErr || !strings.Contains(r.Content, st.want) {
			t.Errorf("step %d %s: %v %q; want error %v and %q", i+1, st.name, r.IsError, r.Content, st.isErr, st.want)
		}
	}
	if sum, ok := v.Reported(); !ok || sum != "one decision" {
		t.Errorf("Reported = %q, %v", sum, ok)
	}
	if n := len(s.Ops()); n != 1 {
		t.Errorf("%d ops; want 1 (calls after report are not run)", n)
	}
	if u := v.Unseen(); len(u) != 0 {
		t.Errorf("Unseen = %v", u)
	}
}

// TestServedStop: once the run stops serving (its CLI exited), a call
// still on its way changes nothing.
func TestServedStop(t *testing.T) {
	s := newSession(t, sampleInput(t, nil))
	v, err := Serve(s, BriefOptions{}, memory.Options{})
	if err != nil {
		t.Fatal(err)
	}
	v.Stop()
	r, err := v.Call(context.Background(), ToolMemoryWrite, []byte(`{"path":"memory/decisions/late.md","content":"---\nstatus: open\n---\n# Late\n","reason":"r","staging_ids":["e1"]}`))
	if err != nil || !r.IsError || !strings.Contains(r.Content, "the run has ended") {
		t.Errorf("a call after Stop: %+v %v", r, err)
	}
	if len(s.Ops()) != 0 {
		t.Errorf("ops after Stop: %v", s.Ops())
	}
	if _, ok := v.Reported(); ok {
		t.Error("Stop is not a report")
	}
}
