package claudecode

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/yoimem/git-yoimem/agent"
)

// TestDecodeReal decodes every hook input the real Claude Code CLI sent
// in a recorded session (testdata/agents/claude-code, see its README)
// into the Event it stands for: kind, session, transcript, working
// directory, prompt, tool and input, source; GuardTool denies the Write
// into .yoi/memory and nothing else.
func TestDecodeReal(t *testing.T) {
	const (
		session = "3d4710d4-6191-4840-a7ce-9e8c232d0dea"
		log     = "/tmp/claude-rec/home/.claude/projects/-tmp-claude-rec-repo/" + session + ".jsonl"
		cwd     = "/tmp/claude-rec/repo"
	)
	type want struct {
		kind          agent.Kind
		prompt, tool  string
		input, source string // input: a field of the tool input, "field=value"
		deny          bool   // GuardTool denies it
	}
	tests := map[string]want{
		"SessionStart.json":                              {kind: agent.SessionStart, source: "startup"},
		"UserPromptSubmit.json":                          {kind: agent.UserPrompt, prompt: "Record that we chose SQLite, see #retry"},
		"PreToolUse.json":                                {kind: agent.PreTool, tool: "Write", input: "file_path=" + cwd + "/.yoi/memory/decisions/sqlite.md", deny: true},
		"PreToolUse-2.json":                              {kind: agent.PreTool, tool: "Write", input: "file_path=" + cwd + "/notes.txt"},
		"PreToolUse-bash.json":                           {kind: agent.PreTool, tool: "Bash", input: "command=cat notes.txt"},
		"PostToolUse.json":                               {kind: agent.Unknown, tool: "Write", input: "file_path=" + cwd + "/notes.txt"},
		"PostToolUse-bash.json":                          {kind: agent.Unknown, tool: "Bash", input: "command=cat notes.txt"},
		"PostToolUse-mcp__yoimem__knowledge_search.json": {kind: agent.Unknown, tool: "mcp__yoimem__knowledge_search", input: "query=retry"},
		"Stop.json":                                      {kind: agent.Stop},
		"SessionEnd.json":                                {kind: agent.SessionEnd, source: "other"},
		"SessionStart-resume.json":                       {kind: agent.SessionStart, source: "resume"},
		"PreCompact.json":                                {kind: agent.PreCompact, source: "manual"},
		"SubagentStop.json":                              {kind: agent.Unknown},
		"SessionStart-compact.json":                      {kind: agent.SessionStart, source: "compact"},
		"SessionEnd-2.json":                              {kind: agent.SessionEnd, source: "other"},
	}
	dir := filepath.Join("..", "..", "testdata", "agents", "claude-code", "hooks")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) != len(tests) {
		t.Fatalf("%d recorded hook inputs in %s, want %d (%v)", len(files), dir, len(tests), err)
	}
	for name, w := range tests {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			ev, err := Decode(f, DefaultLimit)
			if err != nil {
				t.Fatal(err)
			}
			if ev.Kind != w.kind || ev.Session != session || ev.LogPath != log || ev.Cwd != cwd ||
				ev.Prompt != w.prompt || ev.Tool != w.tool || ev.Source != w.source {
				t.Errorf("decoded %+v\nwant %+v", ev, w)
			}
			if deny, reason := agent.GuardTool(ev); deny != w.deny {
				t.Errorf("GuardTool: deny %v (%q), want %v", deny, reason, w.deny)
			}
			if w.input != "" && !hasField(ev.ToolInput, w.input) {
				t.Errorf("tool input %s lacks %s", ev.ToolInput, w.input)
			}
		})
	}
}

// hasField tells whether a JSON object has the string field "k=v".
func hasField(obj json.RawMessage, kv string) bool {
	var m map[string]any
	if json.Unmarshal(obj, &m) != nil {
		return false
	}
	for k, v := range m {
		if s, ok := v.(string); ok && k+"="+s == kv {
			return true
		}
	}
	return false
}
