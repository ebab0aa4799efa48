//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/agent/handler"
)

// End-to-end tests of `git yoimem hook claude-code <event>` with the real
// binary, the real git and a local Messages API: the background run the
// turn-ending hooks start, and inputs a script cannot make.

const hookSession = "00893aaf-19fa-41d2-8238-13269b9b3ca0"

// hookRepo is an extractRepo whose binary is the copy testscript put on
// PATH: the background run re-executes os.Executable(), which must be
// named git-yoimem (a symbolic link resolves to the test binary).
func newHookRepo(t *testing.T, extraEnv ...string) *extractRepo {
	t.Helper()
	r := newExtractRepo(t, extraEnv...)
	bin, err := exec.LookPath("git-yoimem")
	if err != nil {
		t.Skip("git-yoimem is not on PATH (run through TestMain)")
	}
	r.bin = bin
	return r
}

// hook runs a hook with its payload on stdin; it must exit 0.
func (r *extractRepo) hook(event string, payload []byte) (stdout, stderr string) {
	r.t.Helper()
	cmd := r.command("hook", "claude-code", event)
	cmd.Stdin = bytes.NewReader(payload)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		r.t.Fatalf("hook claude-code %s: %v\n%s%s", event, err, out.String(), errb.String())
	}
	return out.String(), errb.String()
}

func hookPayload(event, transcript, cwd string) []byte {
	b, _ := json.Marshal(map[string]any{"session_id": hookSession, "transcript_path": transcript, "cwd": cwd, "hook_event_name": event, "trigger": "auto"})
	return b
}

// ccTurn is one Claude Code turn: the user's prompt and the answer, with
// the input tokens of its API call.
func ccTurn(n int, prompt, answer string, tokens int) string {
	common := fmt.Sprintf(`"sessionId":%q,"cwd":"/w","version":"2.1.222","timestamp":"2026-12-01T10:%02d:00.000Z"`, hookSession, n)
	user := fmt.Sprintf(`{"type":"user","uuid":"u-%d",%s,"message":{"role":"user","content":%q}}`, n, common, prompt)
	asst := fmt.Sprintf(`{"type":"assistant","uuid":"a-%d","requestId":"req_%d",%s,"message":{"model":"claude-opus-4-5","id":"msg_%d","type":"message","role":"assistant","content":[{"type":"text","text":%q}],"stop_reason":"end_turn","usage":{"input_tokens":%d,"output_tokens":20}}}`, n, n, common, n, answer, tokens)
	return user + "\n" + asst + "\n"
}

func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

// waitRun waits for the session's background run to finish (its status
// file, removed before the trigger, written with finished_at), with a
// generous deadline: this is no timing test.
func (r *extractRepo) waitRun() handler.Status {
	r.t.Helper()
	path := handler.StatusFile(filepath.Join(r.dir, ".git", "yoimem", "agent"), "claude-code", hookSession)
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if s, err := handler.ReadStatus(path); err == nil && !s.FinishedAt.IsZero() {
			_ = os.Remove(path)
			return s
		}
		time.Sleep(20 * time.Millisecond)
	}
	log, _ := os.ReadFile(filepath.Join(r.dir, ".git", "yoimem", "agent", "claude-code.log"))
	r.t.Fatalf("no finished background run after 60s; the log:\n%s", log)
	return handler.Status{}
}

// activityAnswer is a Messages API answer with an extract activity: a
// decision, and an attempt (the rules engine puts it in the summary's
// recent work, which the always-on context shows).
func activityAnswer(topic, chosen string) fakeResponse {
	activity := fmt.Sprintf(`{"decisions":[{"topic":%q,"options":[%q,"something else"],"chosen":%q,"rationale":"the user asked for it"}],"discussions":[],"attempts":[{"what":"switched to %s","result":"tests pass","success":true}],"requests":[]}`, topic, chosen, chosen, chosen)
	return fakeResponse{200, `{"id":"msg_01X","type":"message","role":"assistant","model":"claude-haiku-4-5","content":[{"type":"tool_use","id":"toolu_01A","name":"session_activity","input":` +
		activity + `}],"stop_reason":"tool_use","stop_sequence":null,"usage":{"input_tokens":120,"output_tokens":80}}`}
}

