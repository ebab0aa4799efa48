package handler

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/agent"
)

// TestConsolidationsOwnSession: an agent CLI that a consolidation runs
// (a command: model) fires the repository's hooks too. Its session is
// the consolidation's own: no background run (it would stage the
// consolidation's own session, and consolidate again from inside the
// run), no context and no usage (upkeep, not use); writes into memory
// are still denied, the run's tools being the way in.
func TestConsolidationsOwnSession(t *testing.T) {
	w := newWorkspace(t, map[string]string{
		".yoi/memory/summary.md":  summary("We sell tea.\n"),
		".yoi/knowledge/retry.md": knowledge("How we retry", "Retry twice."),
	})
	tr := filepath.Join(t.TempDir(), "t.jsonl")
	if err := os.WriteFile(tr, []byte("{\"type\":\"user\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var jobs []Job
	var logged []string
	o := Options{Agent: "claude-code", ConsolidationRun: "0193b5a2-7c1e-7000-8000-000000000001",
		Spawn: func(j Job) error { jobs = append(jobs, j); return nil },
		Log:   func(msg string) { logged = append(logged, msg) }}
	for _, ev := range []agent.Event{
		{Kind: agent.SessionStart, Session: session},
		{Kind: agent.UserPrompt, Session: session, Prompt: "use #retry"},
		{Kind: agent.Stop, Session: session, LogPath: tr},
		{Kind: agent.PreCompact, Session: session, LogPath: tr},
		{Kind: agent.SessionEnd, Session: session, LogPath: tr},
	} {
		resp, err := Handle(context.Background(), w, ev, o)
		if err != nil || !empty(resp) {
			t.Errorf("%s in a consolidation's own session: %+v, %v; want nothing", ev.Kind, resp, err)
		}
	}
	if len(jobs) != 0 {
		t.Errorf("a consolidation's own session started background runs: %+v", jobs)
	}
	if !strings.Contains(strings.Join(logged, "\n"), "0193b5a2-7c1e-7000-8000-000000000001") {
		t.Errorf("the log does not name the consolidation run: %q", logged)
	}
	if p, err := w.Metrics().Pending(); err != nil || len(p.Events) != 0 {
		t.Errorf("usage recorded for a consolidation's own session: %+v, %v", p.Events, err)
	}
	write := agent.Event{Kind: agent.PreTool, Session: session, Tool: "Write",
		ToolInput: []byte(`{"file_path":".yoi/memory/decisions/x.md","content":"x"}`), Cwd: w.Root}
	if resp, _ := Handle(context.Background(), w, write, o); !resp.Deny {
		t.Errorf("a Write into memory in a consolidation's own session was not denied: %+v", resp)
	}
}
