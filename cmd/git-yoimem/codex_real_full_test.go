//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/agent/handler"
	"github.com/yoimem/git-yoimem/internal/standin"
)

// The full run with the real Codex CLI: git yoimem install --agent codex
// wires it, and memory works by itself across sessions (the helpers are
// codex_real_e2e_test.go's).

// denyReason is a phrase of the reason our PreToolUse deny gives.
const denyReason = "is project memory, which generic tools"

// withModel points the background runs' extract at a local Messages API
// (as TestClaudeCodeHooksEndToEnd does) and lets Codex's hooks reach it:
// the key and the model helper on the PATH Codex runs hooks with.
func (c *codexRun) withModel() *fakeModel {
	c.t.Helper()
	r := c.repo
	f := newFakeModel(c.t)
	for k, v := range map[string]string{
		"yoimem.extract.model":            "anthropic:claude-haiku-4-5",
		"yoimem.llm.anthropicBaseURL":     f.srv.URL,
		"yoimem.llm.maxRetries":           "0",
		"yoimem.extract.tokenThreshold":   "10000",
		"yoimem.consolidate.stagingFiles": "1",
	} {
		r.git("config", k, v)
	}
	r.git("rm", "-q", ".yoi/memory/decisions/structured-logging.md", ".yoi/memory/decisions/json-logs.md", ".yoi/memory/requests/checkout-retries.md")
	r.git("commit", "-qm", "memory without lint errors")
	helper := apiHelperDir(c.t)
	for i, kv := range c.env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			c.env[i] = "PATH=" + helper + string(os.PathListSeparator) + v
		}
	}
	c.env = append(c.env, "ANTHROPIC_API_KEY=sk-ant-test-0123456789")
	return f
}

