package codex

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/yoimem/git-yoimem/agent"
)

// TestWithRollout: a Stop whose hook input names no transcript
// (transcript_path null) is given the session's rollout under
// CODEX_HOME, found by its id; others are left as they are.
func TestWithRollout(t *testing.T) {
	home := t.TempDir()
	const id = "019b64e5-57fa-7463-b644-fba7e456f905"
	day := filepath.Join(home, "sessions", "2026", "12", "01")
	if err := os.MkdirAll(day, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(day, "rollout-2026-12-01T09-12-44-"+id+".jsonl")
	if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ev   agent.Event
		want string
	}{
		{agent.Event{Kind: agent.Stop, Session: id}, path},
		{agent.Event{Kind: agent.PreCompact, Session: id}, path},
		{agent.Event{Kind: agent.Stop, Session: id, LogPath: "/given.jsonl"}, "/given.jsonl"},
		{agent.Event{Kind: agent.Stop, Session: "019b0000-0000-7000-8000-000000000000"}, ""},
		{agent.Event{Kind: agent.SessionStart, Session: id}, ""},
	} {
		if got := WithRollout(tc.ev, home).LogPath; got != tc.want {
			t.Errorf("WithRollout(%+v) log %q; want %q", tc.ev, got, tc.want)
		}
	}
}
