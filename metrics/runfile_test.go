package metrics

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

func TestRunPath(t *testing.T) {
	if p, err := RunPath("0193a1b2-7c00-7d11-8e22-33445566aabb"); err != nil || p != "metrics/0193a1b2-7c00-7d11-8e22-33445566aabb.jsonl" {
		t.Errorf("RunPath = %q, %v", p, err)
	}
	for _, bad := range []string{"", "../x", "a/b", ".hidden", "a b", strings.Repeat("a", 129)} {
		if p, err := RunPath(bad); err == nil {
			t.Errorf("RunPath(%q) = %q", bad, p)
		}
	}
}

// TestRunFileRoundTrip: a run file holds the ledger readings and the
// events a run moved, one JSON object a line with its type, in a fixed
// order (the same data gives the same bytes: a replay reproduces it).
func TestRunFileRoundTrip(t *testing.T) {
	d := Data{
		Events: []Event{
			{ID: "b", Time: at(2), Session: "s2", Record: "knowledge/k.md", How: HowSlug},
			{ID: "a", Time: at(1), Session: "s1", Record: "knowledge/k.md", How: HowInject, Tokens: 12},
		},
		Ticks: []Tick{
			{Time: at(3), Session: "x", From: 5, To: 9, Tokens: 70},
			{Time: at(1), Session: "x", From: 1, To: 4, Tokens: 30},
		},
	}
	b := EncodeRun(d)
	want := `{"type":"tick","time":"2026-01-01T00:01:00Z","session":"x","from":1,"to":4,"tokens":30}
{"type":"tick","time":"2026-01-01T00:03:00Z","session":"x","from":5,"to":9,"tokens":70}
{"type":"event","id":"a","time":"2026-01-01T00:01:00Z","session":"s1","record":"knowledge/k.md","how":"inject","tokens":12}
{"type":"event","id":"b","time":"2026-01-01T00:02:00Z","session":"s2","record":"knowledge/k.md","how":"slug"}
`
	if string(b) != want {
		t.Fatalf("EncodeRun:\n%s\nwant\n%s", b, want)
	}
	got, err := ReadRun(bytes.NewReader(b), "run.jsonl")
	if err != nil || len(got.Events) != 2 || len(got.Ticks) != 2 || got.Events[0].ID != "a" || got.Ticks[1].Tokens != 70 || got.Events[0].Tokens != 12 {
		t.Fatalf("ReadRun: %+v, %v", got, err)
	}
	if again := EncodeRun(got); !bytes.Equal(again, b) {
		t.Errorf("not stable:\n%s", again)
	}
	if len(EncodeRun(Data{})) != 0 {
		t.Error("no data gave bytes")
	}
}

// TestReadRunStrict: a committed run file is written whole, so any bad
// line is damage, reported with its file and line; a line of another
// type (a later version's) is skipped; a line without a type is an event.
func TestReadRunStrict(t *testing.T) {
	ev := `{"type":"event","id":"a","time":"2026-01-01T00:01:00Z","session":"s","record":"knowledge/k.md","how":"read"}` + "\n"
	tests := []struct {
		name, text, err string
		events, ticks   int
	}{
		{"good", ev, "", 1, 0},
		{"untyped event", `{"id":"a","time":"2026-01-01T00:01:00Z","session":"s","record":"knowledge/k.md","how":"read"}` + "\n", "", 1, 0},
		{"later type", `{"type":"note","text":"x"}` + "\n" + ev, "", 1, 0},
		{"bad last line", ev + `{"type":"event","id":`, "run.jsonl:2:", 0, 0},
		{"bad line", "nope\n" + ev, "run.jsonl:1:", 0, 0},
		{"tick out of range", `{"type":"tick","time":"2026-01-01T00:01:00Z","session":"x","from":1,"to":2,"tokens":-5}` + "\n", "run.jsonl:1: tokens -5 out of range", 0, 0},
		{"event without record", `{"type":"event","id":"a","time":"2026-01-01T00:01:00Z","session":"s","how":"read"}` + "\n", "run.jsonl:1: an event names no record", 0, 0},
		{"line too long", `{"type":"note","text":"` + strings.Repeat("x", 2<<20) + `"}` + "\n", "run.jsonl:1: a line of more than", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d, err := ReadRun(strings.NewReader(tt.text), "run.jsonl")
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil || len(d.Events) != tt.events || len(d.Ticks) != tt.ticks {
				t.Fatalf("%+v, %v", d, err)
			}
		})
	}
}

// TestReadRuns: the run files of the working tree's .yoi/metrics and of
// a snapshot (the memory branch's tree) are read
// alike; other files are not run files.
func TestReadRuns(t *testing.T) {
	one := EncodeRun(Data{Events: []Event{{ID: "a", Time: at(1), Session: "s", Record: "knowledge/k.md", How: HowRead}}})
	two := EncodeRun(Data{Ticks: []Tick{{Time: at(1), Session: "x", From: 1, To: 2, Tokens: 5}}})
	yoi := t.TempDir()
	dir := filepath.Join(yoi, "metrics")
	os.Mkdir(dir, 0o755)
	for name, b := range map[string][]byte{"r1.jsonl": one, "r2.jsonl": two, "README.md": []byte("not a run\n")} {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d, err := ReadRunFiles(yoi)
	if err != nil || len(d.Events) != 1 || len(d.Ticks) != 1 {
		t.Fatalf("ReadRunFiles: %+v, %v", d, err)
	}
	if d, err := ReadRunFiles(filepath.Join(yoi, "missing")); err != nil || len(d.Events)+len(d.Ticks) != 0 {
		t.Fatalf("missing dir: %+v, %v", d, err)
	}
	os.WriteFile(filepath.Join(dir, "r3.jsonl"), []byte("nope\n"), 0o644)
	if _, err := ReadRunFiles(yoi); err == nil || !strings.HasPrefix(err.Error(), ".yoi/metrics/r3.jsonl:1:") {
		t.Fatalf("a bad run file in the working tree: %v", err)
	}
	snap := record.MapSnapshot(map[string][]byte{
		"metrics/r1.jsonl":  one,
		"metrics/r2.jsonl":  two,
		"metrics/notes.txt": []byte("x"),
		"knowledge/k.jsonl": []byte("not json\n"),
	})
	d, err = ReadRuns(snap)
	if err != nil || len(d.Events) != 1 || len(d.Ticks) != 1 {
		t.Fatalf("ReadRuns: %+v, %v", d, err)
	}
	bad := record.MapSnapshot(map[string][]byte{"metrics/r3.jsonl": []byte("nope\n")})
	if _, err := ReadRuns(bad); err == nil || !strings.Contains(err.Error(), ".yoi/metrics/r3.jsonl:1:") {
		t.Fatalf("a bad run file in a snapshot: %v", err)
	}
}
