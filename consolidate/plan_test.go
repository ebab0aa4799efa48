package consolidate

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

func decide(topic, chosen string) extract.Activity {
	return extract.Activity{Decisions: []extract.Decision{{Topic: topic, Options: []string{chosen, "other"}, Chosen: chosen, Rationale: "it fits"}}}
}

func ask(target, summary string) extract.Activity {
	return extract.Activity{Requests: []extract.Request{{Intent: "want", Target: target, Summary: summary}}}
}

func staged(id, session string, from, to int, act extract.Activity) extract.Staging {
	return extract.Staging{Version: extract.StagingVersion, ID: id, CreatedAt: now, Source: extract.Source{SessionID: session, Range: [2]int{from, to}}, Agent: "native", Activity: act}
}

func planInput(base map[string][]byte, entries ...extract.Staging) *Input {
	return &Input{RunID: "run-1", Now: now, BaseCommit: "0123456789012345678901234567890123456789", Base: record.MapSnapshot(base), Entries: entries, Lint: lint.DefaultOptions()}
}

// TestNewPlan: the plan holds the change set against the base, a message
// with one line per operation and the run's trailers (the consumed
// entries and their session ranges, each once), and the consumed IDs.
func TestNewPlan(t *testing.T) {
	in := planInput(map[string][]byte{"memory/summary.md": []byte(summary)},
		staged(id1, "s1", 3, 9, decide("Use SQLite", "sqlite")),
		staged(id2, "s2", 1, 5, ask("CSV export", "export the ledger as CSV")),
		staged(id3, "s3", 2, 4, decide("Use SQLite", "sqlite")),
		staged(id4, "s1", 3, 9, extract.Activity{}),
	)
	var applied []string
	var stages []Stage
	in.Hooks = Hooks{Applied: func(op memlog.Op) { applied = append(applied, string(op.Kind)+" "+op.Path) }, Stage: func(s Stage) { stages = append(stages, s) }}
	p, err := NewPlan(context.Background(), in, topicEngine{})
	if err != nil {
		t.Fatal(err)
	}
	if p.Empty() {
		t.Fatal("plan is empty")
	}
	var paths []string
	for _, c := range p.Changes.Changes() {
		paths = append(paths, c.Op.String()+" "+c.Path)
	}
	if got := strings.Join(paths, "; "); got != "put memory/decisions/use-sqlite.md; put memory/requests/csv-export.md" {
		t.Errorf("changes: %s", got)
	}
	m := p.Message
	if m.RunID != "run-1" || m.Engine != "test" || m.Model != "" {
		t.Errorf("message run/engine/model: %+v", m)
	}
	if !slices.Equal(m.Consumed, []string{id1, id2, id3, id4}) || !slices.Equal(p.Consumed, []string{id1, id2, id3, id4}) {
		t.Errorf("consumed: %v, %v", m.Consumed, p.Consumed)
	}
	if !slices.Equal(m.Sessions, []string{"s1:3-9", "s2:1-5", "s3:2-4"}) {
		t.Errorf("sessions: %v", m.Sessions)
	}
	text, err := m.Format()
	if err != nil {
		t.Fatal(err)
	}
	if err := memlog.CheckTrailers(text); err != nil {
		t.Errorf("message does not check: %v\n%s", err, text)
	}
	if !strings.HasPrefix(text, "yoimem: 2 added\n") || !strings.Contains(text, "add memory/decisions/use-sqlite.md: from "+id1+"\n") {
		t.Errorf("message:\n%s", text)
	}
	if got := strings.Join(applied, "; "); got != "add memory/decisions/use-sqlite.md; add memory/requests/csv-export.md; update memory/decisions/use-sqlite.md" {
		t.Errorf("Applied hook saw: %s", got)
	}
	if !slices.Equal(stages, []Stage{StageLinted}) {
		t.Errorf("stages: %v", stages)
	}
	dec, _ := p.Changes.Get("memory/decisions/use-sqlite.md")
	if !strings.Contains(string(dec.Content), "{session_id: s1, range: [3, 9]}") || !strings.Contains(string(dec.Content), "{session_id: s3, range: [2, 4]}") || strings.Count(string(dec.Content), "session_id") != 2 {
		t.Errorf("decision:\n%s", dec.Content)
	}
}

