package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/agent"
	"github.com/yoimem/git-yoimem/agent/claudecode"
	"github.com/yoimem/git-yoimem/agent/handler"
	"github.com/yoimem/git-yoimem/internal/standin"
)

// recordEnv set to 1 makes TestClaudeRealSession rewrite the recorded
// payloads and transcript under testdata/agents/claude-code (see its
// README).
const recordEnv = "YOIMEM_CLAUDE_RECORD"

// recordedDir is where the recorded payloads and transcript live.
var recordedDir = filepath.Join("..", "..", "testdata", "agents", "claude-code")

// recordRoot replaces the rig's temporary root in what is recorded, so
// that the committed files do not change with each recording's temporary
// directory.
const recordRoot = "/tmp/claude-rec"

// The texts our hooks give the model (from the rig's memory), and the
// prompt.
const (
	startSummary  = "# shop\nRun make test before a commit."
	startListing  = "- #retry: how the payment client retries"
	promptContext = "<yoimem-memory kind=\"knowledge\" slug=\"retry\">\nRetry twice with jitter.\n</yoimem-memory>"
	sessionPrompt = "Record that we chose SQLite, see #retry"
	finalAnswer   = "Noted in notes.txt; memory changes go through the memory tools."
)

// TestClaudeRealSession runs the real Claude Code CLI against the
// Messages stand-in with our hooks as `git yoimem install --agent
// claude-code` writes them, answered by `git yoimem hook claude-code`: the
// SessionStart context (the summary and the knowledge listing) and the
// #slug expansion reach the model, a Write into .yoi/memory is denied
// with our reason and the model sees it, the other tools run, and so
// does knowledge_search of `git yoimem mcp` (.mcp.json as install writes
// it), whose answer reaches the model; then /compact on the resumed
// session fires PreCompact. Every hook input (recorded beside our hooks)
// decodes into the right agent.Event and agrees in shape with the
// committed recordings, and the transcript claude wrote reads through
// extract --dry-run. The background runs the hooks started finish before
// the test does.
func TestClaudeRealSession(t *testing.T) {
	t.Parallel()
	r := newClaudeRig(t)
	memoryPath := filepath.Join(r.dir, ".yoi", "memory", "decisions", "sqlite.md")
	memoryWrite := map[string]any{"file_path": memoryPath, "content": "---\nstatus: active\n---\n# Use SQLite\n"}
	r.api.Script(
		standin.Turn{
			Want: []string{startSummary, startListing, promptContext, sessionPrompt},
			Text: "I will record the decision.", Tools: []standin.ToolUse{{Name: "Write", Input: memoryWrite}},
		},
		standin.Turn{
			Want:  []string{"is project memory"},
			Tools: []standin.ToolUse{{Name: "Write", Input: map[string]any{"file_path": filepath.Join(r.dir, "notes.txt"), "content": "We use SQLite.\n"}}},
		},
		standin.Turn{Tools: []standin.ToolUse{{Name: "Bash", Input: map[string]any{"command": "cat notes.txt", "description": "Show the notes"}}}},
		standin.Turn{Want: []string{"We use SQLite."}, Tools: []standin.ToolUse{{Name: "mcp__yoimem__knowledge_search", Input: map[string]any{"query": "retry"}}}},
		standin.Turn{Want: []string{"how the payment client retries"}, Text: finalAnswer},
		standin.Turn{Text: "<summary>We chose SQLite and noted it in notes.txt.</summary>"}, // /compact
	)
	_, reason := agent.GuardTool(agent.Event{Kind: agent.PreTool, Tool: "Write", Cwd: r.dir, ToolInput: mustJSON(t, memoryWrite)})
	r.installHooks()
	r.approveProjectMCP()

	first := r.prompt(sessionPrompt, "--permission-mode", "acceptEdits", "--allowedTools", "Bash(cat:*) mcp__yoimem__knowledge_search")
	if first.Result != finalAnswer {
		t.Errorf("claude's result: %q, want %q", first.Result, finalAnswer)
	}
	r.prompt("/compact", "--resume", first.SessionID)
	if s := r.waitBackground(first.SessionID); s.Extract.Result == handler.ExtractFailed || s.Consolidation.Result == handler.ConsolidationFailed {
		t.Errorf("the hooks' background run failed: %+v", s)
	}
	if err := r.api.Err(); err != nil {
		t.Fatalf("the Messages stand-in: %v", err)
	}
	if _, err := os.Stat(memoryPath); !os.IsNotExist(err) {
		t.Errorf("the denied Write reached %s (%v)", memoryPath, err)
	}
	if b, err := os.ReadFile(filepath.Join(r.dir, "notes.txt")); err != nil || string(b) != "We use SQLite.\n" {
		t.Errorf("notes.txt: %q, %v", b, err)
	}
	denied := toolResults(t, r.api.Scripted()[1].Body)
	if len(denied) != 1 || !denied[0].IsError || !strings.Contains(denied[0].Text, reason) {
		t.Errorf("the model was not shown the denial with our reason:\n%+v\nwant %q", denied, reason)
	}

	events, inputs := r.hookInputs()
	checkHookSequence(t, events, inputs, reason)
	transcript := r.transcript(first.SessionID)
	checkTranscriptDryRun(t, r, transcript)

	rec := recordSession(t, r, events, inputs, transcript)
	if os.Getenv(recordEnv) == "1" {
		writeClaudeRecording(t, rec)
		return
	}
	checkRecordedShapes(t, rec)
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// toolResult is a tool_result block of a request's last message.
type toolResult struct {
	ID      string
	IsError bool
	Text    string
}

// toolResults are the tool results the last message of a Messages
// request carries back to the model.
func toolResults(t *testing.T, body []byte) []toolResult {
	t.Helper()
	var req struct {
		Messages []struct {
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
		t.Fatalf("a request without messages (%v)", err)
	}
	var blocks []struct {
		Type      string          `json:"type"`
		ToolUseID string          `json:"tool_use_id"`
		IsError   bool            `json:"is_error"`
		Content   json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(req.Messages[len(req.Messages)-1].Content, &blocks) // a plain string has none
	var out []toolResult
	for _, b := range blocks {
		if b.Type != "tool_result" {
			continue
		}
		out = append(out, toolResult{ID: b.ToolUseID, IsError: b.IsError, Text: blockText(b.Content)})
	}
	return out
}

// blockText is a tool result's content: a string or text blocks.
func blockText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct{ Text string }
	_ = json.Unmarshal(raw, &parts)
	var texts []string
	for _, p := range parts {
		texts = append(texts, p.Text)
	}
	return strings.Join(texts, "\n")
}

// checkHookSequence checks the hooks claude ran, in order, and that each
// input decodes into the Event its event argument says, with the
// session, transcript and working directory; the Write into .yoi/memory
// decodes into an Event GuardTool denies with the reason we answered.
func checkHookSequence(t *testing.T, events []string, inputs [][]byte, reason string) {
	t.Helper()
	want := []string{
		"session-start", "user-prompt-submit",
		"pre-tool-use", "pre-tool-use", "post-tool-use", "pre-tool-use", "post-tool-use", "post-tool-use",
		"stop", "session-end",
		"session-start", "pre-compact", "subagent-stop", "session-start", "session-end",
	}
	if !slices.Equal(events, want) {
		t.Errorf("hooks run:\n%v\nwant\n%v", events, want)
	}
	kinds := map[string]agent.Kind{
		"session-start": agent.SessionStart, "user-prompt-submit": agent.UserPrompt, "pre-tool-use": agent.PreTool,
		"stop": agent.Stop, "pre-compact": agent.PreCompact, "session-end": agent.SessionEnd,
	}
	var session string
	for i, in := range inputs {
		ev, err := claudecode.Decode(bytes.NewReader(in), 0)
		if err != nil {
			t.Errorf("hook input %d (%s): %v", i, events[i], err)
			continue
		}
		if k, ok := kinds[events[i]]; ok && ev.Kind != k || !ok && ev.Kind != agent.Unknown {
			t.Errorf("hook input %d (%s) decodes as %q", i, events[i], ev.Kind)
		}
		if session == "" {
			session = ev.Session
		}
		if ev.Session != session || ev.Session == "" || !strings.HasSuffix(ev.LogPath, "/"+session+".jsonl") || ev.Cwd == "" {
			t.Errorf("hook input %d (%s): session %q, log %q, cwd %q", i, events[i], ev.Session, ev.LogPath, ev.Cwd)
		}
		if i == 2 {
			if deny, got := agent.GuardTool(ev); !deny || got != reason {
				t.Errorf("the Write into .yoi/memory as claude sent it: deny %v, reason %q", deny, got)
			}
		}
	}
}

// checkTranscriptDryRun reads the transcript claude wrote with extract
// --dry-run: the prompt, the tool calls and the answer are there.
func checkTranscriptDryRun(t *testing.T, r *claudeRig, transcript string) {
	t.Helper()
	stdout, stderr, code := r.exec(filepath.Join(r.bin, "git-yoimem"), "extract", "--dry-run", "--format", "claude-code", "--log", transcript)
	if code != 0 {
		t.Fatalf("extract --dry-run: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{
		"user: " + sessionPrompt + "\n",
		"assistant: I will record the decision.\n",
		"assistant called Write: ",
		"assistant called Bash: cat notes.txt\n",
		"assistant called mcp__yoimem__knowledge_search: retry\n",
		"assistant: " + finalAnswer + "\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("extract --dry-run of claude's transcript lacks %q:\n%s", want, stdout)
		}
	}
}

// recording is one session's hook inputs and transcript as committed:
// file name → content, the rig's root replaced by recordRoot.
type recording map[string][]byte

// hookNames are the recorded files' event names by hook argument.
var hookNames = map[string]string{
	"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit", "pre-tool-use": "PreToolUse",
	"post-tool-use": "PostToolUse", "stop": "Stop", "pre-compact": "PreCompact", "session-end": "SessionEnd",
	"subagent-stop": "SubagentStop", "notification": "Notification",
}

func recordSession(t *testing.T, r *claudeRig, events []string, inputs [][]byte, transcript string) recording {
	t.Helper()
	rec := recording{}
	firstQual := map[string]string{} // the first input's qualifier, per event
	count := map[string]int{}
	for i, in := range inputs {
		name, qual := hookNames[events[i]], qualifier(t, in)
		count[name]++
		file := "hooks/" + name + ".json"
		switch first, seen := firstQual[name]; {
		case !seen:
			firstQual[name] = qual
		case qual != "" && qual != first && rec["hooks/"+name+"-"+qual+".json"] == nil:
			file = "hooks/" + name + "-" + qual + ".json"
		default:
			file = fmt.Sprintf("hooks/%s-%d.json", name, count[name])
		}
		rec[file] = r.normalize(in)
	}
	b, err := os.ReadFile(transcript)
	if err != nil {
		t.Fatal(err)
	}
	rec["transcripts/"+filepath.Base(transcript)] = r.normalize(b)
	return rec
}

// qualifier tells apart inputs of one event: how a session started, the
// tool called.
func qualifier(t *testing.T, in []byte) string {
	var p struct{ Source, Trigger, Tool_name, Reason string }
	if err := json.Unmarshal(in, &p); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{p.Source, p.Trigger, p.Tool_name, p.Reason} {
		if s != "" {
			return strings.ToLower(s)
		}
	}
	return ""
}

// normalize replaces the rig's temporary root by recordRoot, in paths
// and in claude's project directory name (the path with / and . as -).
func (r *claudeRig) normalize(b []byte) []byte {
	dashed := func(p string) string { return strings.NewReplacer("/", "-", ".", "-").Replace(p) }
	return []byte(strings.NewReplacer(r.root, recordRoot, dashed(r.root), dashed(recordRoot)).Replace(string(b)))
}

func writeClaudeRecording(t *testing.T, rec recording) {
	t.Helper()
	for _, sub := range []string{"hooks", "transcripts"} {
		if err := os.RemoveAll(filepath.Join(recordedDir, sub)); err != nil {
			t.Fatal(err)
		}
	}
	for name, b := range rec {
		p := filepath.Join(recordedDir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("recorded %d files under %s", len(rec), recordedDir)
}

// checkRecordedShapes: the committed hook payloads are what this claude
// sends: the same files, each with the same fields. A new Claude Code
// that changes them fails here; record again (README).
func checkRecordedShapes(t *testing.T, rec recording) {
	t.Helper()
	committed, err := filepath.Glob(filepath.Join(recordedDir, "hooks", "*.json"))
	if err != nil || len(committed) == 0 {
		t.Fatalf("no recorded payloads under %s (%v)", recordedDir, err)
	}
	var names []string
	for _, p := range committed {
		names = append(names, "hooks/"+filepath.Base(p))
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		fresh, ok := rec["hooks/"+filepath.Base(p)]
		if !ok {
			t.Errorf("%s: this run of claude sent no such hook input", p)
			continue
		}
		if a, b := fieldNames(t, b), fieldNames(t, fresh); !slices.Equal(a, b) {
			t.Errorf("%s has the fields %v; this claude sends %v: record again (testdata/agents/claude-code/README.md)", p, a, b)
		}
	}
	for name := range rec {
		if strings.HasPrefix(name, "hooks/") && !slices.Contains(names, name) {
			t.Errorf("this run of claude sent %s, which is not recorded: record again (testdata/agents/claude-code/README.md)", name)
		}
	}
}

func fieldNames(t *testing.T, b []byte) []string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("a hook input is not a JSON object: %v", err)
	}
	var keys []string
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestClaudeRealMCPList: `claude mcp list` health-checks the server
// registered in .mcp.json as install writes it (claudecode.MergeMCP):
// claude starts `git yoimem mcp` in the repository, which answers the MCP
// handshake. Without the user's approval of the project's servers claude
// lists ours as pending and starts nothing.
func TestClaudeRealMCPList(t *testing.T) {
	t.Parallel()
	r := newClaudeRig(t)
	r.registerMCP()
	if stdout := r.mustExec(r.claude, "mcp", "list"); !strings.Contains(stdout, "yoimem: git yoimem mcp - ") || !strings.Contains(stdout, "Pending approval") {
		t.Errorf("claude mcp list before approval:\n%s", stdout)
	}
	r.approveProjectMCP()
	stdout := r.mustExec(r.claude, "mcp", "list")
	if !strings.Contains(stdout, "yoimem: git yoimem mcp - ✔ Connected") {
		t.Errorf("claude mcp list does not report git yoimem mcp connected:\n%s", stdout)
	}
	if len(r.api.Requests()) != 0 {
		t.Errorf("claude mcp list called the model API: %d requests", len(r.api.Requests()))
	}
}

// TestClaudeRealOurHooksOutsideRepo: with our hooks installed for the
// user (every session, any directory) and claude run in a directory that
// is no repository, the hooks, which have nothing to do there, must
// neither block nor disturb the session: Claude Code reads a hook's exit
// code 2 as "block" (UserPromptSubmit: the prompt is dropped and claude
// -p ends with no turn at all; PreToolUse: the tool is denied; Stop: the
// agent must go on), and any other failure as an error shown to the
// user. git-yoimem's own exit code 2 (usage, not a repository) must
// therefore never leave `git yoimem hook claude-code`.
//
// It runs once `git yoimem hook claude-code` exists; before that, the
// command is an unknown hook (exit 2), and this session loses its prompt.
func TestClaudeRealOurHooksOutsideRepo(t *testing.T) {
	t.Parallel()
	r := newClaudeRig(t)
	plain := r.at("plain")
	if err := os.MkdirAll(plain, 0o755); err != nil {
		t.Fatal(err)
	}
	yoimem := filepath.Join(r.bin, "git-yoimem")
	start := []byte(`{"session_id":"s","transcript_path":"` + filepath.Join(r.home, "none.jsonl") + `","cwd":"` + plain + `","hook_event_name":"SessionStart","source":"startup"}`)
	if _, stderr, code := r.execIn(plain, start, yoimem, "hook", "claude-code", "session-start"); code == 2 && strings.Contains(stderr, `unknown hook "claude-code"`) {
		t.Skip("git yoimem hook claude-code is not on this branch yet")
	}

	notes := filepath.Join(plain, "notes.txt")
	r.api.Script(
		standin.Turn{Want: []string{"write the notes"}, Tools: []standin.ToolUse{{Name: "Write", Input: map[string]any{"file_path": notes, "content": "plain\n"}}}},
		standin.Turn{Text: "Written."},
	)
	r.installUserHooks(yoimem)
	stdout, stderr, code := r.execIn(plain, nil, r.claude, "-p", "write the notes", "--output-format", "json", "--permission-mode", "acceptEdits")
	var res claudeResult
	if err := json.Unmarshal([]byte(stdout), &res); code != 0 || err != nil || res.Result != "Written." {
		t.Errorf("claude -p outside a repository with our hooks: exit %d, result %q (%v)\n%s", code, res.Result, err, stderr)
	}
	if err := r.api.Err(); err != nil {
		t.Errorf("the Messages stand-in: %v", err)
	}
	if b, err := os.ReadFile(notes); err != nil || string(b) != "plain\n" {
		t.Errorf("the Write did not run: %q, %v", b, err)
	}
	if strings.Contains(stderr, " hook [") && strings.Contains(stderr, "failed") {
		t.Errorf("claude reports a failing hook:\n%s", stderr)
	}
}
