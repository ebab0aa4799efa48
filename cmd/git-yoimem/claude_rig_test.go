package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/agent/claudecode"
	"github.com/yoimem/git-yoimem/internal/fixture"
	"github.com/yoimem/git-yoimem/internal/standin"
)

// The real Claude Code CLI, run offline: its model is a local scripted
// Messages API (internal/standin), its HOME a temporary directory, and any
// request it tried to make past the loopback would go to the stand-in as a
// proxy request and fail the test.

const (
	claudeBinEnv  = "YOIMEM_CLAUDE_BIN"         // the claude executable
	requireCLIEnv = "YOIMEM_REQUIRE_AGENT_CLIS" // "1": a missing CLI fails instead of skipping
	claudeRunTime = 2 * time.Minute             // one claude command, at most
)

// claudeBin is the claude executable to test, or the test skips (fails
// when the agent CLIs are required, as in CI).
func claudeBin(t *testing.T) string {
	t.Helper()
	bin := os.Getenv(claudeBinEnv)
	if bin == "" {
		if os.Getenv(requireCLIEnv) == "1" {
			t.Fatalf("%s is not set and %s=1: install Claude Code (see .ci/run) and point %s at its claude", claudeBinEnv, requireCLIEnv, claudeBinEnv)
		}
		t.Skipf("%s is not set: the real Claude Code CLI is not tested", claudeBinEnv)
	}
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	return bin
}

// claudeRig is a repository with a .yoi/ memory, an isolated HOME, the
// Messages stand-in and the hook stand-in, for claude runs:
//
//	root/home   HOME (claude writes ~/.claude.json and ~/.claude/ here)
//	root/repo   the repository, claude's working directory
//	root/bin    git-yoimem (this test binary), first on PATH
//	root/hook   the hook stand-in: hook.sh, in/ (inputs), answer/
type claudeRig struct {
	t                    *testing.T
	claude               string
	root, home, dir, bin string
	api                  *standin.Messages
	env                  []string
}