// TestNewPlanNothing: an engine that changes nothing gives an empty plan
// that still consumes its entries.
func TestNewPlanNothing(t *testing.T) {
	in := planInput(map[string][]byte{"memory/summary.md": []byte(summary)}, staged(id1, "s1", 3, 9, extract.Activity{}))
	p, err := NewPlan(context.Background(), in, topicEngine{})
	if err != nil {
		t.Fatal(err)
	}
	if !p.Empty() || p.Changes.Len() != 0 || len(p.Message.Ops) != 0 || !slices.Equal(p.Consumed, []string{id1}) {
		t.Errorf("plan = %+v", p)
	}
}

// TestNewPlanRefuses: the whole resulting snapshot is linted; any error
// (here one the base already had) refuses the plan with the findings;
// an engine's failure refuses it too.
func TestNewPlanRefuses(t *testing.T) {
	broken := map[string][]byte{
		"memory/summary.md":          []byte(summary),
		"memory/decisions/broken.md": []byte(decision("maybe", "# Broken\n", "s0")),
	}
	_, err := NewPlan(context.Background(), planInput(broken, staged(id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))), topicEngine{})
	var le *LintError
	if !errors.As(err, &le) || len(le.Findings) == 0 || le.Findings[0].Path != "memory/decisions/broken.md" || le.Findings[0].Severity != lint.Error {
		t.Fatalf("NewPlan over a broken record = %v", err)
	}
	if !strings.Contains(err.Error(), ".yoi/memory/decisions/broken.md") {
		t.Errorf("lint error does not name the file as printed: %v", err)
	}

	boom := errors.New("model went away")
	_, err = NewPlan(context.Background(), planInput(map[string][]byte{"memory/summary.md": []byte(summary)}, staged(id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))), topicEngine{fail: boom})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "engine test") {
		t.Fatalf("NewPlan with a failing engine = %v", err)
	}
}

// TestNewPlanWarnings: the plan carries the linter's warnings on the
// records it changes, not on those it leaves alone; a slug like another
// (merge candidates) is news when the run creates it, not when it updates
// a record that already had that neighbour.
func TestNewPlanWarnings(t *testing.T) {
	base := map[string][]byte{
		"memory/summary.md":               []byte(summary),
		"memory/decisions/use-sqlites.md": []byte(decision("resolved", "# SQLite\n", "s0")),
		"memory/requests/dark-mode.md":    []byte(request("# Dark\n", "s0")),
		"memory/requests/dark-modes.md":   []byte(request("# Darker\n", "s0")),
		"memory/requests/csv-exports.md":  []byte(request("# CSV\n", "s0")),
		"memory/requests/csv-export.md":   []byte(request("# CSV export\n", "s0", "s1", "s3", "s4")),
	}
	in := planInput(base, staged(id1, "s1", 3, 9, decide("Use SQLite", "sqlite")), staged(id2, "s2", 3, 9, ask("CSV export", "as a file")))
	in.Lint.SourcesWarn = 4
	p, err := NewPlan(context.Background(), in, topicEngine{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, w := range p.Warnings {
		got = append(got, w.Path+" "+w.Rule)
	}
	want := []string{"memory/decisions/use-sqlite.md similar-slugs", "memory/requests/csv-export.md sources-long"}
	if !slices.Equal(got, want) {
		t.Errorf("warnings: %v, want %v", got, want)
	}
}

// TestNewPlanRunID: the run ID names the metrics file: one that is no
// plain file name is refused.
func TestNewPlanRunID(t *testing.T) {
	for _, id := range []string{"", "../x", "a/b", ".hidden", "a b"} {
		in := planInput(map[string][]byte{"memory/summary.md": []byte(summary)}, staged(id1, "s1", 3, 9, decide("Use SQLite", "sqlite")))
		in.RunID = id
		if _, err := NewPlan(context.Background(), in, topicEngine{}); err == nil || !strings.Contains(err.Error(), "run ID") {
			t.Errorf("run ID %q: %v", id, err)
		}
	}
}
