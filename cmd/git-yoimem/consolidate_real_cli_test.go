//go:build unix

package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/agent/handler"
	"github.com/yoimem/git-yoimem/internal/standin"
)

// Consolidation through the real agent CLIs: the recipes of
// docs/consolidate.md ("Through an agent CLI") run as a user sets them,
// with the real claude -p and codex exec offline against the local model
// stand-ins, scripted to call the run's MCP tools by the names each CLI
// gives them. The commit is the llm engine's and the staging is consumed.

// The consolidation both CLIs are scripted to make: one staging entry
// (a decision) becomes one new decision record.
const (
	realStagingID   = "0194d29f-0c00-7000-8000-000000000001"
	realDecision    = "memory/decisions/retry-checkout.md"
	realDecisionMD  = "---\nstatus: resolved\n---\n# Retry checkout twice\n\nTwice, over once: the sandbox is flaky.\n"
	realReason      = "decided in session s1"
	realReport      = "One decision recorded from e1."
	realFinalAnswer = "Consolidated: one decision recorded."
	// realEntryText is in the staging entry, so in the brief; realPrinciple
	// is in the system prompt's principles.
	realEntryText = "The sandbox is flaky."
	realPrinciple = "Decisions are never deleted"
)

const realStagingEntry = `{
  "version": 1,
  "id": "` + realStagingID + `",
  "created_at": "2026-01-01T10:00:00Z",
  "source": {"session_id": "s1", "range": [1, 9]},
  "agent": "native",
  "model": "recorded",
  "activity": {
    "decisions": [{"topic": "Retry checkout twice", "options": ["once", "twice"], "chosen": "twice", "rationale": "` + realEntryText + `"}],
    "discussions": [],
    "attempts": [],
    "requests": []
  }
}
`

// realTools are the run's tools, as the MCP server names them.
var realTools = []string{"knowledge_search", "memory_delete", "memory_edit", "memory_read", "memory_search", "memory_write", "report"}

// realCall is a tool call a CLI is scripted to make, by our tool's name.
type realCall struct {
	Tool  string
	Input map[string]any
}

// realCalls are the tool calls, in order, each in its own turn: read the
// entry, write the decision drawing on it, report.
func realCalls() []realCall {
	return []realCall{
		{"memory_read", map[string]any{"path": "e1"}},
		{"memory_write", map[string]any{"path": realDecision, "content": realDecisionMD, "reason": realReason, "staging_ids": []string{"e1"}}},
		{"report", map[string]any{"summary": realReport}},
	}
}

// realAnswers are what each call's result says, in the request after it.
var realAnswers = []string{realEntryText, "Done: add .yoi/" + realDecision, "Report received"}

// shellWord quotes s for the recipe's argv (split like a shell's words).
func shellWord(s string) string {
	if s != "" && !strings.ContainsAny(s, " \t\n'\"\\$`") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// recipe is the recipe for cli in docs/consolidate.md, as the value of
// yoimem.consolidate.model (the words inside the quotes of its git
// config line), with bin in place of the CLI's name.
func recipe(t *testing.T, cli, bin string) string {
	t.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "consolidate.md"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^git config yoimem\.consolidate\.model (?:'(command:` + cli + ` [^'\n]*)'|"(command:` + cli + ` (?:[^"\\\n]|\\.)*)")$`)
	m := re.FindSubmatch(doc)
	if m == nil {
		t.Fatalf("docs/consolidate.md gives no recipe for %s", cli)
	}
	value := string(m[1])
	if value == "" {
		value = regexp.MustCompile("\\\\([\"\\\\$`])").ReplaceAllString(string(m[2]), "$1") // inside double quotes
	}
	return "command:" + shellWord(bin) + strings.TrimPrefix(value, "command:"+cli)
}