// install runs git yoimem install with Codex's HOME and CODEX_HOME.
func (c *codexRun) install(args ...string) string {
	c.t.Helper()
	cmd := c.repo.command(append([]string{"install", "--agent", "codex"}, args...)...)
	cmd.Env = append(append([]string{}, c.repo.env...), "HOME="+c.home, "CODEX_HOME="+c.codexHome)
	out, err := cmd.CombinedOutput()
	if err != nil {
		c.t.Fatalf("install --agent codex %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// requestHas tells whether the n-th request to the stand-in has text in
// its body (messages, tool outputs).
func (c *codexRun) requestHas(n int, text string) bool {
	reqs := c.server.Requests()
	return n < len(reqs) && strings.Contains(string(reqs[n].Body), text)
}

// sentContext tells whether the n-th request carries text in a developer
// message: where Codex puts a hook's additionalContext (AGENTS.md comes
// as a user message).
func (c *codexRun) sentContext(n int, text string) bool {
	c.t.Helper()
	reqs := c.server.Requests()
	if n >= len(reqs) {
		return false
	}
	msgs, err := reqs[n].Messages()
	if err != nil {
		c.t.Fatal(err)
	}
	for _, m := range msgs {
		if m.Role == "developer" && strings.Contains(strings.Join(m.Text, "\n"), text) {
			return true
		}
	}
	return false
}

// TestCodexRealFullRun: install --agent codex in the project scope
// (Codex trusting the project; hooks trusted with the bypass flag), then
// real codex exec sessions: SessionStart's context reaches the model; a
// shell write and an apply_patch into .yoi/memory are denied and the
// model sees our reason; Stop returns at once and its background run
// extracts once the rollout passes the threshold (exec, then exec
// resume) and commits to the memory branch; after git yoimem merge the
// next session starts knowing the new memory.
func TestCodexRealFullRun(t *testing.T) {
	patch := "*** Begin Patch\n*** Add File: .yoi/memory/decisions/db.md\n+---\n+status: active\n+---\n+Postgres.\n*** End Patch\n"
	c := newCodexRun(t,
		// session 1, turn 1: a shell write into memory, an apply_patch
		// into memory, then the answer
		standin.ResponsesTurn{Text: "Let me note it.", Calls: []standin.ResponsesCall{{Name: "exec_command", Arguments: `{"cmd":"echo '- payments: postgres' >> .yoi/memory/summary.md","yield_time_ms":1000}`}}, InputTokens: 3000},
		standin.ResponsesTurn{Calls: []standin.ResponsesCall{{Name: "apply_patch", Arguments: patch, Custom: true}}, InputTokens: 3000},
		standin.ResponsesTurn{Text: "Noted: payments move to Postgres.", InputTokens: 3000},
		// the same session resumed: past the threshold
		standin.ResponsesTurn{Text: "Refunds will come from Stripe webhooks.", InputTokens: 9000},
		// session 2, after the merge
		standin.ResponsesTurn{Text: "We use Postgres for payments."},
	)
	f := c.withModel()
	// a model Codex offers apply_patch to (its catalog's
	// apply_patch_tool_type), and the project trusted
	c.top[0] = `model = "gpt-5.5"`
	c.configure("[projects." + tomlQuote(c.repo.dir) + "]\ntrust_level = \"trusted\"")
	out := c.install()
	for _, want := range []string{"created .codex/hooks.json", "created .codex/config.toml", "created AGENTS.md", "next: in Codex, open /hooks"} {
		if !strings.Contains(out, want) {
			t.Errorf("install said no %q:\n%s", want, out)
		}
	}
	c.flags = append(c.flags, "--dangerously-bypass-hook-trust", "--sandbox", "workspace-write")

	id := c.exec("Keep payments in Postgres, not SQLite.")
	if !c.sentContext(0, "<yoimem-memory") {
		t.Errorf("SessionStart's context did not reach the model:\n%.4000s", c.server.Requests()[0].Body)
	}
	// each denial's reason, naming the file, in the next request
	for i, what := range []string{".yoi/memory/summary.md " + denyReason + " (Bash)", ".yoi/memory/decisions/db.md " + denyReason + " (apply_patch)"} {
		if !c.requestHas(i+1, what) {
			t.Errorf("the model does not see %q:\n%.6000s", what, c.server.Requests()[i+1].Body)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(c.repo.dir, ".yoi", "memory", "summary.md")); strings.Contains(string(b), "payments: postgres") {
		t.Errorf("the shell write went through:\n%s", b)
	}
	if _, err := os.Stat(filepath.Join(c.repo.dir, ".yoi", "memory", "decisions", "db.md")); err == nil {
		t.Errorf("the apply_patch went through")
	}
	s := c.repo.waitAgentRun("codex", id)
	if s.Extract.Result != handler.ExtractNotDue || len(f.got()) != 0 {
		t.Fatalf("turn 1: %+v, %d model calls; want nothing due", s, len(f.got()))
	}

	f.answer(activityAnswer("payments database", "postgres for payments"))
	if again := c.exec("resume", id, "Refunds come from Stripe webhooks."); again != id {
		t.Fatalf("resumed session %s, want %s", again, id)
	}
	s = c.repo.waitAgentRun("codex", id)
	if s.Extract.Result != handler.ExtractRan || s.Extract.Staged != 1 || s.Consolidation.Result != handler.ConsolidationCommitted {
		t.Fatalf("turn 2: %+v; want extract ran (1 staged) and a commit; the log:\n%s", s, c.repo.read(filepath.Join(".git", "yoimem", "agent", "codex.log")))
	}
	if s.Transcript != c.rollout(id) {
		t.Errorf("the run read %s, not the rollout %s", s.Transcript, c.rollout(id))
	}

	c.repo.mustRun("merge")
	next := c.exec("What database do payments use?")
	if n := len(c.server.Requests()) - 1; !c.sentContext(n, "postgres for payments") {
		t.Errorf("the next session's context does not show the new memory:\n%.6000s", c.server.Requests()[n].Body)
	}
	// its Stop's run too, before the temporary directories go
	c.repo.waitAgentRun("codex", next)
	if left := c.server.Left(); left != 0 {
		t.Errorf("%d scripted turns left", left)
	}
}

// TestCodexRealNotify: install --notify with Codex's hooks off: notify
// alone starts the background run that extracts and commits. Only the
// user scope: Codex 0.171 ignores notify in a project's .codex/config.toml,
// trusted or not (seen with this test), so install refuses it there.
func TestCodexRealNotify(t *testing.T) {
	for _, scope := range []string{"user"} {
		t.Run(scope, func(t *testing.T) {
			c := newCodexRun(t, standin.ResponsesTurn{Text: "Noted: payments move to Postgres.", InputTokens: 12000})
			f := c.withModel()
			c.features["hooks"] = "false"
			c.configure("[projects." + tomlQuote(c.repo.dir) + "]\ntrust_level = \"trusted\"")
			out := c.install("--scope", scope, "--notify")
			if !strings.Contains(out, "notify needs no review") {
				t.Errorf("install --notify said:\n%s", out)
			}
			f.answer(activityAnswer("payments database", "postgres for payments"))
			id := c.exec("Keep payments in Postgres, not SQLite.")
			s := c.repo.waitAgentRun("codex", id)
			if s.Event != "agent-turn-complete" || s.Extract.Result != handler.ExtractRan || s.Consolidation.Result != handler.ConsolidationCommitted {
				t.Fatalf("%+v; want a run from notify that extracted and committed; the log:\n%s", s, c.repo.read(filepath.Join(".git", "yoimem", "agent", "codex.log")))
			}
			if c.sentContext(0, "<yoimem-memory") {
				t.Errorf("hooks off, yet SessionStart's context reached the model")
			}
		})
	}
}

func tomlQuote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