// newClaudeRig makes the rig; its stand-in has no turns until the test
// scripts them (r.api.Script).
func newClaudeRig(t *testing.T) *claudeRig {
	t.Helper()
	r := &claudeRig{t: t, claude: claudeBin(t), root: t.TempDir()}
	r.home, r.dir, r.bin = r.at("home"), r.at("repo"), r.at("bin")
	for _, d := range []string{r.home, r.dir, r.bin, r.at("hook", "in"), r.at("hook", "answer")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(os.Args[0], filepath.Join(r.bin, "git-yoimem")); err != nil {
		t.Fatal(err)
	}
	r.api = standin.NewMessages(standin.Options{})
	t.Cleanup(r.api.Close)
	r.env = r.environment()
	r.git("init", "-q", "-b", "main")
	r.yoimem("init", "--no-hooks")
	r.write(".yoi/memory/summary.md", "---\nupdated_at: 2026-01-05T09:30:00Z\n---\n# shop\nRun make test before a commit.\n")
	r.write(".yoi/knowledge/retry.md", "---\nkind: rule\ndescription: how the payment client retries\nmodel_invokation: true\nuser_invocable: true\ncreated_at: 2026-01-05T09:30:00Z\nupdated_at: 2026-01-05T09:30:00Z\nlast_sources: []\n---\nRetry twice with jitter.\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "memory")
	return r
}

func (r *claudeRig) at(elem ...string) string {
	return filepath.Join(append([]string{r.root}, elem...)...)
}

// environment is claude's: isolated git and HOME, no key but a dummy, the
// stand-in as the API and as the proxy for anything else, no updater, no
// telemetry, no error reports, nothing nonessential.
func (r *claudeRig) environment() []string {
	var env []string
	for _, kv := range fixture.Env(r.home) {
		k, _, _ := strings.Cut(kv, "=")
		switch {
		case strings.HasPrefix(k, "ANTHROPIC_"), strings.HasPrefix(k, "CLAUDE_"), strings.HasPrefix(k, "YOIMEM_"),
			strings.HasSuffix(strings.ToUpper(k), "_PROXY"), k == "PATH":
			continue
		}
		env = append(env, kv)
	}
	proxy := r.api.URL // a request past the loopback reaches the stand-in, which fails it
	return append(env,
		"PATH="+r.bin+string(os.PathListSeparator)+os.Getenv("PATH"),
		"ANTHROPIC_BASE_URL="+r.api.URL, "ANTHROPIC_API_KEY=test",
		"DISABLE_AUTOUPDATER=1", "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_TELEMETRY=1",
		"DISABLE_ERROR_REPORTING=1", "DISABLE_BUG_COMMAND=1",
		"HTTPS_PROXY="+proxy, "HTTP_PROXY="+proxy, "NO_PROXY=127.0.0.1,localhost",
		"YOIMEM_HOOK_DIR="+r.at("hook"),
	)
}

func (r *claudeRig) write(name, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// exec runs a program in the repository with the rig's environment,
// bounded, and returns its output and exit status.
func (r *claudeRig) exec(name string, args ...string) (stdout, stderr string, code int) {
	r.t.Helper()
	return r.execIn(r.dir, nil, name, args...)
}

// execIn runs a program in dir with the rig's environment and stdin,
// bounded.
func (r *claudeRig) execIn(dir string, stdin []byte, name string, args ...string) (stdout, stderr string, code int) {
	r.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), claudeRunTime)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env = dir, r.env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.WaitDelay = 5 * time.Second // a hook's child holding the pipes open must not hang the test
	err := cmd.Run()
	if ctx.Err() != nil {
		r.t.Fatalf("%s %s: still running after %v\n%s%s", name, strings.Join(args, " "), claudeRunTime, out.String(), errb.String())
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		r.t.Fatalf("%s: %v", name, err)
	}
	return out.String(), errb.String(), code
}

func (r *claudeRig) mustExec(name string, args ...string) string {
	r.t.Helper()
	stdout, stderr, code := r.exec(name, args...)
	if code != 0 {
		r.t.Fatalf("%s %s: exit %d\n%s%s", filepath.Base(name), strings.Join(args, " "), code, stdout, stderr)
	}
	return stdout
}

func (r *claudeRig) git(args ...string) string { return r.mustExec("git", args...) }

func (r *claudeRig) yoimem(args ...string) string {
	return r.mustExec(filepath.Join(r.bin, "git-yoimem"), args...)
}

// claudeResult is what `claude -p --output-format json` prints.
type claudeResult struct {
	Type      string `json:"type"`
	IsError   bool   `json:"is_error"`
	Result    string `json:"result"`
	SessionID string `json:"session_id"`
}

// prompt runs `claude -p` with the prompt and extra flags and returns its
// result; a failed run fails the test.
func (r *claudeRig) prompt(prompt string, flags ...string) claudeResult {
	r.t.Helper()
	args := append([]string{"-p", prompt, "--output-format", "json"}, flags...)
	stdout := r.mustExec(r.claude, args...)
	var res claudeResult
	if err := json.Unmarshal([]byte(stdout), &res); err != nil || res.SessionID == "" {
		r.t.Fatalf("claude -p printed no result (%v):\n%s", err, stdout)
	}
	if res.IsError {
		r.t.Fatalf("claude -p: an error result: %s", stdout)
	}
	return res
}

// transcript is the path of the session's transcript, which claude
// writes under ~/.claude/projects/<project>/<session>.jsonl.
func (r *claudeRig) transcript(session string) string {
	r.t.Helper()
	found, err := filepath.Glob(filepath.Join(r.home, ".claude", "projects", "*", session+".jsonl"))
	if err != nil || len(found) != 1 {
		r.t.Fatalf("the transcript of session %s: found %v (%v)", session, found, err)
	}
	return found[0]
}

// hookScript is the hook stand-in, run as `hook.sh hook claude-code
// <event>` (the command line of our hooks): it saves its input as
// in/<n>-<event>.json and prints answer/<event>.json if there is one;
// for pre-tool-use, answer/pre-tool-use-deny.json when the input names a
// path in .yoi/memory or .yoi/knowledge.
const hookScript = `#!/bin/sh
set -eu
dir=$YOIMEM_HOOK_DIR
in=$dir/in/$(printf %03d "$(ls "$dir/in" | wc -l)")-$3.json
cat >"$in"
if [ "$3" = pre-tool-use ] && grep -Eq '/\.yoi/(memory|knowledge)/' "$in"; then
	cat "$dir/answer/pre-tool-use-deny.json"
elif [ -f "$dir/answer/$3.json" ]; then
	cat "$dir/answer/$3.json"
fi
`

// recordOnly are events we register no hook for, recorded as well.
var recordOnly = []struct{ Name, Arg, Matcher string }{
	{"PostToolUse", "post-tool-use", "*"},
	{"SubagentStop", "subagent-stop", ""},
	{"Notification", "notification", ""},
}

// hookStandIn writes the hook stand-in and the answers it gives per
// event argument (the bytes of claudecode.Encode), and returns the
// command that runs it in git-yoimem's place.
func (r *claudeRig) hookStandIn(answers map[string][]byte) string {
	r.t.Helper()
	script := r.at("hook", "hook.sh")
	if err := os.WriteFile(script, []byte(hookScript), 0o755); err != nil {
		r.t.Fatal(err)
	}
	for name, b := range answers {
		if err := os.WriteFile(r.at("hook", "answer", name+".json"), b, 0o644); err != nil {
			r.t.Fatal(err)
		}
	}
	return script
}

// installHooks writes .claude/settings.json as install does
// (claudecode.MergeSettings) with command running the hooks — the hook
// stand-in now; git-yoimem itself (r.bin/git-yoimem) once `git yoimem
// hook claude-code` exists — plus the stand-in recording the events we
// register no hook for.
func (r *claudeRig) installHooks(command string) {
	r.t.Helper()
	settings, err := claudecode.MergeSettings([]byte("{}\n"), claudecode.SettingsOptions{Command: command})
	if err != nil {
		r.t.Fatal(err)
	}
	var doc map[string]map[string][]any
	if err := json.Unmarshal(settings, &doc); err != nil {
		r.t.Fatal(err)
	}
	for _, e := range recordOnly {
		group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": claudecode.HookCommand(r.at("hook", "hook.sh"), e.Arg)}}}
		if e.Matcher != "" {
			group["matcher"] = e.Matcher
		}
		doc["hooks"][e.Name] = []any{group}
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		r.t.Fatal(err)
	}
	r.write(".claude/settings.json", string(b)+"\n")
}

// installUserHooks writes ~/.claude/settings.json as `install --agent
// claude-code --scope user` would: our hooks, run by command, for every
// session of the user, in any directory.
func (r *claudeRig) installUserHooks(command string) {
	r.t.Helper()
	settings, err := claudecode.MergeSettings([]byte("{}\n"), claudecode.SettingsOptions{Command: command})
	if err != nil {
		r.t.Fatal(err)
	}
	user := filepath.Join(r.home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(user), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(user, settings, 0o644); err != nil {
		r.t.Fatal(err)
	}
}

// hookInputs are the hook inputs saved so far, in order, with the event
// argument each was run with.
func (r *claudeRig) hookInputs() (events []string, inputs [][]byte) {
	r.t.Helper()
	names, err := filepath.Glob(r.at("hook", "in", "*.json"))
	if err != nil {
		r.t.Fatal(err)
	}
	for _, n := range names { // Glob sorts; the numbers keep the order
		b, err := os.ReadFile(n)
		if err != nil {
			r.t.Fatal(err)
		}
		_, event, _ := strings.Cut(strings.TrimSuffix(filepath.Base(n), ".json"), "-")
		events, inputs = append(events, event), append(inputs, b)
	}
	return events, inputs
}

// registerMCP writes .mcp.json as install does (claudecode.MergeMCP):
// `git yoimem mcp`, read-only.
func (r *claudeRig) registerMCP() {
	r.t.Helper()
	b, err := claudecode.MergeMCP([]byte("{}\n"), false)
	if err != nil {
		r.t.Fatal(err)
	}
	r.write(".mcp.json", string(b))
}

// approveProjectMCP approves the project's MCP servers (.mcp.json) in
// the user's settings, as a user does at claude's first interactive
// start; claude starts no unapproved project server (`claude mcp list`
// shows it pending) and takes no approval from the project's own
// settings.
func (r *claudeRig) approveProjectMCP() {
	r.t.Helper()
	user := filepath.Join(r.home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(user), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(user, []byte(`{"enableAllProjectMcpServers": true}`+"\n"), 0o644); err != nil {
		r.t.Fatal(err)
	}
}