// checkConsolidated checks what the consolidation left: one memory
// commit with the llm engine's message and trailers, the decision as
// written with its source attached by code, the staging entry consumed.
func checkConsolidated(t *testing.T, git func(...string) string, dir, model string) {
	t.Helper()
	if n := strings.TrimSpace(git("rev-list", "--count", "yoimem/memory", "^main")); n != "1" {
		t.Fatalf("%s commits on the memory branch, want 1", n)
	}
	msg := git("log", "-1", "--format=%B", "yoimem/memory")
	for _, want := range []string{
		"yoimem: 1 added\n\nadd " + realDecision + ": " + realReason + "\n",
		"\nYoimem-Engine: llm\n",
		"\nYoimem-Model: " + model + "\n",
		"\nYoimem-Consumed: " + realStagingID + "\n",
		"\nYoimem-Session: s1:1-9\n",
	} {
		if !strings.Contains(msg, want) {
			t.Errorf("the memory commit's message lacks %q:\n%s", want, msg)
		}
	}
	rec := git("show", "yoimem/memory:.yoi/"+realDecision)
	for _, want := range []string{"status: resolved\n", "  - {session_id: s1, range: [1, 9]}\n", "Twice, over once: the sandbox is flaky.\n"} {
		if !strings.Contains(rec, want) {
			t.Errorf("the decision lacks %q:\n%s", want, rec)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, ".yoi", "memory", "_staging", realStagingID+".json")); !os.IsNotExist(err) {
		t.Errorf("the staging entry was not consumed (%v)", err)
	}
}

// checkOfferedTools checks the tools a request offered the model (names:
// the CLI's for each of ours): ours, all of them and nothing else, and,
// with schemas, memory_write's schema ours.
func checkOfferedTools(t *testing.T, offered map[string]json.RawMessage, name func(string) string, schemas bool) {
	t.Helper()
	for _, tool := range realTools {
		if _, ok := offered[name(tool)]; !ok {
			t.Errorf("the model was not offered %s (offered: %v)", name(tool), keys(offered))
		}
	}
	if s := string(offered[name("memory_write")]); schemas && (!strings.Contains(s, "staging_ids") || !strings.Contains(s, "derived_from")) {
		t.Errorf("%s's schema is not ours: %s", name("memory_write"), s)
	}
	for n := range offered {
		if !strings.HasPrefix(n, name("")) || !slices.Contains(realTools, strings.TrimPrefix(n, name(""))) {
			t.Errorf("a tool not ours was offered: %s", n)
		}
	}
}

