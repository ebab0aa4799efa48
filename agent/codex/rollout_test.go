package codex

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const sid = "019b64e5-57fa-7463-b644-fba7e456f905"

func touch(t *testing.T, root string, rel ...string) {
	t.Helper()
	for _, r := range rel {
		p := filepath.Join(root, filepath.FromSlash(r))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestFindRollout(t *testing.T) {
	home := t.TempDir()
	touch(t, home,
		"sessions/2026/11/30/rollout-2026-11-30T09-12-44-019b64e6-0000-7000-8000-000000000000.jsonl",
		"sessions/2026/11/29/rollout-2026-11-29T23-59-01-"+sid+".jsonl",
		"sessions/2026/11/29/rollout-2026-11-29T08-00-00-019b64e6-0000-7000-8000-000000000001.jsonl",
		"sessions/2025/12/31/rollout-2025-12-31T10-00-00-019b64e6-0000-7000-8000-000000000002.jsonl",
		"sessions/notes/rollout-2026-11-29T23-59-01-"+sid+".jsonl", // not a date: not looked in
		"sessions/2026/11/29/"+sid+".jsonl",                        // not a rollout name
		"archived_sessions/rollout-2025-01-02T10-00-00-019b64e6-0000-7000-8000-00000000000a.jsonl",
	)
	got, err := FindRollout(home, sid)
	want := filepath.Join(home, "sessions", "2026", "11", "29", "rollout-2026-11-29T23-59-01-"+sid+".jsonl")
	if err != nil || got != want {
		t.Fatalf("FindRollout = %q, %v; want %q", got, err, want)
	}
	// archived sessions are found too
	got, err = FindRollout(home, "019b64e6-0000-7000-8000-00000000000a")
	if err != nil || !strings.HasSuffix(got, filepath.Join("archived_sessions", "rollout-2025-01-02T10-00-00-019b64e6-0000-7000-8000-00000000000a.jsonl")) {
		t.Errorf("archived: %q, %v", got, err)
	}
}

// TestFindRolloutNewestFirst: a session ID in two days' files (a session
// copied or forked by hand) resolves to the newest.
func TestFindRolloutNewestFirst(t *testing.T) {
	home := t.TempDir()
	touch(t, home,
		"sessions/2026/01/05/rollout-2026-01-05T10-00-00-"+sid+".jsonl",
		"sessions/2026/10/01/rollout-2026-10-01T10-00-00-"+sid+".jsonl",
		"sessions/2026/10/01/rollout-2026-10-01T11-00-00-"+sid+".jsonl",
		"sessions/2025/12/31/rollout-2025-12-31T10-00-00-"+sid+".jsonl",
	)
	got, err := FindRollout(home, sid)
	if err != nil || filepath.Base(got) != "rollout-2026-10-01T11-00-00-"+sid+".jsonl" {
		t.Errorf("FindRollout = %q, %v", got, err)
	}
}

func TestFindRolloutErrors(t *testing.T) {
	home := t.TempDir()
	_, err := FindRollout(home, sid)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), filepath.Join(home, "sessions")) {
		t.Errorf("no sessions directory: %v", err)
	}
	touch(t, home, "sessions/2026/11/30/rollout-2026-11-30T09-12-44-019b64e6-0000-7000-8000-000000000000.jsonl")
	_, err = FindRollout(home, sid)
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), sid) || !strings.Contains(err.Error(), filepath.Join(home, "sessions")) {
		t.Errorf("absent: %v", err)
	}
	for _, bad := range []string{"", "../../etc/passwd", "a/b", `a\b`, "x*", strings.Repeat("a", 200), "a\x00b"} {
		if _, err := FindRollout(home, bad); err == nil || !strings.Contains(err.Error(), "session ID") {
			t.Errorf("FindRollout(%q) = %v; want an error naming the session ID", bad, err)
		}
	}
	if _, err := FindRollout("", sid); err == nil || !strings.Contains(err.Error(), "CODEX_HOME") {
		t.Errorf("no home: %v", err)
	}
}

// TestFindRolloutFlat: a rollout right in sessions/ (no date
// directories) is found after the dated ones.
func TestFindRolloutFlat(t *testing.T) {
	home := t.TempDir()
	touch(t, home, "sessions/rollout-2025-04-30T10-00-00-"+sid+".jsonl", "sessions/2026/11/30/rollout-2026-11-30T09-12-44-019b64e6-0000-7000-8000-000000000000.jsonl")
	got, err := FindRollout(home, sid)
	if err != nil || got != filepath.Join(home, "sessions", "rollout-2025-04-30T10-00-00-"+sid+".jsonl") {
		t.Errorf("FindRollout = %q, %v", got, err)
	}
}
