//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/agent"
	"github.com/yoimem/git-yoimem/internal/standin"
)

// TestClaudeRealFullRun is the whole run with the real Claude Code
// CLI and our hooks as install writes them, offline: a session (claude -p)
// starts with the memory's context, expands #retry, has a Write and a
// shell redirection into .yoi/memory denied with our reasons (the model
// sees them); its Stop returns at once and the background run finds the
// session below extract's threshold; the session goes on (--resume), its
// transcript grows past the threshold, and the background run extracts
// (the extract model: a local scripted Messages API) and consolidates
// into a memory-branch commit; after `git yoimem merge` — or, in the
// second variant, by yoimem.autoMerge, with a threshold the first turn
// passes — the next session's SessionStart context shows the new memory.
// Every background run has finished before the rig goes. Claude runs: 3
// and 2.
func TestClaudeRealFullRun(t *testing.T) {
	for _, autoMerge := range []bool{false, true} {
		name := "merge"
		if autoMerge {
			name = "autoMerge"
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			fullRun(t, autoMerge)
		})
	}
}

func fullRun(t *testing.T, autoMerge bool) {
	r := newClaudeRig(t)
	f := newFakeModel(t)
	for i, kv := range r.env {
		if strings.HasPrefix(kv, "PATH=") {
			r.env[i] = "PATH=" + r.bin + string(os.PathListSeparator) + apiHelperDir(t) + strings.TrimPrefix(kv, "PATH="+r.bin)
		}
	}
	threshold := "1000000000"
	if autoMerge {
		threshold = "1"
		r.git("config", "yoimem.autoMerge", "true")
	}
	for k, v := range map[string]string{
		"yoimem.extract.model":            "anthropic:claude-haiku-4-5",
		"yoimem.llm.anthropicBaseURL":     f.srv.URL,
		"yoimem.llm.maxRetries":           "0",
		"yoimem.extract.tokenThreshold":   threshold,
		"yoimem.consolidate.stagingFiles": "1",
	} {
		r.git("config", k, v)
	}
	r.installHooks()

	memoryWrite := map[string]any{"file_path": filepath.Join(r.dir, ".yoi", "memory", "decisions", "cache.md"), "content": "# Cache\n"}
	memoryEcho := map[string]any{"command": "echo 'we cache reads' > .yoi/memory/notes.md", "description": "Note the cache"}
	_, writeReason := agent.GuardTool(agent.Event{Kind: agent.PreTool, Tool: "Write", Cwd: r.dir, ToolInput: mustJSON(t, memoryWrite)})
	_, echoReason := agent.GuardTool(agent.Event{Kind: agent.PreTool, Tool: "Bash", Cwd: r.dir, ToolInput: mustJSON(t, memoryEcho)})
	if writeReason == "" || echoReason == "" {
		t.Fatalf("GuardTool lets the writes into memory through: %q, %q", writeReason, echoReason)
	}
	const prompt = "We cache reads; see #retry"
	r.api.Script(
		standin.Turn{Want: []string{startSummary, startListing, promptContext, prompt}, Tools: []standin.ToolUse{{Name: "Write", Input: memoryWrite}}},
		standin.Turn{Want: []string{writeReason}, Tools: []standin.ToolUse{{Name: "Bash", Input: memoryEcho}}},
		standin.Turn{Want: []string{echoReason}, Text: "Memory changes go through the memory tools."},
	)
	if autoMerge {
		f.answer(activityAnswer("payments database", "postgres for payments"))
	}
	first := r.prompt(prompt, "--permission-mode", "acceptEdits", "--allowedTools", "Bash(echo:*)")
	s := r.waitBackground(first.SessionID)
	for _, p := range []string{"decisions/cache.md", "notes.md"} {
		if _, err := os.Stat(filepath.Join(r.dir, ".yoi", "memory", filepath.FromSlash(p))); !os.IsNotExist(err) {
			t.Errorf("a denied write reached .yoi/memory/%s (%v)", p, err)
		}
	}

	if !autoMerge {
		if s.Extract.Result != "not_due" || len(f.got()) != 0 {
			t.Fatalf("the first Stop: %+v, %d model calls; want the session below the threshold", s, len(f.got()))
		}
		// the threshold sits just above what the session has spent: the
		// next turn passes it
		r.git("config", "yoimem.extract.tokenThreshold", strconv.FormatInt(tokensSincePointer(t, r, first.SessionID)+1, 10))
		r.api.Script(standin.Turn{Want: []string{"Use Postgres for payments."}, Text: "Noted: payments move to Postgres."})
		f.answer(activityAnswer("payments database", "postgres for payments"))
		r.prompt("Use Postgres for payments.", "--resume", first.SessionID)
		r.waitBackground(first.SessionID)
	}
	reqs := f.got()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), "We cache reads") {
		t.Fatalf("extract's model: %d requests; want one with the session", len(reqs))
	}
	log, _ := os.ReadFile(filepath.Join(r.dir, ".git", "yoimem", "agent", "claude-code.log"))
	if !strings.Contains(string(log), "extract ran; consolidation committed") {
		t.Fatalf("no background run extracted and committed; the log:\n%s", log)
	}
	memory := strings.TrimSpace(r.git("rev-parse", "yoimem/memory:.yoi"))
	if autoMerge {
		if head := strings.TrimSpace(r.git("rev-parse", "HEAD:.yoi")); head != memory {
			t.Fatalf("yoimem.autoMerge did not merge the memory branch (HEAD:.yoi %s, memory %s); the log:\n%s", head, memory, log)
		}
	} else {
		r.yoimem("merge")
	}

	r.api.Script(standin.Turn{Want: []string{startSummary, "postgres for payments"}, Text: "Payments use Postgres."})
	next := r.prompt("What database do payments use?")
	r.waitBackground(next.SessionID)
	if err := r.api.Err(); err != nil {
		t.Errorf("the Messages stand-in: %v", err)
	}
}

// tokensSincePointer is extract --check's count of a session's input
// tokens since its pointer.
func tokensSincePointer(t *testing.T, r *claudeRig, session string) int64 {
	t.Helper()
	var check struct {
		Tokens int64 `json:"tokens_since_pointer"`
	}
	out := r.yoimem("extract", "--log", r.transcript(session), "--check", "--json")
	if err := json.Unmarshal([]byte(out), &check); err != nil || check.Tokens == 0 {
		t.Fatalf("extract --check --json: %v\n%s", err, out)
	}
	return check.Tokens
}
