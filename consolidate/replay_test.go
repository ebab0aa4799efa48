package consolidate

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// otherEngine words its records differently from topicEngine.
type otherEngine struct{ topicEngine }

func (otherEngine) Name() string  { return "other" }
func (otherEngine) Model() string { return "test:other" }
func (e otherEngine) Run(ctx context.Context, s *Session) error {
	for _, en := range s.Input().Entries {
		for _, d := range en.Activity.Decisions {
			if err := e.fold(ctx, s, "memory/decisions/"+slugOf(d.Topic)+".md", "---\nstatus: resolved\n---\n# "+d.Topic+"\n", "We chose "+d.Chosen+".", en.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

// TestReplay: the same input (the note's entries, clock and usage)
// against the commit's parent gives the commit exactly; another engine
// gives a difference, shown path by path; nothing is written.
func TestReplay(t *testing.T) {
	r := workspaceRepo(t, nil)
	run := r.runner(t, topicEngine{})
	run.Usage = func(record.Snapshot) (map[string]RecordUsage, []string, error) {
		return map[string]RecordUsage{"memory/summary.md": {Uses: 3, Frequency: 2, Known: true, Protected: true}}, nil, nil
	}
	run.Metrics = &testMetrics{content: "{}\n"}
	run.Locked = []string{".yoi/knowledge/*.md"}
	// A first run, so that the replayed commit's parent is a memory commit.
	r.stage(t, id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))
	if _, err := run.Once(context.Background()); err != nil {
		t.Fatal(err)
	}
	r.stage(t, id2, "s2", 1, 5, decide("Use SQLite", "sqlite, in WAL mode"))
	r.stage(t, id3, "s3", 1, 5, ask("CSV export", "export the ledger"))
	rep, err := run.Once(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	commit := rep.Result.Commit
	tip, notes := r.git(t, "rev-parse", "yoimem/memory"), r.git(t, "rev-parse", NotesRef)
	run.Now = nil            // the replay's clock is the note's, not the runner's
	run.Lint.SourcesWarn = 3 // and so are the thresholds the outcome depends on

	same, err := run.Replay(context.Background(), commit[:12], nil)
	if err != nil {
		t.Fatal(err)
	}
	if !same.Same() || len(same.Differences()) != 0 {
		t.Fatalf("the replay differs: %+v", same.Differences())
	}
	if same.Commit != commit || same.Parent != rep.Result.Parent || same.Committed.Len() != 2 || same.MetricsFile != ".yoi/metrics/"+rep.RunID+".jsonl" {
		t.Errorf("replay = %+v", same)
	}
	if in := same.Plan.Input; !in.Now.Equal(now) || in.Lint.SourcesWarn != lint.DefaultOptions().SourcesWarn || len(in.Entries) != 2 || !in.Usage["memory/summary.md"].Protected || len(in.LockPatterns) != 1 || in.LockPatterns[0] != "knowledge/*.md" {
		t.Errorf("the replay's input is not the run's: %+v", in)
	}
	if same.Plan.Message.Engine != "test" || len(same.Plan.Message.Ops) != 2 {
		t.Errorf("replayed message: %+v", same.Plan.Message)
	}

	diff, err := run.Replay(context.Background(), commit, otherEngine{})
	if err != nil {
		t.Fatal(err)
	}
	if diff.Same() {
		t.Fatal("another engine's replay is the same")
	}
	ds := diff.Differences()
	if len(ds) != 2 || ds[0].Path != "memory/decisions/use-sqlite.md" || !strings.Contains(string(ds[0].Committed), "Chosen: sqlite, in WAL mode") || !strings.Contains(string(ds[0].Replayed), "We chose sqlite, in WAL mode.") ||
		ds[1].Path != "memory/requests/csv-export.md" || ds[1].Replayed != nil || !ds[1].InCommit || ds[1].InReplay {
		t.Errorf("differences = %+v", ds)
	}
	if diff.Plan.Message.Model != "test:other" {
		t.Errorf("the replay's model: %q", diff.Plan.Message.Model)
	}
	if r.git(t, "rev-parse", "yoimem/memory") != tip || r.git(t, "rev-parse", NotesRef) != notes || len(r.staged(t)) != 0 {
		t.Error("a replay wrote something")
	}
}

// TestReplayRefuses: a commit that is not a memory commit, one without
// a note, and a name that is no commit are errors that say so.
func TestReplayRefuses(t *testing.T) {
	r := workspaceRepo(t, nil)
	run := r.runner(t, topicEngine{})
	if _, err := run.Replay(context.Background(), "main", nil); !errors.Is(err, memlog.ErrNotMemoryCommit) {
		t.Errorf("replay of main = %v", err)
	}
	if _, err := run.Replay(context.Background(), "nope", nil); err == nil || !strings.Contains(err.Error(), `"nope"`) {
		t.Errorf("replay of nope = %v", err)
	}
	r.stage(t, id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))
	rep, err := run.Once(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	r.git(t, "update-ref", "-d", NotesRef)
	if _, err := run.Replay(context.Background(), rep.Result.Commit, nil); err == nil || !strings.Contains(err.Error(), "no note") || !strings.Contains(err.Error(), NotesRef) {
		t.Errorf("replay without a note = %v", err)
	}
}
