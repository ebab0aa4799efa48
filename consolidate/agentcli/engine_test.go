package agentcli

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/consolidate/agent"
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/internal/agentstub"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/mcp"
	"github.com/yoimem/git-yoimem/record"
)

// The test binary is also the agent CLI's stand-in (-agentstub) and the
// server it starts, git yoimem mcp --run (-runserver RUNS mcp --run ID).
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "-agentstub":
			os.Exit(agentstub.Main(os.Args[2:], os.Stdin, os.Stdout, os.Stderr))
		case "-runserver":
			os.Exit(runServer(os.Args[2], os.Args[len(os.Args)-1]))
		}
	}
	os.Exit(m.Run())
}

// runServer is git yoimem mcp --run as the command wires it.
func runServer(runs, runID string) int {
	c, err := Attach(context.Background(), runs, runID, os.Getenv(EnvToken))
	if err != nil {
		os.Stderr.WriteString("git-yoimem: error: " + err.Error() + "\n")
		return 1
	}
	if err := Relay(context.Background(), c, os.Stdin, os.Stdout); err != nil {
		return 2
	}
	return 0
}

func serve(ctx context.Context, rw io.ReadWriteCloser, v *agent.Served) error {
	var tools []mcp.RunTool
	for _, t := range v.Tools() {
		tools = append(tools, mcp.RunTool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
	}
	call := func(ctx context.Context, name string, in json.RawMessage) (string, bool, error) {
		r, err := v.Call(ctx, name, in)
		return r.Content, r.IsError, err
	}
	return mcp.ServeConn(ctx, mcp.NewRunServer(tools, call, mcp.Options{}), rw, 0, io.Discard)
}

const runID = "019ad5e1-0000-7000-8000-00000000run1"

var baseFiles = map[string][]byte{
	"memory/summary.md":              []byte("---\nupdated_at: 2026-01-02T03:04:05Z\n---\n# tinyshop\n\nGo HTTP service.\n"),
	"memory/decisions/use-sqlite.md": []byte("---\ncreated_at: 2025-12-01T10:00:00Z\nupdated_at: 2025-12-03T16:20:00Z\nstatus: resolved\nsources:\n  - {session_id: s0, range: [1, 2]}\n---\n# Use SQLite\n\nOne file.\n"),
}

func newSession(t *testing.T) *consolidate.Session {
	t.Helper()
	in := &consolidate.Input{
		RunID: runID, Now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC),
		Base: record.MapSnapshot(baseFiles),
		Entries: []extract.Staging{{Version: extract.StagingVersion, ID: "019ad5e0-7a00-7b00-8c00-000000000001",
			CreatedAt: time.Date(2026, 11, 30, 14, 20, 0, 0, time.UTC), Source: extract.Source{SessionID: "s1", Range: [2]int{2, 17}},
			Agent: "claude-code", Model: "recorded",
			Activity: extract.Activity{Decisions: []extract.Decision{{Topic: "Retry checkout twice", Chosen: "twice", Rationale: "flaky sandbox"}}}}},
		Lint: lint.DefaultOptions(),
	}
	s, err := consolidate.NewSession(in)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// engine is an Engine whose CLI is the stand-in playing script.
func engine(t *testing.T, script string) (Engine, string) {
	t.Helper()
	dir := t.TempDir()
	sp := filepath.Join(dir, "script.json")
	if err := os.WriteFile(sp, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	runs := filepath.Join(dir, "runs")
	return Engine{
		Spec:    "command:" + exe + " -agentstub --mcp-config {mcp_config} --prompt-file {prompt_file} --script " + sp,
		RunsDir: runs, Dir: dir, Server: []string{exe, "-runserver", runs}, Serve: serve,
	}, runs
}

const goodDecision = `"content":"---\nstatus: resolved\n---\n# Retry checkout twice\n\nTwice: the sandbox is flaky.\n"`

// TestRunThroughCLI: the stand-in reads, has a write refused by the
// linter and one by a principle, writes again and reports; the run's
// changes are the session's, the channel is gone after it.
func TestRunThroughCLI(t *testing.T) {
	e, runs := engine(t, `{"steps":[
 {"tool":"memory_read","input":{"path":"memory/summary.md"},"want":"# tinyshop"},
 {"tool":"memory_write","input":{"path":"memory/decisions/retry-checkout.md","content":"---\nstatus: resolved\n---\n# Retry\n\nSee #no-such-record.\n","reason":"r","staging_ids":["e1"]},"want_error":true,"want":"no-such-record"},
 {"tool":"memory_delete","input":{"path":".yoi/memory/decisions/use-sqlite.md","categories":["outdated"],"reason":"r"},"want_error":true,"want":"never deleted"},
 {"tool":"memory_write","input":{"path":".yoi/workflow/deploy.md","content":"# D\n","reason":"r"},"want_error":true,"want":"workflow"},
 {"token":"wrong","want":"wrong token"},
 {"tool":"memory_write","input":{"path":"memory/decisions/retry-checkout.md",`+goodDecision+`,"reason":"decided in s1","staging_ids":["e1"]},"want":"Done: add .yoi/memory/decisions/retry-checkout.md"},
 {"tool":"report","input":{"summary":"one decision"},"want":"Report received"}
]}`)
	var events []agent.Event
	e.Progress = func(ev agent.Event) { events = append(events, ev) }
	s := newSession(t)
	if err := e.Run(context.Background(), s); err != nil {
		t.Fatal(err)
	}
	ops := s.Ops()
	if len(ops) != 1 || ops[0].Path != ".yoi/memory/decisions/retry-checkout.md" && ops[0].Path != "memory/decisions/retry-checkout.md" {
		t.Fatalf("ops %+v; want one add", ops)
	}
	if got := strings.Join(s.Used(), ","); got != "019ad5e0-7a00-7b00-8c00-000000000001" {
		t.Errorf("Used = %s", got)
	}
	if len(events) == 0 || events[len(events)-1].Kind != agent.EventReport {
		t.Errorf("progress %+v; want the report last", events)
	}
	log, err := os.ReadFile(filepath.Join(runs, runID+".log"))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"agent CLI: ", "tool memory_delete .yoi/memory/decisions/use-sqlite.md: refused", "tool report", "exit status 0", "--- stdout ---\nserver: ", "\ntools: knowledge_search"} {
		if !strings.Contains(string(log), w) {
			t.Errorf("log lacks %q:\n%s", w, log)
		}
	}
	for _, p := range []string{runID + ".addr", runID + ".sock", runID} {
		if _, err := os.Lstat(filepath.Join(runs, p)); err == nil {
			t.Errorf("%s left after the run", p)
		}
	}
	if _, err := Attach(context.Background(), runs, runID, "x"); !errors.Is(err, ErrNoRun) {
		t.Errorf("Attach after the run: %v; want ErrNoRun", err)
	}
}

// TestRunFails: a CLI that does not end with a report fails the run with
// an error naming the command; nothing it did may be committed.
func TestRunFails(t *testing.T) {
	write := `{"tool":"memory_write","input":{"path":"memory/decisions/retry-checkout.md",` + goodDecision + `,"reason":"r","staging_ids":["e1"]},"want":"Done"}`
	for _, c := range []struct {
		name, script string
		timeout      time.Duration
		is           error
		want         string
	}{
		{"no report", `{"steps":[` + write + `]}`, 0, agent.ErrNoReport, "exited without calling report"},
		{"nothing done", `{"steps":[]}`, 0, agent.ErrNoReport, "without calling report"},
		{"entry not covered", `{"steps":[{"tool":"report","input":{"summary":"done"},"want_error":true,"want":"you have not read e1 whole"}]}`, 0, agent.ErrNoReport, "without calling report; staging entries not read whole nor drawn on: e1"},
		{"report refused", `{"steps":[{"tool":"report","input":{"summary":""},"want_error":true,"want":"summary"}]}`, 0, agent.ErrNoReport, "without calling report"},
		{"exit status", `{"steps":[` + write + `],"exit":7,"stderr":"rate limited"}`, 0, ErrExit, "(7): rate limited"},
		{"timeout", `{"steps":[` + write + `],"sleep_seconds":600}`, time.Second, ErrTimeout, "killed at the timeout of 1s (yoimem.consolidate.commandTimeoutSeconds)"},
	} {
		t.Run(c.name, func(t *testing.T) {
			e, _ := engine(t, c.script)
			e.Timeout = c.timeout
			e.Brief.EntryChars = 60 // the entry is cut in the brief
			err := e.Run(context.Background(), newSession(t))
			var ce *CLIError
			if !errors.Is(err, c.is) || !errors.As(err, &ce) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v; want %v with %q", err, c.is, c.want)
			}
			if exe, _ := os.Executable(); !strings.HasPrefix(err.Error(), "agent CLI "+exe+": ") || !strings.Contains(err.Error(), "its output is in ") {
				t.Errorf("the error does not name the command and the log: %v", err)
			}
		})
	}
}

