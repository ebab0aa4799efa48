//go:build unix

package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/agent/handler"
)

// End-to-end tests of `git yoimem hook codex notify` with the real
// binary, the real git, a recorded Codex 0.171 rollout and a local
// Messages API: the legacy notify (Codex with hooks off) starts the same
// background run as Stop.

// codexThread is the session of testdata/agents/codex/0.171.0/tools.
const codexThread = "01a232d7-3164-7302-a918-a1383d37d1a0"

// waitAgentRun waits for a session's background run to finish (its
// status file written with finished_at), with a generous deadline: this
// is no timing test. The status file is removed for the next wait.
func (r *extractRepo) waitAgentRun(agentName, session string) handler.Status {
	r.t.Helper()
	dir := filepath.Join(r.dir, ".git", "yoimem", "agent")
	path := handler.StatusFile(dir, agentName, session)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if s, err := handler.ReadStatus(path); err == nil && !s.FinishedAt.IsZero() {
			_ = os.Remove(path)
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
	log, _ := os.ReadFile(filepath.Join(dir, agentName+".log"))
	r.t.Fatalf("no finished background run after 60s; the log:\n%s", log)
	return handler.Status{}
}

// TestCodexNotifyEndToEnd: notify's payload names the thread; its
// rollout is found under CODEX_HOME; the background run extracts the
// recorded session (a local Messages API) and consolidates into a
// memory-branch commit, and the hook printed nothing.
func TestCodexNotifyEndToEnd(t *testing.T) {
	codexHome := t.TempDir()
	r := newHookRepo(t, "ANTHROPIC_API_KEY=sk-ant-test-0123456789", "CODEX_HOME="+codexHome)
	r.withPath(apiHelperDir(t))
	f := newFakeModel(t)
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
	rollout, err := os.ReadFile(filepath.Join("..", "..", "testdata", "agents", "codex", "0.171.0", "tools", "rollout.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	day := filepath.Join(codexHome, "sessions", "2026", "12", "01")
	if err := os.MkdirAll(day, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(day, "rollout-2026-12-01T18-21-33-"+codexThread+".jsonl")
	if err := os.WriteFile(path, rollout, 0o644); err != nil {
		t.Fatal(err)
	}

	f.answer(activityAnswer("repository docs", "README.md as the only doc"))
	payload := `{"type":"agent-turn-complete","thread-id":"` + codexThread + `","turn-id":"t1","cwd":"` + r.dir + `","client":"codex_exec","input-messages":["What is in this repository?"],"last-assistant-message":"README.md"}`
	cmd := r.command("hook", "codex", "notify", payload)
	// stdin a pipe nobody writes or closes, as Codex may leave it: notify
	// must not read it (that would hang)
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	defer pr.Close()
	cmd.Stdin = pr
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	hung := time.AfterFunc(60*time.Second, func() { _ = cmd.Process.Kill() }) // a hang, not a slow machine
	err = cmd.Wait()
	if !hung.Stop() {
		t.Fatalf("hook codex notify still running after 60s: it reads stdin")
	}
	if err != nil || out.Len() != 0 {
		t.Fatalf("hook codex notify: %v, output %q; want exit 0 and nothing", err, out.String())
	}
	s := r.waitAgentRun("codex", codexThread)
	if s.Extract.Result != handler.ExtractRan || s.Extract.Staged != 1 || s.Consolidation.Result != handler.ConsolidationCommitted {
		log := r.read(filepath.Join(".git", "yoimem", "agent", "codex.log"))
		t.Fatalf("%+v; want extract ran (1 staged) and a commit; the log:\n%s", s, log)
	}
	if s.Agent != "codex" || s.Transcript != path {
		t.Errorf("status %+v; want agent codex, transcript %s", s, path)
	}
	reqs := f.got()
	if len(reqs) != 1 || !strings.Contains(string(reqs[0].Body), "What is in this repository?") {
		t.Errorf("%d model calls; want one over the rollout's turns", len(reqs))
	}
}

// TestCodexHookHugeInput: a hook input over the bound is not read past
// it, the reason in the log: a shell command cut off cannot be checked
// and is denied (exit 0, Codex's deny shape).
func TestCodexHookHugeInput(t *testing.T) {
	r := newHookRepo(t)
	payload := append([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"echo `), bytes.Repeat([]byte("x"), 9<<20)...)
	payload = append(payload, ` > .yoi/memory/summary.md"}}`...)
	cmd := r.command("hook", "codex", "pre-tool-use")
	cmd.Stdin = bytes.NewReader(payload)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), `"permissionDecision":"deny"`) {
		t.Errorf("a huge shell command into memory: %v, output %q; want exit 0 and a denial", err, out)
	}
	log := r.read(filepath.Join(".git", "yoimem", "agent", "codex.log"))
	if !strings.Contains(log, "over the limit of 8,388,608 bytes") {
		t.Errorf("the log does not say why:\n%s", log)
	}
}