// TestClaudeCodeHooksEndToEnd: a Claude Code-shaped transcript grows turn
// by turn; the Stop hook answers at once with nothing, and its background
// run extracts once the threshold is passed (a local Messages API) and
// consolidates into a memory-branch commit; after `git yoimem merge` the
// next SessionStart shows the new memory. A PreCompact's run covers the
// transcript as it was at the event: a turn appended after it waits for
// the next Stop.
func TestClaudeCodeHooksEndToEnd(t *testing.T) {
	r := newHookRepo(t, "ANTHROPIC_API_KEY=sk-ant-test-0123456789")
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
	// the sample has lint errors on purpose; a consolidation commits only
	// a memory without any
	r.git("rm", "-q", ".yoi/memory/decisions/structured-logging.md", ".yoi/memory/decisions/json-logs.md", ".yoi/memory/requests/checkout-retries.md")
	r.git("commit", "-qm", "memory without lint errors")
	transcript := filepath.Join(t.TempDir(), hookSession+".jsonl")
	stop := hookPayload("Stop", transcript, r.dir)

	// turn 1: below the threshold; nothing asked of the model
	appendFile(t, transcript, ccTurn(1, "what does the checkout do?", "It charges the card.", 6000))
	if stdout, stderr := r.hook("stop", stop); stdout != "" || stderr != "" {
		t.Errorf("Stop printed %q %q; want nothing", stdout, stderr)
	}
	s := r.waitRun()
	if s.Extract.Result != handler.ExtractNotDue || s.Consolidation.Result != handler.ConsolidationNotDue || len(f.got()) != 0 {
		t.Fatalf("turn 1: %+v, %d model calls; want nothing due", s, len(f.got()))
	}

	// turn 2: the threshold passed: extract, then a consolidation commit
	appendFile(t, transcript, ccTurn(2, "keep payments in postgres, not sqlite", "Noted: payments move to Postgres.", 6000))
	f.answer(activityAnswer("payments database", "postgres for payments"))
	r.hook("stop", stop)
	s = r.waitRun()
	if s.Extract.Result != handler.ExtractRan || s.Extract.Staged != 1 || s.Consolidation.Result != handler.ConsolidationCommitted || s.Consolidation.Commit == "" {
		t.Fatalf("turn 2: %+v; want extract ran (1 staged) and a commit", s)
	}
	if got := strings.TrimSpace(r.git("rev-parse", "yoimem/memory")); !strings.HasPrefix(got, s.Consolidation.Commit) && !strings.HasPrefix(s.Consolidation.Commit, got) {
		t.Errorf("memory branch at %s; the status names %s", got, s.Consolidation.Commit)
	}
	if s.Agent != "claude-code" || s.SessionID != hookSession || s.Transcript != transcript || s.LogPath == "" {
		t.Errorf("status %+v", s)
	}

	// merge, and the next session starts knowing it
	r.mustRun("merge")
	stdout, _ := r.hook("session-start", hookPayload("SessionStart", transcript, r.dir))
	var out struct {
		Specific struct {
			Context string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("SessionStart output %q: %v", stdout, err)
	}
	if !strings.Contains(strings.ToLower(out.Specific.Context), "postgres") {
		t.Errorf("the next SessionStart does not show the new memory:\n%s", out.Specific.Context)
	}

	// PreCompact: the run covers turn 3, not turn 4 appended after the event
	appendFile(t, transcript, ccTurn(3, "use stripe webhooks for refunds", "Refunds will come from Stripe webhooks.", 12000))
	f.answer(activityAnswer("refund source", "stripe webhooks"))
	r.hook("pre-compact", hookPayload("PreCompact", transcript, r.dir))
	appendFile(t, transcript, ccTurn(4, "log every refund as JSON", "Refunds are logged as JSON.", 12000))
	s = r.waitRun()
	reqs := f.got()
	if s.Extract.Result != handler.ExtractRan || s.Until == 0 || len(reqs) != 1 {
		t.Fatalf("PreCompact: %+v, %d model calls; want one bounded run", s, len(reqs))
	}
	if body := string(reqs[0].Body); !strings.Contains(body, "stripe webhooks for refunds") || strings.Contains(body, "log every refund as JSON") {
		t.Errorf("the PreCompact run's request does not cover exactly the turn before the event:\n%.3000s", body)
	}
	f.answer(activityAnswer("refund logs", "json"))
	r.hook("stop", stop)
	s = r.waitRun()
	reqs = f.got()
	if s.Extract.Result != handler.ExtractRan || len(reqs) != 1 {
		t.Fatalf("the Stop after the compaction: %+v, %d model calls", s, len(reqs))
	}
	if body := string(reqs[0].Body); !strings.Contains(body, "log every refund as JSON") || strings.Contains(body, "stripe webhooks for refunds") {
		t.Errorf("the Stop after the compaction does not cover exactly the rest:\n%.3000s", body)
	}
}

// TestClaudeCodeHookHugeInput: a hook input over the bound is not read
// past it, the reason in the log: a tool call is judged from what came
// before the cut (a Write into memory denied by its path), any other
// event answered with nothing and exit 0.
func TestClaudeCodeHookHugeInput(t *testing.T) {
	r := newHookRepo(t)
	payload := append([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Write","tool_input":{"file_path":".yoi/memory/x.md","content":"`), bytes.Repeat([]byte("x"), 9<<20)...)
	payload = append(payload, `"}}`...)
	stdout, stderr := r.hook("pre-tool-use", payload)
	if !strings.Contains(stdout, `"permissionDecision":"deny"`) || stderr != "" {
		t.Errorf("a huge Write into memory: stdout %q, stderr %q; want a denial", stdout, stderr)
	}
	prompt := append([]byte(`{"hook_event_name":"UserPromptSubmit","prompt":"`), bytes.Repeat([]byte("x"), 9<<20)...)
	prompt = append(prompt, `"}`...)
	if stdout, stderr := r.hook("user-prompt-submit", prompt); stdout != "" || stderr != "" {
		t.Errorf("a huge prompt: stdout %q, stderr %q; want nothing", stdout, stderr)
	}
	log := r.read(filepath.Join(".git", "yoimem", "agent", "claude-code.log"))
	if !strings.Contains(log, "over the limit of 8,388,608 bytes") {
		t.Errorf("the log does not say why:\n%s", log)
	}
}
