//go:build unix

package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/internal/standin"
)

// End-to-end tests with the real Codex CLI (npm @openai/codex), run
// offline: its model provider is internal/standin's Responses API
// stand-in on the loopback interface, HOME and CODEX_HOME are the test's
// own, and nothing needs a key. YOIMEM_CODEX_BIN names the codex binary
// (.ci/run installs it); without it the tests skip, unless
// YOIMEM_REQUIRE_AGENT_CLIS=1 says the agent CLIs must be there.

// codexBinary is the codex binary to test, or skips.
func codexBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("YOIMEM_CODEX_BIN")
	if bin == "" {
		if os.Getenv("YOIMEM_REQUIRE_AGENT_CLIS") == "1" {
			t.Fatal("YOIMEM_REQUIRE_AGENT_CLIS=1 but YOIMEM_CODEX_BIN is not set: install @openai/codex (see .ci/run) and point YOIMEM_CODEX_BIN at its codex")
		}
		t.Skip("YOIMEM_CODEX_BIN not set: the real Codex CLI is not tested")
	}
	if fi, err := os.Stat(bin); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
		t.Fatalf("YOIMEM_CODEX_BIN=%s is not an executable file (%v)", bin, err)
	}
	return bin
}

// codexRun is the real Codex CLI set up to run offline in a repository
// with .yoi/: an isolated HOME and CODEX_HOME and a Responses stand-in as
// its model provider. Tests add to its config.toml (hooks, notify, MCP
// servers) with configure before running it.
type codexRun struct {
	t         *testing.T
	bin       string
	repo      *extractRepo // the repository, and git-yoimem run in it
	home      string       // HOME for codex
	codexHome string       // CODEX_HOME
	server    *standin.ResponsesServer
	env       []string
	flags     []string // before exec's own arguments

	top      []string          // config.toml's top-level keys, as TOML lines
	features map[string]string // its [features] table
	tables   []string          // its other tables, as TOML
}

// newCodexRun starts a stand-in serving turns and writes a config.toml
// that points Codex at it.
func newCodexRun(t *testing.T, turns ...standin.ResponsesTurn) *codexRun {
	t.Helper()
	bin := codexBinary(t)
	repo := newExtractRepo(t)
	if err := os.Remove(repo.path("session.jsonl")); err != nil {
		t.Fatal(err)
	}
	server, err := standin.StartResponses(turns...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { server.Close() })
	home := t.TempDir()
	c := &codexRun{t: t, bin: bin, repo: repo, home: home, codexHome: filepath.Join(home, ".codex"), server: server}
	if err := os.MkdirAll(c.codexHome, 0o755); err != nil {
		t.Fatal(err)
	}
	// git isolated as for git-yoimem; nothing of the caller's Codex; the
	// key Codex insists on is a dummy; any request not to the stand-in
	// goes to a proxy on a loopback port nothing listens on.
	for _, kv := range repo.env {
		k, _, _ := strings.Cut(kv, "=")
		if k == "HOME" || strings.HasPrefix(k, "CODEX_") || strings.EqualFold(k, "NO_PROXY") {
			continue
		}
		c.env = append(c.env, kv)
	}
	const deadProxy = "http://127.0.0.1:9"
	c.env = append(c.env, "HOME="+home, "CODEX_HOME="+c.codexHome, "STANDIN_API_KEY=offline",
		"HTTP_PROXY="+deadProxy, "HTTPS_PROXY="+deadProxy, "ALL_PROXY="+deadProxy, "NO_PROXY=127.0.0.1,localhost")
	// No update check, analytics or plugin marketplace sync (a clone from
	// github.com at startup): offline means offline.
	c.top = []string{`model = "gpt-5.2"`, `model_provider = "standin"`, `check_for_update_on_startup = false`}
	c.features = map[string]string{"plugins": "false"}
	c.configure(fmt.Sprintf(`[model_providers.standin]
name = "standin"
base_url = %q
wire_api = "responses"
env_key = "STANDIN_API_KEY"`, server.URL))
	c.configure("[analytics]\nenabled = false")
	return c
}

// configure adds a TOML table (an MCP server, …) to CODEX_HOME/config.toml
// and writes the file; top-level keys and features go in c.top and
// c.features.
func (c *codexRun) configure(table string) {
	c.t.Helper()
	if table != "" {
		c.tables = append(c.tables, table)
	}
	var b strings.Builder
	for _, line := range c.top {
		b.WriteString(line + "\n")
	}
	for _, t := range c.tables {
		b.WriteString("\n" + t + "\n")
	}
	b.WriteString("\n[features]\n")
	names := make([]string, 0, len(c.features))
	for k := range c.features {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		b.WriteString(k + " = " + c.features[k] + "\n")
	}
	if err := os.WriteFile(filepath.Join(c.codexHome, "config.toml"), []byte(b.String()), 0o644); err != nil {
		c.t.Fatal(err)
	}
}

