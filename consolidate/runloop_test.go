package consolidate

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunAgainWhileDue: entries staged during a run trigger the next run
// when they are due, at most maxRuns runs in all.
func TestRunAgainWhileDue(t *testing.T) {
	r := workspaceRepo(t, nil)
	r.stage(t, id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))
	run := r.runner(t, topicEngine{})
	n := 0
	run.Hooks.Stage = func(s Stage) {
		if s == StageLinted { // every run sees a new entry arrive
			n++
			r.stage(t, fmt.Sprintf("0194d2a0-0000-7000-8000-%012d", n), "s9", n, n, decide(fmt.Sprintf("Topic %d", n), "x"))
		}
	}
	reps, err := run.Run(context.Background(), 3, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 3 || len(r.memoryCommits(t)) != 3 {
		t.Fatalf("%d runs, %d commits; want 3 (maxRuns)", len(reps), len(r.memoryCommits(t)))
	}
	if left := r.staged(t); len(left) != 1 {
		t.Errorf("staging left %v, want the entry of the last run", left)
	}
	// Not due: one run only.
	reps, err = run.Run(context.Background(), 3, 5, 0)
	if err != nil || len(reps) != 1 || len(r.staged(t)) != 1 {
		t.Errorf("a run with a new entry under the threshold: %d runs, %v; staging %v", len(reps), err, r.staged(t))
	}
}

// TestRunStopsWithoutProgress: staging that stays due because its entries
// cannot be read stops the loop after one run, reporting them.
func TestRunStopsWithoutProgress(t *testing.T) {
	r := workspaceRepo(t, nil)
	for _, id := range []string{id1, id2} {
		if err := os.WriteFile(filepath.Join(r.stagingDir(), id+".json"), []byte("{broken"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	reps, err := r.runner(t, topicEngine{}).Run(context.Background(), 5, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(reps) != 1 || len(reps[0].Problems) != 2 || reps[0].Committed() {
		t.Fatalf("%d runs: %+v", len(reps), reps)
	}
	if left := r.staged(t); len(left) != 2 {
		t.Errorf("malformed entries were not left in place: %v", left)
	}
}

// TestRunFinishesAfterAnInterruptPastTheCommit: an interrupt that comes
// once the commit is made does not leave the run half done: its note,
// usage and staging cleanup are finished, and the lock is released.
func TestRunFinishesAfterAnInterruptPastTheCommit(t *testing.T) {
	r := workspaceRepo(t, nil)
	r.stage(t, id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	m := &testMetrics{content: "{}\n"}
	run := r.runner(t, topicEngine{})
	run.Metrics = m
	run.Hooks.Stage = func(s Stage) {
		if s == StageCommitted {
			cancel()
		}
	}
	rep, err := run.Once(ctx)
	if err != nil || !rep.Committed() {
		t.Fatalf("Once = %+v, %v", rep, err)
	}
	if note, err := r.gitErr("notes", "--ref", "yoimem", "show", rep.Result.Commit); err != nil || !strings.Contains(note, id1) {
		t.Errorf("note: %v", err)
	}
	if len(m.moved) != 1 || len(r.staged(t)) != 0 {
		t.Errorf("moved %v, staging %v", m.moved, r.staged(t))
	}
	if _, err := os.Stat(filepath.Join(r.stagingDir(), LockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock left: %v", err)
	}
}

// TestPreview: the dry run plans over what is staged now and writes
// nothing: no lock, no commit, no note, the staging as it was.
func TestPreview(t *testing.T) {
	r := workspaceRepo(t, nil)
	r.stage(t, id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))
	r.stage(t, id2, "s2", 1, 5, ask("CSV export", "export the ledger"))
	p, problems, err := r.runner(t, topicEngine{}).Preview(context.Background())
	if err != nil || len(problems) != 0 {
		t.Fatal(err, problems)
	}
	if p.Changes.Len() != 2 || len(p.Message.Ops) != 2 || len(p.Consumed) != 2 {
		t.Errorf("preview plan: %d changes, %v", p.Changes.Len(), p.Message.Ops)
	}
	if text, err := p.Message.Format(); err != nil || !strings.HasPrefix(text, "yoimem: 2 added") {
		t.Errorf("message: %q, %v", text, err)
	}
	if out, _ := r.gitErr("rev-parse", "--verify", "-q", "yoimem/memory"); out != "" {
		t.Error("a preview committed")
	}
	if out, _ := r.gitErr("rev-parse", "--verify", "-q", NotesRef); out != "" {
		t.Error("a preview wrote a note")
	}
	if left := r.staged(t); len(left) != 2 {
		t.Errorf("staging: %v", left)
	}
	if _, err := os.Stat(filepath.Join(r.stagingDir(), LockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a preview took the lock: %v", err)
	}
}

// TestRunRefusesALinkedStagingDirectory: a staging directory that is a
// symbolic link (to somewhere outside .yoi/) is refused before anything
// is written there.
func TestRunRefusesALinkedStagingDirectory(t *testing.T) {
	r := workspaceRepo(t, nil)
	outside := t.TempDir()
	if err := os.Remove(r.stagingDir()); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, r.stagingDir()); err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, outside, id1+".json", 10)
	_, err := r.runner(t, topicEngine{}).Once(context.Background())
	if err == nil || !strings.Contains(err.Error(), "symbolic link") || !strings.Contains(err.Error(), r.stagingDir()) {
		t.Fatalf("Once = %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 1 {
		t.Errorf("something was written outside: %v", entries)
	}
}
