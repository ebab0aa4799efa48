package handler

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/agent"
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/internal/fixture"
	"github.com/yoimem/git-yoimem/internal/lockfile"
	"github.com/yoimem/git-yoimem/workspace"
)

const session = "00893aaf-19fa-41d2-8238-13269b9b3ca0"

var now = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)

// newWorkspace is a git repository with .yoi/ (git yoimem init's files)
// and the files given, opened as a workspace, in an isolated git.
func newWorkspace(t *testing.T, files map[string]string) *workspace.Workspace {
	t.Helper()
	return newWorkspaceConfig(t, files, nil)
}

// newWorkspaceConfig is newWorkspace with -c KEY=VALUE settings.
func newWorkspaceConfig(t *testing.T, files map[string]string, cfg []string) *workspace.Workspace {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir, home := t.TempDir(), t.TempDir()
	env := fixture.Env(home)
	cmd := exec.Command("git", "init", "-q", dir)
	cmd.Env = env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	getenv := func(k string) string {
		for _, kv := range env {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return ""
	}
	w, err := workspace.Open(context.Background(), workspace.Env{Dir: dir, Getenv: getenv, Environ: func() []string { return env }, Now: func() time.Time { return now }}, workspace.Options{Config: cfg})
	if err != nil {
		t.Fatal(err)
	}
	if files != nil {
		if _, err := w.Init(now); err != nil {
			t.Fatal(err)
		}
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return w
}

func knowledge(desc, body string) string {
	return "---\ndescription: " + desc + "\nmodel_invokation: true\n---\n" + body + "\n"
}

func summary(body string) string { return "---\nupdated: 2026-12-01\n---\n" + body }

// TestSessionStartWithinCap: the always-on context fits the agent's cap:
// descriptions that do not fit are left out whole and named, and only
// those in are recorded as the session's context cost; a summary alone
// over the cap is kept as far as it fits, with a line naming the rest.
func TestSessionStartWithinCap(t *testing.T) {
	const limit = 10000
	many := map[string]string{".yoi/memory/summary.md": summary("We sell tea.\n")}
	for i := range 200 {
		many[fmt.Sprintf(".yoi/knowledge/topic-%03d.md", i)] = knowledge(strings.Repeat("word ", 16)+fmt.Sprint(i), "body")
	}
	long := strings.Repeat("A line of the summary that goes on for a while.\n", 400)
	for _, tc := range []struct {
		name    string
		files   map[string]string
		want    []string // in the text
		recorde bool     // some descriptions recorded
	}{
		{"descriptions left out", many, []string{"We sell tea.", "#topic-000:", "description(s) left out: "}, true},
		{"summary over the cap", map[string]string{".yoi/memory/summary.md": summary(long), ".yoi/knowledge/a.md": knowledge("about a", "a")}, []string{"A line of the summary", "left out to stay within the agent's limit of 10,000 characters", "the rest of the summary and the description of 1 knowledge record (#a)", "git yoimem context"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorkspace(t, tc.files)
			var logged []string
			resp, err := Handle(context.Background(), w, agent.Event{Kind: agent.SessionStart, Name: "SessionStart", Session: session},
				Options{Agent: "claude-code", Cap: limit, Log: func(m string) { logged = append(logged, m) }})
			if err != nil {
				t.Fatal(err)
			}
			text, _ := resp.Context.Fit(limit)
			if agent.Len(text) > limit {
				t.Errorf("context of %d characters, over %d", agent.Len(text), limit)
			}
			for _, want := range tc.want {
				if !strings.Contains(text, want) {
					t.Errorf("context lacks %q:\n%.300s…%s", want, text, text[max(0, len(text)-400):])
				}
			}
			events, _ := os.ReadFile(filepath.Join(w.LocalDir(), "events", session+".jsonl"))
			n := strings.Count(string(events), `"how":"inject"`)
			if tc.recorde && (n == 0 || n >= 200 || strings.Count(text, "\n- #topic-") != n) {
				t.Errorf("%d injections recorded for %d descriptions in the context", n, strings.Count(text, "\n- #topic-"))
			}
			if !tc.recorde && n != 0 {
				t.Errorf("%d injections recorded for a cut context", n)
			}
		})
	}
}

// TestHandleNeverBlocks: without .yoi/ every event but PreTool is
// answered with nothing and ErrNoYoi (for the log); PreTool still guards
// memory; a prompt with no #slug is answered before any file is read.
func TestHandleNeverBlocks(t *testing.T) {
	w := newWorkspace(t, nil)
	for _, ev := range []agent.Event{
		{Kind: agent.SessionStart, Name: "SessionStart"},
		{Kind: agent.UserPrompt, Name: "UserPromptSubmit", Prompt: "see #retry"},
		{Kind: agent.Stop, Name: "Stop", LogPath: "/nonexistent"},
	} {
		resp, err := Handle(context.Background(), w, ev, Options{Agent: "claude-code"})
		if !empty(resp) || err == nil || !strings.Contains(err.Error(), "no .yoi/") {
			t.Errorf("%s without .yoi/: %+v, %v; want nothing and ErrNoYoi", ev.Name, resp, err)
		}
	}
	resp, err := Handle(context.Background(), w, agent.Event{Kind: agent.UserPrompt, Name: "UserPromptSubmit", Prompt: "plain words"}, Options{})
	if !empty(resp) || err != nil {
		t.Errorf("a prompt with no #slug: %+v, %v; want nothing, no error", resp, err)
	}
	resp, _ = Handle(context.Background(), w, agent.Event{Kind: agent.PreTool, Name: "PreToolUse", Tool: "Write", Cwd: w.Root,
		ToolInput: []byte(`{"file_path":".yoi/memory/summary.md"}`)}, Options{})
	if !resp.Deny {
		t.Errorf("a Write into .yoi/memory without .yoi/: %+v; want denied", resp)
	}
	resp, err = Handle(context.Background(), w, agent.Event{Kind: agent.Unknown, Name: "Notification"}, Options{})
	if !empty(resp) || err != nil {
		t.Errorf("an unknown event: %+v, %v; want nothing", resp, err)
	}
}

// TestStartRun: the turn-ending events start a job; PreCompact's is
// bounded at the transcript's size at the event; a missing transcript
// starts none and says so.
func TestStartRun(t *testing.T) {
	w := newWorkspace(t, map[string]string{})
	tr := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(tr, []byte("{\"type\":\"user\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		kind      agent.Kind
		log       string
		wantUntil int64
		wantJob   bool
	}{
		{agent.Stop, tr, 0, true},
		{agent.SessionEnd, tr, 0, true},
		{agent.PreCompact, tr, 16, true},
		{agent.Stop, tr + ".missing", 0, false},
	} {
		var jobs []Job
		o := Options{Agent: "claude-code", Spawn: func(j Job) error { jobs = append(jobs, j); return nil }}
		resp, err := Handle(context.Background(), w, agent.Event{Kind: tc.kind, Name: string(tc.kind), Session: session, LogPath: tc.log}, o)
		if !empty(resp) {
			t.Errorf("%s answered %+v; want nothing", tc.kind, resp)
		}
		if !tc.wantJob {
			if len(jobs) != 0 || err == nil || !strings.Contains(err.Error(), "nothing to extract") {
				t.Errorf("%s with no transcript: jobs %+v, %v", tc.kind, jobs, err)
			}
			continue
		}
		if err != nil || len(jobs) != 1 || jobs[0].Until != tc.wantUntil || jobs[0].Transcript != tc.log || jobs[0].Session != session || jobs[0].Agent != "claude-code" {
			t.Errorf("%s: jobs %+v, %v; want one bounded at %d", tc.kind, jobs, err, tc.wantUntil)
		}
	}
}

func TestJobArgs(t *testing.T) {
	for _, j := range []Job{
		{Agent: "claude-code", Event: "Stop", Session: session, Transcript: "/t/x.jsonl"},
		{Agent: "claude-code", Event: "PreCompact", Session: "-odd id", Transcript: "-x y.jsonl", Until: 12345},
	} {
		args := j.Args()
		if args[2] != BackgroundArg || args[3] != "--" {
			t.Fatalf("args %q", args)
		}
		got, err := ParseJob(j.Agent, args[4:])
		if err != nil || got != j {
			t.Errorf("ParseJob(Args(%+v)) = %+v, %v", j, got, err)
		}
	}
	for _, bad := range [][]string{{"Stop", "s", "t"}, {"Stop", "s", "t", "-1"}, {"Stop", "s", "t", "x"}, {"Stop", "", "t", "0"}} {
		if _, err := ParseJob("claude-code", bad); err == nil {
			t.Errorf("ParseJob(%q): no error", bad)
		}
	}
}

// TestRunOnePerSession: a trigger while a run holds the session's lock is
// skipped, said in the log, and its job left for the holder; the next
// run takes it. Each run writes the status file doctor reads.
func TestRunOnePerSession(t *testing.T) {
	w := newWorkspace(t, map[string]string{})
	dir := StateDir(w)
	var logged []string
	o := RunOptions{Format: "claude-code", MaxRuns: 1, Now: func() time.Time { return now }, Log: func(m string) { logged = append(logged, m) }}
	held := lockfile.New(filepath.Join(runsDir(dir, "claude-code"), session+".lock"))
	if err := os.MkdirAll(runsDir(dir, "claude-code"), 0o755); err != nil {
		t.Fatal(err)
	}
	if ok, err := held.TryLock(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	job := Job{Agent: "claude-code", Event: "Stop", Session: session, Transcript: filepath.Join(w.Root, "missing.jsonl")}
	if err := Run(context.Background(), w, job, o); err != nil {
		t.Fatal(err)
	}
	if len(logged) != 1 || !strings.Contains(logged[0], "skipped") {
		t.Errorf("log %q; want the trigger skipped", logged)
	}
	if _, err := os.Stat(StatusFile(dir, "claude-code", session)); !os.IsNotExist(err) {
		t.Errorf("a skipped trigger wrote the status file (%v)", err)
	}
	if _, err := os.Stat(pendingFile(dir, "claude-code", session)); err != nil {
		t.Errorf("the skipped trigger's job is not left for the holder: %v", err)
	}
	_ = held.Unlock()
	logged = nil
	job.Event = "SessionEnd"
	if err := Run(context.Background(), w, job, o); err != nil {
		t.Fatal(err)
	}
	runs, err := LastRuns(dir)
	if err != nil || len(runs) != 1 {
		t.Fatalf("LastRuns = %+v, %v", runs, err)
	}
	s := runs[0]
	if s.Event != "SessionEnd" || s.SessionID != session || s.Agent != "claude-code" || s.FinishedAt.IsZero() ||
		s.Extract.Result != ExtractFailed || !strings.Contains(s.Extract.Error, "missing.jsonl") || s.Consolidation.Result != ConsolidationNotDue ||
		s.LogPath != LogFile(dir, "claude-code") {
		t.Errorf("status %+v", s)
	}
	if _, err := os.Stat(pendingFile(dir, "claude-code", session)); !os.IsNotExist(err) {
		t.Errorf("the job is still pending after the run: %v", err)
	}
}

func TestLastRuns(t *testing.T) {
	dir := t.TempDir()
	if runs, err := LastRuns(dir); err != nil || len(runs) != 0 {
		t.Errorf("no runs: %+v, %v", runs, err)
	}
	for i, id := range []string{"a", "b"} {
		s := Status{Agent: "claude-code", SessionID: id, StartedAt: now.Add(time.Duration(i) * time.Minute)}
		if err := writeStatus(StatusFile(dir, "claude-code", id), s, nil); err != nil {
			t.Fatal(err)
		}
	}
	bad := StatusFile(dir, "codex", "c")
	if err := os.MkdirAll(filepath.Dir(bad), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bad, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	runs, err := LastRuns(dir)
	if len(runs) != 2 || runs[0].SessionID != "b" || runs[1].SessionID != "a" {
		t.Errorf("runs %+v; want b then a", runs)
	}
	if err == nil || !strings.Contains(err.Error(), bad) {
		t.Errorf("error %v; want the bad file named", err)
	}
	b, _ := os.ReadFile(StatusFile(dir, "claude-code", "a"))
	for _, key := range []string{`"agent"`, `"session_id"`, `"log_path"`, `"started_at"`, `"extract"`, `"consolidation"`} {
		if !strings.Contains(string(b), key) {
			t.Errorf("status file lacks %s:\n%s", key, b)
		}
	}
}

func TestOpenLogRotates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "agent", "claude-code.log")
	Logf(path, 100, nil, now, session, "%s", strings.Repeat("x", 120))
	Logf(path, 100, nil, now, session, "second")
	cur, _ := os.ReadFile(path)
	old, _ := os.ReadFile(path + ".1")
	if !strings.Contains(string(cur), "second") || strings.Contains(string(cur), "xxx") || !strings.Contains(string(old), "xxx") {
		t.Errorf("after rotation: log %q, .1 %q", cur, old)
	}
}

func TestFileName(t *testing.T) {
	for in, want := range map[string]string{session: session, "a.b_c-d": "a.b_c-d"} {
		if got := fileName(in); got != want {
			t.Errorf("fileName(%q) = %q", in, got)
		}
	}
	for _, in := range []string{"", "../x", "-a", "a/b", strings.Repeat("a", 129), "a\nb"} {
		if got := fileName(in); !strings.HasPrefix(got, "sha256-") {
			t.Errorf("fileName(%q) = %q; want a digest", in, got)
		}
	}
}

func empty(r agent.Response) bool {
	return r.Context.Empty() && !r.Deny && !r.Block && r.Reason == "" && r.Message == ""
}

// TestRunExtractInFlight: a manual extract of the session holding its
// lock: the background run's extract is skipped, said in the status file.
func TestRunExtractInFlight(t *testing.T) {
	w := newWorkspace(t, map[string]string{})
	tr := filepath.Join(t.TempDir(), session+".jsonl")
	line := `{"type":"user","uuid":"u-1","sessionId":"` + session + `","timestamp":"2026-12-01T10:00:00.000Z","message":{"role":"user","content":"hello"}}` + "\n"
	if err := os.WriteFile(tr, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	log, err := extract.OpenLog(tr, "claude-code")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(w.ExtractStateDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	held := lockfile.New(filepath.Join(w.ExtractStateDir(), log.Key()+".lock"))
	if ok, err := held.TryLock(); !ok || err != nil {
		t.Fatal(ok, err)
	}
	defer held.Unlock()
	job := Job{Agent: "claude-code", Event: "Stop", Session: session, Transcript: tr}
	if err := Run(context.Background(), w, job, RunOptions{Format: "claude-code", MaxRuns: 1}); err != nil {
		t.Fatal(err)
	}
	s, err := ReadStatus(StatusFile(StateDir(w), "claude-code", session))
	if err != nil || s.Extract.Result != ExtractSkip || !strings.Contains(s.Extract.Error, "already running") {
		t.Errorf("status %+v, %v; want extract skipped", s, err)
	}
}