// TestRunInterrupted: an interrupt kills the CLI and ends the run with
// the context's error.
func TestRunInterrupted(t *testing.T) {
	e, _ := engine(t, `{"steps":[{"tool":"memory_read","input":{"path":"memory/summary.md"}}],"sleep_seconds":600}`)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	e.Progress = func(ev agent.Event) {
		if ev.Kind == agent.EventTool { // the CLI is at work
			cancel()
		}
	}
	if err := e.Run(ctx, newSession(t)); !errors.Is(err, context.Canceled) {
		t.Fatalf("err %v; want context.Canceled", err)
	}
}

// TestAttach: a server needs the run's ID and token.
func TestAttach(t *testing.T) {
	dir := t.TempDir()
	l, err := listen(dir, runID)
	if err != nil {
		t.Fatal(err)
	}
	defer l.close()
	go l.serve(context.Background(), func(_ context.Context, c net.Conn) { c.Write([]byte("hi\n")) })
	ctx := context.Background()
	if _, err := Attach(ctx, dir, runID, "nope"); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), "wrong token") {
		t.Errorf("wrong token: %v", err)
	}
	if _, err := Attach(ctx, dir, runID, ""); !errors.Is(err, ErrRefused) || !strings.Contains(err.Error(), EnvToken) {
		t.Errorf("no token: %v", err)
	}
	if _, err := Attach(ctx, dir, "other-run", l.token); !errors.Is(err, ErrNoRun) {
		t.Errorf("another run: %v", err)
	}
	if _, err := Attach(ctx, dir, "../x", l.token); err == nil || !strings.Contains(err.Error(), "run ID") {
		t.Errorf("a path as run ID: %v", err)
	}
	c, err := Attach(ctx, dir, runID, l.token)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	b := make([]byte, 3)
	if _, err := io.ReadFull(c, b); err != nil || string(b) != "hi\n" {
		t.Errorf("after the hello: %q %v", b, err)
	}
	fi, err := os.Stat(l.socket)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode %v %v; want 0600", fi.Mode(), err)
	}
}

// TestShortSocketPath: a runs directory too deep for a socket path puts
// the socket under the temporary directory; the address file finds it.
func TestShortSocketPath(t *testing.T) {
	dir := filepath.Join(t.TempDir(), strings.Repeat("d", 60), strings.Repeat("e", 60))
	l, err := listen(dir, runID)
	if err != nil {
		t.Fatal(err)
	}
	go l.serve(context.Background(), func(context.Context, net.Conn) {})
	if len(l.socket) > maxSunPath || l.tmpDir == "" {
		t.Errorf("socket %s (%d bytes)", l.socket, len(l.socket))
	}
	c, err := Attach(context.Background(), dir, runID, l.token)
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	l.close()
	if _, err := os.Stat(l.tmpDir); err == nil {
		t.Errorf("%s left after close", l.tmpDir)
	}
}
