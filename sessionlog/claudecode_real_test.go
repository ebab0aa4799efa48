package sessionlog

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// realClaudeLog is the transcript the real Claude Code CLI 2.1.332 wrote
// for a recorded session (testdata/agents/claude-code/README.md).
var realClaudeLog = filepath.Join("..", "testdata", "agents", "claude-code", "transcripts", "3d4710d4-6191-4840-a7ce-9e8c232d0dea.jsonl")

// TestClaudeCodeReal reads the real transcript: the format is detected;
// the conversation is the prompt, the answers, the four tool calls with
// their results (the hook's denial an error; the MCP tool's answer) and the compaction, in
// order; every other line (attachments, hook output, request blobs with
// a message role, queue operations, the /compact command's own lines, the
// compaction summary) is meta or other, no line is a problem; the tokens
// of the five model calls count once each.
func TestClaudeCodeReal(t *testing.T) {
	data, err := os.ReadFile(realClaudeLog)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := Detect(data[:min(len(data), 64<<10)]); err != nil || f != ClaudeCode {
		t.Fatalf("detected %q, %v", f, err)
	}
	entries, _ := readAll(t, data, ClaudeCode, Options{})
	var conv []string
	var tokens int64
	for _, e := range entries {
		if e.Problem != "" {
			t.Errorf("line %d (%s): %s", e.Index, e.Type, e.Problem)
		}
		if e.SessionID != "" && e.SessionID != "3d4710d4-6191-4840-a7ce-9e8c232d0dea" {
			t.Errorf("line %d: session %q", e.Index, e.SessionID)
		}
		if e.Usage != nil {
			tokens += e.Usage.InputTokens
		}
		switch e.Kind {
		case KindMeta, KindOther, KindUsage:
			if strings.HasPrefix(e.Type, "api-request-blob") && e.Kind != KindOther {
				t.Errorf("line %d: a request blob is %s", e.Index, e.Kind)
			}
			continue
		}
		s := fmt.Sprintf("%s %s: %s", e.Kind, e.Role, e.Text)
		for _, c := range e.ToolCalls {
			s += fmt.Sprintf(" [%s %s]", c.Name, c.Summary)
		}
		for _, r := range e.ToolResults {
			s += fmt.Sprintf(" [error %v: %.40s]", r.IsError, r.Summary)
		}
		conv = append(conv, s)
	}
	want := []string{
		"message user: Record that we chose SQLite, see #retry",
		"message assistant: I will record the decision.",
		"tool_call assistant:  [Write /tmp/claude-rec/repo/.yoi/memory/decisions/sqlite.md]",
		"tool_result tool:  [error true: PreToolUse:Write hook error: git-yoimem:]",
		"tool_call assistant:  [Write /tmp/claude-rec/repo/notes.txt]",
		"tool_result tool:  [error false: File created successfully at: /tmp/claud]",
		"tool_call assistant:  [Bash cat notes.txt]",
		"tool_result tool:  [error false: We use SQLite.]",
		"tool_call assistant:  [mcp__yoimem__knowledge_search retry]",
		"tool_result tool:  [error false: {\"hits\":[{\"description\":\"how the payment]",
		"message assistant: Noted in notes.txt; memory changes go through the memory tools.",
		"compaction system: Conversation compacted",
	}
	if !slices.Equal(conv, want) {
		t.Errorf("the conversation read:\n%s\nwant:\n%s", strings.Join(conv, "\n"), strings.Join(want, "\n"))
	}
	if tokens != 64230 {
		t.Errorf("entries' input tokens %d, want 64230 (5 calls, each once)", tokens)
	}
	n, err := CountTokens(bytes.NewReader(data), ClaudeCode, Options{})
	if err != nil || n.InputTokens != 64230 || n.Calls != 5 {
		t.Errorf("CountTokens: %+v, %v; want 64230 over 5 calls", n, err)
	}
}
