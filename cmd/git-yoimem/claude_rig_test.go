package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/agent/claudecode"
	"github.com/yoimem/git-yoimem/agent/handler"
	"github.com/yoimem/git-yoimem/internal/fixture"
	"github.com/yoimem/git-yoimem/internal/lockfile"
	"github.com/yoimem/git-yoimem/internal/quote"
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
	// The hooks' background runs re-execute os.Executable(), which
	// resolves a symbolic link: it must be the copy named git-yoimem that
	// TestMain put on PATH, not the test binary.
	self, err := exec.LookPath("git-yoimem")
	if err != nil {
		t.Skip("git-yoimem is not on PATH (run through TestMain)")
	}
	if err := os.Symlink(self, filepath.Join(r.bin, "git-yoimem")); err != nil {
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

// recorderScript is the hook recorder, run as `record.sh hook claude-code
// <event>` beside our hooks: it saves its input as in/<n>-<event>.json
// and answers nothing, so that our hooks alone decide.
const recorderScript = `#!/bin/sh
set -eu
dir=$YOIMEM_HOOK_DIR
cat >"$dir/in/$(printf %03d "$(ls "$dir/in" | wc -l)")-$3.json"
`

// hookEvent is a Claude Code hook event and the argument its hook runs
// with.
type hookEvent struct{ Name, Arg, Matcher string }

// ourEvents are the events install registers our hooks for.
var ourEvents = []hookEvent{
	{"SessionStart", "session-start", ""},
	{"UserPromptSubmit", "user-prompt-submit", ""},
	{"PreToolUse", "pre-tool-use", claudecode.ToolMatcher},
	{"Stop", "stop", ""},
	{"PreCompact", "pre-compact", ""},
	{"SessionEnd", "session-end", ""},
}

// recordOnly are events we register no hook for, recorded as well.
var recordOnly = []hookEvent{
	{"PostToolUse", "post-tool-use", "*"},
	{"SubagentStop", "subagent-stop", ""},
	{"Notification", "notification", ""},
}

// installHooks sets Claude Code up as a user does, with `git yoimem
// install --agent claude-code` run through the real binary (our hooks in
// .claude/settings.json, `git yoimem mcp` in .mcp.json), then adds the
// hook recorder beside our hooks and on the events we register none for.
func (r *claudeRig) installHooks() {
	r.t.Helper()
	r.yoimem("install", "--agent", "claude-code")
	recorder := r.at("hook", "record.sh")
	if err := os.WriteFile(recorder, []byte(recorderScript), 0o755); err != nil {
		r.t.Fatal(err)
	}
	path := filepath.Join(r.dir, ".claude", "settings.json")
	b, err := os.ReadFile(path)
	if err != nil {
		r.t.Fatal(err)
	}
	var doc map[string]map[string][]any
	if err := json.Unmarshal(b, &doc); err != nil {
		r.t.Fatal(err)
	}
	for _, e := range append(slices.Clone(ourEvents), recordOnly...) {
		group := map[string]any{"hooks": []any{map[string]any{"type": "command", "command": claudecode.HookCommand(recorder, e.Arg)}}}
		if e.Matcher != "" {
			group["matcher"] = e.Matcher
		}
		doc["hooks"][e.Name] = append(doc["hooks"][e.Name], group)
	}
	if b, err = json.MarshalIndent(doc, "", "  "); err != nil {
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

// turnEnding are the hook arguments whose hooks start a background run.
var turnEnding = []string{"stop", "pre-compact", "session-end"}

// waitBackground waits, with a generous deadline (no timing test), until
// every background run our turn-ending hooks started has finished, so
// that none is left writing when the rig's directory goes: each started
// process logs a line for the session (its job's result, or that it left
// the job to the run in progress), and then no run holds the session's
// lock or has a job left. It returns the session's last status.
func (r *claudeRig) waitBackground(session string) handler.Status {
	r.t.Helper()
	events, inputs := r.hookInputs()
	started := 0
	for i, e := range events {
		if slices.Contains(turnEnding, e) && strings.Contains(string(inputs[i]), session) {
			started++
		}
	}
	if started == 0 {
		return handler.Status{}
	}
	dir := filepath.Join(r.dir, ".git", "yoimem", "agent")
	log := handler.LogFile(dir, "claude-code")
	status := handler.StatusFile(dir, "claude-code", session)
	lock := lockfile.New(strings.TrimSuffix(status, ".json") + ".lock")
	prefix := "session " + quote.Value(session) + ": "
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(log)
		logged := 0
		for _, line := range strings.Split(string(b), "\n") {
			if _, rest, ok := strings.Cut(line, prefix); ok && (strings.Contains(rest, ": extract ") || strings.Contains(rest, ": skipped: ")) {
				logged++
			}
		}
		_, pendErr := os.Stat(strings.TrimSuffix(status, ".json") + ".next")
		if s, err := handler.ReadStatus(status); logged >= started && err == nil && !s.FinishedAt.IsZero() && os.IsNotExist(pendErr) {
			if ok, err := lock.TryLock(); err == nil && ok {
				_ = lock.Unlock()
				return s
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	b, _ := os.ReadFile(log)
	r.t.Fatalf("the background runs of session %s (%d started) did not finish in 2 minutes; the log:\n%s", session, started, b)
	return handler.Status{}
}
