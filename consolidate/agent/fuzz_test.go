package agent

import (
	"context"
	"testing"

	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/llm"
)

// FuzzToolCall: whatever a model sends, a tool call never panics nor
// fails the run, and what it changes lints clean.
func FuzzToolCall(f *testing.F) {
	for _, seed := range []struct {
		tool  uint8
		input string
	}{
		{0, `{"path":"e1"}`},
		{1, `{"query":"retry"}`},
		{3, `{"path":".yoi/memory/decisions/x.md","content":"---\nstatus: open\n---\n# X\n","reason":"r","staging_ids":["e1"]}`},
		{3, `{"path":".yoi/memory/requests/checkout-retries.md","operation":"merge","target":"use-sqlite","content":"---\n---\n","categories":["noisy"],"reason":"r"}`},
		{4, `{"path":"memory/summary.md","old":"tinyshop","new":"#nope \u0000","reason":"r"}`},
		{5, `{"path":"knowledge/request-ids.md","categories":["unused","unused"],"reason":"r"}`},
		{6, `{"summary":"done"}`},
		{7, `null`},
		{2, `[1,2,3]`},
		{3, `{"path":"../../etc/passwd","content":"x","reason":"r"}`},
	} {
		f.Add(seed.tool, seed.input)
	}
	names := append(toolNames(), "shell")
	f.Fuzz(func(t *testing.T, tool uint8, input string) {
		tb, s := newToolbox(t, nil)
		name := names[int(tool)%len(names)]
		out, err := tb.call(context.Background(), llm.ToolCall{ID: "c", Name: name, Input: []byte(input)})
		if err != nil {
			t.Fatalf("%s %q ended the run: %v", name, input, err)
		}
		if out.result.Content == "" {
			t.Fatalf("%s %q: an empty answer", name, input)
		}
		changed := map[string]bool{}
		for _, c := range s.Changes().Changes() {
			changed[c.Path] = true
		}
		rep := lint.Tree(s.Snapshot(), lint.DefaultOptions(), func(p string) bool { return changed[p] })
		if rep.HasErrors() {
			t.Fatalf("%s %q: the change does not lint: %v", name, input, rep.Findings)
		}
	})
}