func keys(m map[string]json.RawMessage) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// TestConsolidateRealClaude: the Claude Code recipe with the real claude
// -p, offline against the Messages stand-in, which is scripted to try a
// Write, then call mcp__yoimem__memory_read, memory_write and report, and
// end its turn: git yoimem consolidate lands one commit, the llm engine's;
// the brief reached the model; the Write was refused although the user's
// settings allow it; the tools offered were ours only, with another server
// and our read-only one in .mcp.json, approved.
func TestConsolidateRealClaude(t *testing.T) {
	t.Parallel()
	r := newClaudeRig(t)
	claudeName := func(tool string) string { return "mcp__yoimem__" + tool }
	var turns []standin.Turn
	for i, c := range realCalls() {
		turn := standin.Turn{Tools: []standin.ToolUse{{Name: claudeName(c.Tool), Input: c.Input}}}
		if i > 0 {
			turn.Want = []string{realAnswers[i-1]}
		}
		turns = append(turns, turn)
	}
	// as a model might: try a tool the recipe leaves out, then read,
	// write and report
	stray := standin.Turn{
		Want:  []string{realPrinciple, realEntryText, "<yoimem-data>"},
		Tools: []standin.ToolUse{{Name: "Write", Input: map[string]any{"file_path": filepath.Join(r.dir, "notes.txt"), "content": "x\n"}}},
	}
	turns = append([]standin.Turn{stray}, turns...)
	r.api.Script(append(turns, standin.Turn{Want: []string{realAnswers[len(realAnswers)-1]}, Text: realFinalAnswer})...)
	// our hooks, as install writes them (and the recorder beside them)
	r.installHooks()
	// the project's servers, approved: ours as install registers it, and
	// another; the recipe keeps both out
	r.write(".mcp.json", `{"mcpServers": {"yoimem": {"type": "stdio", "command": "git", "args": ["yoimem", "mcp"]}, "other": {"type": "stdio", "command": "git", "args": ["yoimem", "mcp"]}}}`+"\n")
	// and the user lets Claude Code write and run commands without asking;
	// the recipe must not
	user := `{"enableAllProjectMcpServers": true, "permissions": {"defaultMode": "acceptEdits", "allow": ["Write", "Edit", "Bash"]}}`
	if err := os.MkdirAll(filepath.Join(r.home, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.home, ".claude", "settings.json"), []byte(user+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r.write(".yoi/memory/_staging/"+realStagingID+".json", realStagingEntry)
	model := recipe(t, "claude", r.claude)
	r.git("config", "yoimem.consolidate.model", model)

	stdout, stderr, code := r.exec(filepath.Join(r.bin, "git-yoimem"), "consolidate")
	if code != 0 {
		t.Fatalf("consolidate: exit %d\n%s%s\nthe run's log:\n%s", code, stdout, stderr, runLogs(t, r.dir))
	}
	if err := r.api.Err(); err != nil {
		t.Fatalf("the Messages stand-in: %v", err)
	}
	checkConsolidated(t, r.git, r.dir, model)
	for _, want := range []string{"agent CLI: memory_read e1", "agent CLI: memory_write .yoi/" + realDecision, "agent CLI: reported"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("consolidate's progress lacks %q:\n%s", want, stderr)
		}
	}
	reqs := r.api.Scripted()
	if len(reqs) != len(turns)+1 {
		t.Fatalf("claude made %d scripted requests, want %d", len(reqs), len(turns)+1)
	}
	checkRunSession(t, r, reqs[0])
	// a tool the recipe leaves out is refused, and nothing is written
	if res := toolResults(t, reqs[1].Body); len(res) != 1 || !res[0].IsError {
		t.Errorf("the Write the recipe leaves out was not refused: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(r.dir, "notes.txt")); !os.IsNotExist(err) {
		t.Errorf("the Write the recipe leaves out wrote notes.txt (%v)", err)
	}
	// the model is offered our tools and nothing else: no built-in tool,
	// no other server's (a deferred placeholder aside, which names none)
	mcpName := regexp.MustCompile(`mcp__[A-Za-z0-9_-]+`)
	for i, req := range reqs {
		named := map[string]json.RawMessage{}
		for _, n := range mcpName.FindAllString(req.Text(), -1) {
			named[n] = nil
		}
		checkOfferedTools(t, named, claudeName, false)
		var body struct {
			Tools []struct {
				Name   string          `json:"name"`
				Schema json.RawMessage `json:"input_schema"`
				Defer  bool            `json:"defer_loading"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(req.Body, &body); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		offered := map[string]json.RawMessage{}
		for _, tool := range body.Tools {
			if !tool.Defer || strings.HasPrefix(tool.Name, "mcp__") {
				offered[tool.Name] = tool.Schema
			}
		}
		checkOfferedTools(t, offered, claudeName, true)
	}
}

// checkRunSession checks what our hooks did in the consolidation's own
// claude session (YOIMEM_RUN_ID in its environment): they ran, gave the
// model no context and started no background run, each saying so in
// the hooks' log.
func checkRunSession(t *testing.T, r *claudeRig, first standin.Request) {
	t.Helper()
	events, inputs := r.hookInputs()
	if !slices.Contains(events, "session-start") || !slices.Contains(events, "stop") {
		t.Fatalf("the hooks that ran in the consolidation's session: %v; want session-start and stop among them", events)
	}
	var in struct {
		SessionID string `json:"session_id"`
	}
	if err := json.Unmarshal(inputs[0], &in); err != nil || in.SessionID == "" {
		t.Fatalf("hook input: %v\n%s", err, inputs[0])
	}
	if strings.Contains(first.Text(), startListing) {
		t.Errorf("SessionStart gave the consolidation's session context (%q)", startListing)
	}
	dir := filepath.Join(r.dir, ".git", "yoimem", "agent")
	log, _ := os.ReadFile(handler.LogFile(dir, "claude-code"))
	for _, kind := range []string{"session-start", "stop"} {
		if !regexp.MustCompile(`(?m)` + kind + `: [a-z_]+: the agent session of consolidation run [0-9a-f-]{36}: nothing to add, no background run$`).Match(log) {
			t.Errorf("the hooks' log does not say %s was the consolidation's own session:\n%s", kind, log)
		}
	}
	if _, err := os.Stat(handler.StatusFile(dir, "claude-code", in.SessionID)); !os.IsNotExist(err) {
		t.Errorf("a background run started for the consolidation's session %s (%v)", in.SessionID, err)
	}
}

// runLogs are the consolidation runs' logs, for a failure's message.
func runLogs(t *testing.T, dir string) string {
	t.Helper()
	found, _ := filepath.Glob(filepath.Join(dir, ".git", "yoimem", "runs", "*.log"))
	var b strings.Builder
	for _, f := range found {
		data, _ := os.ReadFile(f)
		b.WriteString("== " + filepath.Base(f) + "\n" + string(data))
	}
	return b.String()
}

// TestConsolidateRealCodex: the Codex recipe with the real codex exec,
// offline against the Responses stand-in, which is scripted to try a
// shell write, then call memory_read, memory_write and report in the
// namespace Codex offers an MCP server's tools in (mcp__yoimem), then
// answer: git yoimem consolidate lands one commit, the llm engine's; the
// brief reached the model; the write was refused although the user's
// sandbox_mode allows it; the tools offered in that namespace are ours
// with our schemas, the run's server replacing the one the user
// registered under the same name (install --agent codex --scope user);
// the user's notify ran after the turn and started no background run.
func TestConsolidateRealCodex(t *testing.T) {
	t.Parallel()
	const namespace = "mcp__yoimem"
	var turns []standin.ResponsesTurn
	for _, call := range realCalls() {
		args, err := json.Marshal(call.Input)
		if err != nil {
			t.Fatal(err)
		}
		turns = append(turns, standin.ResponsesTurn{Calls: []standin.ResponsesCall{{Name: call.Tool, Namespace: namespace, Arguments: string(args)}}})
	}
	stray := standin.ResponsesTurn{Calls: []standin.ResponsesCall{{Name: "exec_command", Arguments: `{"cmd":"echo x > notes.txt; echo y >> .yoi/memory/summary.md","yield_time_ms":1000}`}}}
	turns = append([]standin.ResponsesTurn{stray}, turns...)
	c := newCodexRun(t, append(turns, standin.ResponsesTurn{Text: realFinalAnswer})...)
	// the user lets Codex write in the workspace (the recipe must not),
	// and installed our MCP server and notify for every project (notify
	// runs unreviewed; hooks would need the user's review first)
	c.top = append(c.top, `sandbox_mode = "workspace-write"`)
	c.features["hooks"] = "false"
	c.configure("")
	c.install("--scope", "user", "--notify")
	r := c.repo
	r.git("rm", "-q", ".yoi/memory/decisions/structured-logging.md", ".yoi/memory/decisions/json-logs.md", ".yoi/memory/requests/checkout-retries.md")
	r.git("commit", "-qm", "memory without lint errors")
	if err := os.MkdirAll(r.path(".yoi/memory/_staging"), 0o755); err != nil {
		t.Fatal(err)
	}
	r.write(".yoi/memory/_staging/"+realStagingID+".json", realStagingEntry)
	model := recipe(t, "codex", c.bin)
	r.git("config", "yoimem.consolidate.model", model)

	cmd := r.command("consolidate")
	cmd.Env = c.env // Codex's HOME and CODEX_HOME
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = 5 * time.Second
	if err := runWithin(cmd, 3*time.Minute); err != nil {
		t.Fatalf("consolidate: %v\n%s%s\nthe run's log:\n%s", err, stdout.String(), stderr.String(), runLogs(t, r.dir))
	}
	checkConsolidated(t, r.git, r.dir, model)
	for _, want := range []string{"agent CLI: memory_read e1", "agent CLI: memory_write .yoi/" + realDecision, "agent CLI: reported"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("consolidate's progress lacks %q:\n%s", want, stderr.String())
		}
	}
	if left := c.server.Left(); left != 0 {
		t.Errorf("%d scripted turns left", left)
	}
	checkCodexRunSession(t, r.path(".git/yoimem/agent"), runID(t, r.git))
	reqs := c.server.Requests()
	if len(reqs) != len(turns)+1 {
		t.Fatalf("codex made %d requests, want %d", len(reqs), len(turns)+1)
	}
	for _, want := range []string{realPrinciple, realEntryText, "<yoimem-data>"} {
		if !c.sentPrompt0Has(want) {
			t.Errorf("the brief did not reach the model: no %q in its first request's user messages", want)
		}
	}
	if _, err := os.Stat(r.path("notes.txt")); !os.IsNotExist(err) {
		t.Errorf("the shell command wrote notes.txt in the consolidation run (%v)", err)
	}
	if st := r.git("status", "--porcelain"); st != "" {
		t.Errorf("the consolidation run changed the working tree:\n%s", st)
	}
	if !c.requestHas(1, "Read-only file system") {
		t.Errorf("the shell command's writes were not refused:\n%.3000s", reqs[1].Body)
	}
	for i, answer := range realAnswers {
		if !c.requestHas(i+2, answer) {
			t.Errorf("request %d lacks the answer to %s (%q):\n%.3000s", i+1, realCalls()[i].Tool, answer, reqs[i+1].Body)
		}
	}
	for i, req := range reqs {
		var body struct {
			Tools []struct {
				Type  string `json:"type"`
				Name  string `json:"name"`
				Tools []struct {
					Name   string          `json:"name"`
					Params json.RawMessage `json:"parameters"`
				} `json:"tools"`
			} `json:"tools"`
		}
		if err := json.Unmarshal(req.Body, &body); err != nil {
			t.Fatalf("request %d: %v", i, err)
		}
		offered := map[string]json.RawMessage{}
		for _, tool := range body.Tools {
			if tool.Type == "namespace" && tool.Name == namespace {
				for _, f := range tool.Tools {
					offered[f.Name] = f.Params
				}
			}
		}
		checkOfferedTools(t, offered, func(tool string) string { return tool }, true)
	}
}

// runID is the run ID of the memory branch's last commit.
func runID(t *testing.T, git func(...string) string) string {
	t.Helper()
	m := regexp.MustCompile(`(?m)^Yoimem-Run: ([0-9a-f-]{36})$`).FindStringSubmatch(git("log", "-1", "--format=%B", "yoimem/memory"))
	if m == nil {
		t.Fatal("the memory commit names no run")
	}
	return m[1]
}

// checkCodexRunSession checks that notify ran after the consolidation's
// own codex turn and, told by YOIMEM_RUN_ID, started no background run.
func checkCodexRunSession(t *testing.T, dir, run string) {
	t.Helper()
	log, _ := os.ReadFile(handler.LogFile(dir, "codex"))
	m := regexp.MustCompile(`(?m)session "([^"]+)": notify: stop: the agent session of consolidation run ` + run + `: nothing to add, no background run$`).FindSubmatch(log)
	if m == nil {
		t.Fatalf("the hooks' log does not say notify ran in consolidation run %s's own session:\n%s", run, log)
	}
	if _, err := os.Stat(handler.StatusFile(dir, "codex", string(m[1]))); !os.IsNotExist(err) {
		t.Errorf("a background run started for the consolidation's session %s (%v)", m[1], err)
	}
}

// sentPrompt0Has tells whether a user message of Codex's first request
// holds text.
func (c *codexRun) sentPrompt0Has(text string) bool {
	c.t.Helper()
	reqs := c.server.Requests()
	if len(reqs) == 0 {
		return false
	}
	msgs, err := reqs[0].Messages()
	if err != nil {
		c.t.Fatal(err)
	}
	for _, m := range msgs {
		if m.Role == "user" && strings.Contains(strings.Join(m.Text, "\n"), text) {
			return true
		}
	}
	return false
}

// runWithin runs cmd, killed past limit.
func runWithin(cmd *exec.Cmd, limit time.Duration) error {
	if err := cmd.Start(); err != nil {
		return err
	}
	timer := time.AfterFunc(limit, func() { _ = cmd.Process.Kill() })
	defer timer.Stop()
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("%w (killed after %v if still running)", err, limit)
	}
	return nil
}