var codexSessionID = regexp.MustCompile(`(?m)^session id: ([0-9a-f-]{36})$`)

// exec runs 'codex exec ARGS' in the repository to the end and returns
// the session id it names. Codex's own failures fail the test with what
// it printed.
func (c *codexRun) exec(args ...string) (sessionID string) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.bin, append(append([]string{"exec"}, c.flags...), args...)...)
	cmd.Dir, cmd.Env = c.repo.dir, c.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = fmt.Errorf("still running after 3 minutes: %w", err)
		}
		c.t.Fatalf("codex exec %s: %v\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), err, stdout.String(), stderr.String())
	}
	m := codexSessionID.FindStringSubmatch(stderr.String())
	if m == nil {
		c.t.Fatalf("codex exec %s named no session id:\n%s", strings.Join(args, " "), stderr.String())
	}
	return m[1]
}

// rollout is the rollout file of a session: CODEX_HOME/sessions/YYYY/MM/
// DD/rollout-<time>-<id>.jsonl, found by its id.
func (c *codexRun) rollout(sessionID string) string {
	c.t.Helper()
	found, err := filepath.Glob(filepath.Join(c.codexHome, "sessions", "*", "*", "*", "rollout-*-"+sessionID+".jsonl"))
	if err != nil || len(found) != 1 {
		c.t.Fatalf("rollout of session %s under %s: %d found (%v)", sessionID, c.codexHome, len(found), err)
	}
	return found[0]
}

// captureHooks makes Codex run, for each event, a hook that saves its
// stdin to dir/hook-<event>-<n>.json, and a notify program that saves its
// last argument to dir/notify-<n>.json (n counting from 1). Hooks are
// user hooks (CODEX_HOME/hooks.json) and run without review.
func (c *codexRun) captureHooks(dir string, events ...string) {
	c.t.Helper()
	script := filepath.Join(c.home, "capture.sh")
	// $1 names the file; a free number is claimed with mkdir, which is
	// atomic (hooks of one event may run concurrently).
	body := `#!/bin/sh
n=1
while ! mkdir "` + dir + `/.$1-$n" 2>/dev/null; do n=$((n+1)); done
if [ "$1" = notify ]; then shift; for last; do :; done; printf '%s' "$last" >"` + dir + `/notify-$n.json"
else cat >"` + dir + `/hook-$1-$n.json"; fi
`
	if err := os.WriteFile(script, []byte(body), 0o755); err != nil {
		c.t.Fatal(err)
	}
	var hooks []string
	for _, ev := range events {
		hooks = append(hooks, fmt.Sprintf(`%q: [{"hooks": [{"type": "command", "command": %q}]}]`, ev, script+" "+ev))
	}
	hooksJSON := `{"hooks": {` + strings.Join(hooks, ", ") + "}}\n"
	if err := os.WriteFile(filepath.Join(c.codexHome, "hooks.json"), []byte(hooksJSON), 0o644); err != nil {
		c.t.Fatal(err)
	}
	c.top = append(c.top, fmt.Sprintf("notify = [%q, \"notify\"]", script))
	c.features["hooks"] = "true"
	c.configure("")
	c.flags = append(c.flags, "--dangerously-bypass-hook-trust")
}

// captured reads a payload captureHooks saved.
func captured(t *testing.T, dir, name string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatalf("no %s: %v", name, err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("%s: %v\n%s", name, err, b)
	}
	return v
}

// sentPrompt tells whether the n-th request Codex made to the stand-in
// had text as a user message.
func (c *codexRun) sentPrompt(n int, text string) bool {
	c.t.Helper()
	reqs := c.server.Requests()
	if n >= len(reqs) {
		c.t.Fatalf("Codex made %d requests, not %d", len(reqs), n+1)
	}
	msgs, err := reqs[n].Messages()
	if err != nil {
		c.t.Fatal(err)
	}
	for _, m := range msgs {
		if m.Role == "user" && strings.Join(m.Text, "\n") == text {
			return true
		}
	}
	return false
}

