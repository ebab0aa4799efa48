package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/agent"
)

func TestHome(t *testing.T) {
	for _, c := range []struct{ codexHome, home, want string }{
		{"/c", "/h", "/c"},
		{"", "/h", filepath.Join("/h", ".codex")},
		{"", "", ""},
	} {
		if got := Home(c.codexHome, c.home); got != c.want {
			t.Errorf("Home(%q, %q) = %q, want %q", c.codexHome, c.home, got, c.want)
		}
	}
}

// TestNotifyEvent: the payload is the last argument; a turn's end finds
// its rollout by the thread ID; anything else is an error naming it.
func TestNotifyEvent(t *testing.T) {
	home := t.TempDir()
	id := "01a232c8-e50b-70c0-ab93-0a65b7e2e26b"
	dir := filepath.Join(home, "sessions", "2026", "12", "01")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	rollout := filepath.Join(dir, "rollout-2026-12-01T10-00-00-"+id+".jsonl")
	if err := os.WriteFile(rollout, []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	turn := `{"type":"agent-turn-complete","thread-id":"` + id + `","cwd":"/w"}`
	for _, c := range []struct {
		name    string
		args    []string
		home    string
		kind    agent.Kind
		logPath string
		err     string
	}{
		{"turn", []string{turn}, home, agent.Stop, rollout, ""},
		{"last argument", []string{"--x", turn}, home, agent.Stop, rollout, ""},
		{"other type", []string{`{"type":"approval-requested","thread-id":"` + id + `"}`}, home, agent.Unknown, "", ""},
		{"no argument", nil, home, "", "", "no payload"},
		{"malformed", []string{`{"type":`}, home, "", "", "notify payload"},
		{"no thread", []string{`{"type":"agent-turn-complete"}`}, home, agent.Stop, "", "no thread-id"},
		{"no rollout", []string{`{"type":"agent-turn-complete","thread-id":"other"}`}, home, agent.Stop, "", "no Codex rollout for session other"},
		{"no home", []string{turn}, "", agent.Stop, "", "no Codex home"},
		{"bad thread", []string{`{"type":"agent-turn-complete","thread-id":"../x"}`}, home, agent.Stop, "", "session"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ev, err := NotifyEvent(c.args, c.home)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Fatalf("err = %v, want one with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ev.Kind != c.kind || ev.LogPath != c.logPath {
				t.Errorf("got kind %q log %q, want %q %q", ev.Kind, ev.LogPath, c.kind, c.logPath)
			}
		})
	}
}
