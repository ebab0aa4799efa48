package metrics

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestDamageErrors: a damaged line of any usage file is a *DamageError
// that says which kind of file and which line, so that the command can
// say what to do about it.
func TestDamageErrors(t *testing.T) {
	good := `{"id":"e1","time":"2026-01-01T00:00:00Z","session":"s1","record":"knowledge/x.md","how":"read"}`
	long := `{"id":"` + strings.Repeat("x", maxJournalLine) + `"}`
	tests := []struct {
		name string
		read func(t *testing.T) error
		kind FileKind
		line int
	}{
		{"run file, bad line", func(*testing.T) error {
			_, err := ReadRun(strings.NewReader(good+"\n{\"id\":\n"), ".yoi/metrics/r.jsonl")
			return err
		}, RunFile, 2},
		{"run file, line too long", func(*testing.T) error {
			_, err := ReadRun(strings.NewReader(good+"\n"+strings.Repeat("x", maxRunLine+1)+"\n"), ".yoi/metrics/r.jsonl")
			return err
		}, RunFile, 2},
		{"journal, bad line before a good one", func(*testing.T) error {
			_, err := ReadEvents(strings.NewReader("{\"id\":\n"+good+"\n"), "s1.jsonl")
			return err
		}, Journal, 1},
		{"journal, line too long", func(*testing.T) error {
			_, err := ReadEvents(strings.NewReader(good+"\n"+long+"\n"), "s1.jsonl")
			return err
		}, Journal, 2},
		{"ledger, bad line before a good one", func(t *testing.T) error {
			return ledgerWith(t, "{\"time\":\n"+`{"time":"2026-01-01T00:00:00Z","session":"s","from":1,"to":2,"tokens":5}`+"\n")
		}, Ledger, 1},
		{"ledger, tokens out of range", func(t *testing.T) error {
			return ledgerWith(t, `{"time":"2026-01-01T00:00:00Z","session":"s","from":1,"to":2,"tokens":-5}`+"\n")
		}, Ledger, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.read(t)
			var de *DamageError
			if !errors.As(err, &de) {
				t.Fatalf("err = %v (%T), want a *DamageError", err, err)
			}
			if de.Kind != tt.kind || de.Line != tt.line {
				t.Fatalf("kind %d line %d, want kind %d line %d (%v)", de.Kind, de.Line, tt.kind, tt.line, err)
			}
			if want := de.File + ":" + strconv.Itoa(tt.line) + ": "; !strings.HasPrefix(err.Error(), want) {
				t.Fatalf("message %q does not begin with %q", err, want)
			}
		})
	}
}

func ledgerWith(t *testing.T, content string) error {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "ledger.jsonl"), []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Local{Dir: dir}.Ticks()
	return err
}