// TestCodexRealRollout: a session of two turns with the real Codex CLI (a
// prompt, an answer with a shell call, its output, a final answer; then
// resumed with a second prompt) is read back by extract: each prompt and
// answer once, the shell call, none of what Codex injects.
func TestCodexRealRollout(t *testing.T) {
	c := newCodexRun(t,
		standin.ResponsesTurn{Text: "Let me read the README.", Calls: []standin.ResponsesCall{{Name: "exec_command", Arguments: `{"cmd":"cat README.md","yield_time_ms":1000}`}}},
		standin.ResponsesTurn{Text: "Decision: the README stays the only doc."},
		standin.ResponsesTurn{Text: "Retries back off exponentially, 5 attempts at most."},
	)
	id := c.exec("What does the README say? Read it.")
	if again := c.exec("resume", id, "And how should retries work?"); again != id {
		t.Fatalf("resumed session %s, want %s", again, id)
	}
	if left := c.server.Left(); left != 0 {
		t.Errorf("Codex asked the stand-in %d times; %d scripted turns left", len(c.server.Requests()), left)
	}
	if !c.sentPrompt(0, "What does the README say? Read it.") {
		t.Errorf("Codex's first request to the stand-in does not carry the prompt")
	}
	rollout := c.rollout(id)

	stdout, stderr, code := c.repo.run("extract", "--dry-run", "--log", rollout)
	if code != 0 {
		t.Fatalf("extract --dry-run: exit %d\n%s", code, stderr)
	}
	if !regexp.MustCompile(`entries 1-\d+ of session ` + id + `: \d+ shown`).MatchString(stderr) {
		t.Errorf("extract --dry-run names no range of session %s:\n%s", id, stderr)
	}
	for _, line := range []string{
		"user: What does the README say? Read it.",
		"assistant: Let me read the README.",
		"assistant called exec_command: cat README.md",
		"assistant: Decision: the README stays the only doc.",
		"user: And how should retries work?",
		"assistant: Retries back off exponentially, 5 attempts at most.",
	} {
		if n := strings.Count("\n"+stdout, "\n"+line+"\n"); n != 1 {
			t.Errorf("extract --dry-run shows %q %d times, want once:\n%s", line, n, stdout)
		}
	}
	if !regexp.MustCompile(`(?m)^tool (result|error) \(\d+ bytes\): `).MatchString(stdout) {
		t.Errorf("extract --dry-run shows no tool output:\n%s", stdout)
	}
	for _, injected := range []string{"environment_context", "skills_instructions", "You are a coding agent"} {
		if strings.Contains(stdout, injected) {
			t.Errorf("extract --dry-run shows what Codex injected (%s):\n%s", injected, stdout)
		}
	}
}

// samePath tells whether a payload's path names the file at want, links
// resolved (a temporary directory may be reached through one).
func samePath(got any, want string) bool {
	s, ok := got.(string)
	if !ok {
		return false
	}
	a, err1 := filepath.EvalSymlinks(s)
	b, err2 := filepath.EvalSymlinks(want)
	return err1 == nil && err2 == nil && a == b
}

// TestCodexRealHooks: the real Codex CLI runs user hooks and notify with
// the payloads the agent integration reads: each names the session, and
// transcript_path is the rollout extract reads.
func TestCodexRealHooks(t *testing.T) {
	c := newCodexRun(t, standin.ResponsesTurn{Text: "Noted: tabs, not spaces."})
	dir := t.TempDir()
	c.captureHooks(dir, "SessionStart", "UserPromptSubmit", "Stop")
	id := c.exec("Remember: tabs, not spaces.")
	rollout := c.rollout(id)

	for _, name := range []string{"hook-SessionStart-1.json", "hook-UserPromptSubmit-1.json", "hook-Stop-1.json"} {
		p := captured(t, dir, name)
		if p["session_id"] != id || !samePath(p["transcript_path"], rollout) || !samePath(p["cwd"], c.repo.dir) {
			t.Errorf("%s: session_id %v, transcript_path %v, cwd %v; want %s, %s, %s", name, p["session_id"], p["transcript_path"], p["cwd"], id, rollout, c.repo.dir)
		}
	}
	if p := captured(t, dir, "hook-UserPromptSubmit-1.json"); p["prompt"] != "Remember: tabs, not spaces." {
		t.Errorf("UserPromptSubmit prompt %v", p["prompt"])
	}
	if p := captured(t, dir, "hook-Stop-1.json"); p["last_assistant_message"] != "Noted: tabs, not spaces." {
		t.Errorf("Stop last_assistant_message %v", p["last_assistant_message"])
	}
	n := captured(t, dir, "notify-1.json")
	if n["type"] != "agent-turn-complete" || n["thread-id"] != id || n["last-assistant-message"] != "Noted: tabs, not spaces." {
		t.Errorf("notify payload %v", n)
	}
}
