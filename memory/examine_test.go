package memory

import (
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// TestExamineFacts: the facts alone are Examine's, without the lowered
// text the always-on context never reads.
func TestExamineFacts(t *testing.T) {
	for _, tc := range []struct{ path, content string }{
		{"knowledge/retry.md", "---\nkind: rule\ndescription: How to Retry\nmodel_invokation: true\ncreated_at: 2026-01-05T09:30:00Z\nupdated_at: 2026-01-05T09:30:00Z\nlast_sources: []\n---\nRetry TWICE.\n"},
		{"knowledge/quiet.md", "---\nkind: fact\ndescription: Quiet\nmodel_invokation: false\nuser_invocable: false\n---\nBody\n"},
		{"knowledge/broken.md", "no frontmatter, mentions Retry\n"},
		{"knowledge/binary.md", "retry\x00"},
		{"knowledge/latin1.md", "caf\xe9\n"},
		{"memory/summary.md", "---\nkind: summary\nupdated_at: 2026-01-05T09:30:00Z\n---\nThe Summary.\n"},
		{"memory/decisions/use-sqlite.md", "---\nkind: decision\nstatus: accepted\n---\nUse SQLite.\n"},
	} {
		want := Examine(tc.path, []byte(tc.content))
		want.Lower = nil
		if got := ExamineFacts(tc.path, []byte(tc.content)); !reflect.DeepEqual(got, want) {
			t.Errorf("ExamineFacts(%s) = %+v, want %+v", tc.path, got, want)
		}
	}
}

// TestTooLarge: the context asks it of every knowledge record, nearly
// always with no error, which costs no allocation.
func TestTooLarge(t *testing.T) {
	if n := testing.AllocsPerRun(100, func() { tooLarge(nil) }); n != 0 {
		t.Errorf("tooLarge(nil) allocates %v times, want 0", n)
	}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{nil, false},
		{errors.New("other"), false},
		{fmt.Errorf("read x: %w", record.ErrNotExist), false},
		{&record.TooLargeError{Path: "knowledge/x.md", Size: 2, Limit: 1}, true},
		{fmt.Errorf("read x: %w", &record.TooLargeError{Path: "knowledge/x.md", Size: 2, Limit: 1}), true},
	} {
		if got := tooLarge(tc.err); got != tc.want {
			t.Errorf("tooLarge(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
