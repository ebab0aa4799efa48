package record

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestCleanLock(t *testing.T) {
	tests := []struct {
		in, want, err string
	}{
		{"knowledge/retry.md", "knowledge/retry.md", ""},
		{".yoi/knowledge/retry.md", "knowledge/retry.md", ""},
		{"memory/decisions/*.md", "memory/decisions/*.md", ""},
		{"memory/decisions/", "memory/decisions", ""},
		{".yoi/memory/", "memory", ""},
		{"knowledge/db-[ab].md", "knowledge/db-[ab].md", ""},
		{"  knowledge/x.md ", "knowledge/x.md", ""},
		{"", "", "empty"},
		{".yoi/", "", "empty"},
		{"/etc/passwd", "", "absolute"},
		{"../x.md", "", "leaves .yoi/"},
		{"knowledge/../x.md", "", "leaves .yoi/"},
		{`knowledge\x.md`, "", "backslash"},
		{"knowledge//x.md", "", "empty or . element"},
		{"knowledge/[x.md", "", "bad pattern"},
		{"knowledge/a.md, knowledge/b.md", "", "one path or pattern a value"},
		{"knowledge/a.md knowledge/b.md", "", "one path or pattern a value"},
		{"knowledge/a\x00.md", "", "NUL"},
		{"**", "**", ""},
	}
	for _, tt := range tests {
		got, err := CleanLock(tt.in)
		if tt.err == "" {
			if err != nil || got != tt.want {
				t.Errorf("CleanLock(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("CleanLock(%q) = %q, %v; want an error with %q", tt.in, got, err, tt.err)
		}
	}
}

func TestLocksMatch(t *testing.T) {
	locks, err := NewLocks([]string{
		".yoi/knowledge/retry.md",
		"memory/decisions/db-*.md",
		"memory/requests/",
		"knowledge/team-*",
	})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		want bool
	}{
		{"knowledge/retry.md", true},
		{"knowledge/retry-policy.md", false},
		{"memory/decisions/db-engine.md", true},
		{"memory/decisions/dbx.md", false},
		{"memory/requests/dark-mode.md", true},
		{"memory/requests", true},
		{"memory/requests-old/x.md", false},
		{"knowledge/team-rules.md", true},
		{"knowledge/team-rules/sub.md", true}, // a pattern matching a directory locks what is under it
		{"memory/summary.md", false},
	}
	for _, tt := range tests {
		if got := locks.Match(tt.path); got != tt.want {
			t.Errorf("Match(%q) = %v, want %v", tt.path, got, tt.want)
		}
	}
	if _, err := NewLocks([]string{"ok.md", "../bad"}); err == nil || !strings.Contains(err.Error(), "../bad") {
		t.Errorf("NewLocks with a bad pattern: %v", err)
	}
	var none Locks
	if none.Match("knowledge/retry.md") {
		t.Error("no locks matched a path")
	}
}

// TestLocked: the locked records of a snapshot are those its source
// reports read-only (the owner's write bit in the working tree) and those
// the locks name; other entries (config, metrics) are not records.
func TestLocked(t *testing.T) {
	snap := MapSnapshot(map[string][]byte{
		"memory/summary.md":           nil,
		"knowledge/retry.md":          nil,
		"knowledge/owner-locked.md":   nil,
		"memory/decisions/db-pick.md": nil,
		"memory/decisions/logging.md": nil,
		"config":                      nil,
		"metrics/run-1.jsonl":         nil,
	})
	for i := range snap.Entries {
		switch snap.Entries[i].Path {
		case "knowledge/owner-locked.md", "config":
			snap.Entries[i].ReadOnly = true
		}
	}
	locks, err := NewLocks([]string{"knowledge/retry.md", "memory/decisions/db-*", "metrics"})
	if err != nil {
		t.Fatal(err)
	}
	got := slices.Sorted(maps.Keys(Locked(snap, locks)))
	want := []string{"knowledge/owner-locked.md", "knowledge/retry.md", "memory/decisions/db-pick.md"}
	if !slices.Equal(got, want) {
		t.Errorf("Locked = %v, want %v", got, want)
	}
}
