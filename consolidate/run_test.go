package consolidate

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memlog"
)

// testMetrics is pending usage held in memory: what the run's commit
// moves, and the marks it says were moved.
type testMetrics struct {
	mu      sync.Mutex
	content string
	moved   []string
}

func (m *testMetrics) Pending(runID string) ([]byte, json.RawMessage, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.content == "" {
		return nil, nil, nil
	}
	return []byte(m.content), json.RawMessage(`{"through":` + jsonString(m.content) + `}`), nil
}

func (m *testMetrics) Moved(runID string, mark json.RawMessage) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.moved = append(m.moved, runID+" "+string(mark))
	return nil
}

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

const baseSummary = "---\ncreated_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\n---\n# Project\nRun make test.\n"

// workspaceRepo is a repository with a .yoi/ (summary, staging ignored)
// on main.
func workspaceRepo(t testing.TB, extra map[string]string) *testRepo {
	t.Helper()
	files := map[string]string{
		".yoi/.gitignore":        "/memory/_staging/\n",
		".yoi/memory/summary.md": baseSummary,
	}
	for p, c := range extra {
		files[p] = c
	}
	r := newTestRepo(t, files)
	if err := os.MkdirAll(r.stagingDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r *testRepo) stage(t testing.TB, id, session string, from, to int, act extract.Activity) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(r.stagingDir(), id+".json"), stagingFile(t, id, session, from, to, act), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (r *testRepo) staged(t testing.TB) []string {
	t.Helper()
	list, err := extract.ListStaging(r.stagingDir())
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range list {
		ids = append(ids, e.ID)
	}
	return ids
}

func (r *testRepo) runner(t testing.TB, e Engine) *Runner {
	t.Helper()
	clock := now
	n := 0
	return &Runner{
		Branch: r.branch(t), StagingDir: r.stagingDir(), Root: r.dir, MaxRead: 1 << 20,
		Lint: lint.DefaultOptions(), Engine: e,
		Author:   gitstore.Signature{Name: "git-yoimem", Email: "yoimem@example.com"},
		Now:      func() time.Time { return clock },
		NewRunID: func() (string, error) { n++; return "0194d2b7-1c2e-7a00-9b11-00000000000" + string(rune('0'+n)), nil },
	}
}

// TestRunCommits: one run makes one commit on the memory branch with the
// records and the pending usage, keeps the consumed entries as the
// commit's note, removes only the consumed staging files (an entry staged
// during the run stays), releases the lock and leaves the working tree,
// the index and HEAD as they were.
func TestRunCommits(t *testing.T) {
	r := workspaceRepo(t, nil)
	r.stage(t, id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))
	r.stage(t, id2, "s2", 1, 5, ask("CSV export", "export the ledger as CSV"))
	head := r.git(t, "rev-parse", "HEAD")
	m := &testMetrics{content: `{"id":"ev1","record":"knowledge/x.md","how":"search"}` + "\n"}
	run := r.runner(t, topicEngine{})
	run.Metrics = m
	run.Hooks.Stage = func(s Stage) {
		if s == StageLinted {
			r.stage(t, id3, "s3", 1, 2, decide("Late topic", "x")) // staged during the run
		}
	}
	rep, err := run.Once(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !rep.Committed() || rep.Plan == nil || rep.Result.Parent != head {
		t.Fatalf("report = %+v", rep)
	}
	tip := r.git(t, "rev-parse", "yoimem/memory")
	if tip != rep.Result.Commit {
		t.Fatalf("memory tip %s, report says %s", tip, rep.Result.Commit)
	}
	files := r.git(t, "diff-tree", "-r", "--name-status", "--no-commit-id", head, tip)
	want := "A\t.yoi/memory/decisions/use-sqlite.md\nA\t.yoi/memory/requests/csv-export.md\nA\t.yoi/metrics/" + rep.RunID + ".jsonl"
	if files != want {
		t.Errorf("commit changes:\n%s\nwant:\n%s", files, want)
	}
	if got := r.git(t, "show", tip+":.yoi/metrics/"+rep.RunID+".jsonl"); got+"\n" != m.content {
		t.Errorf("metrics file = %q", got)
	}
	if len(m.moved) != 1 || !strings.HasPrefix(m.moved[0], rep.RunID+" ") || !strings.Contains(m.moved[0], "ev1") {
		t.Errorf("usage marked moved: %v", m.moved)
	}
	msg := r.git(t, "log", "-1", "--format=%B", tip)
	if err := memlog.CheckTrailers(msg); err != nil {
		t.Errorf("message: %v\n%s", err, msg)
	}
	for _, want := range []string{"Yoimem-Run: " + rep.RunID, "Yoimem-Engine: test", "Yoimem-Consumed: " + id1, "Yoimem-Consumed: " + id2, "Yoimem-Session: s1:3-9", "Yoimem-Session: s2:1-5"} {
		if !strings.Contains(msg, want+"\n") {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
	note := r.git(t, "notes", "--ref", "yoimem", "show", tip)
	ev, err := ParseEvidence("note", []byte(note))
	if err != nil {
		t.Fatal(err)
	}
	if ev.RunID != rep.RunID || ev.Base != head || len(ev.Entries) != 2 || ev.Entries[0].ID != id1 || ev.Entries[1].Activity.Requests[0].Target != "CSV export" {
		t.Errorf("note = %+v", ev)
	}
	if left := r.staged(t); !slices.Equal(left, []string{id3}) {
		t.Errorf("staging left: %v, want only the entry staged during the run", left)
	}
	if _, err := os.Stat(filepath.Join(r.stagingDir(), LockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock not released: %v", err)
	}
	if st := r.git(t, "status", "--porcelain"); st != "" || r.git(t, "rev-parse", "HEAD") != head || r.git(t, "symbolic-ref", "HEAD") != "refs/heads/main" {
		t.Errorf("the working tree, index or HEAD changed: %q", st)
	}
	if _, err := os.Stat(filepath.Join(r.dir, ".yoi", "memory", "decisions")); !errors.Is(err, os.ErrNotExist) {
		t.Error("a record was written into the working tree")
	}
}

// TestRunNothingToChange: entries that change no record make no commit
// (no empty commit, no metrics-only commit); they are removed, and the
// pending usage waits.
func TestRunNothingToChange(t *testing.T) {
	r := workspaceRepo(t, nil)
	r.stage(t, id1, "s1", 3, 9, extract.Activity{})
	m := &testMetrics{content: "{}\n"}
	run := r.runner(t, topicEngine{})
	run.Metrics = m
	rep, err := run.Once(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Committed() || rep.Plan == nil || !rep.Plan.Empty() || !slices.Equal(rep.Result.Removed, []string{id1}) {
		t.Errorf("report = %+v", rep)
	}
	if out, _ := r.gitErr("rev-parse", "--verify", "-q", "yoimem/memory"); out != "" {
		t.Errorf("a commit was made: %s", out)
	}
	if len(r.staged(t)) != 0 || len(m.moved) != 0 {
		t.Errorf("staging %v, moved %v", r.staged(t), m.moved)
	}
	rep, err = run.Once(context.Background())
	if err != nil || !rep.NothingStaged {
		t.Errorf("a run over nothing: %+v, %v", rep, err)
	}
}

// TestRunKeepsStagingOnError: a lint error, an engine failure or a busy
// lock commit nothing and keep every staging entry; the lock is free
// afterwards (but for the busy case, where it is the other run's).
func TestRunKeepsStagingOnError(t *testing.T) {
	t.Run("lint", func(t *testing.T) {
		r := workspaceRepo(t, map[string]string{".yoi/memory/decisions/broken.md": decision("maybe", "# Broken\n", "s0")})
		r.stage(t, id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))
		_, err := r.runner(t, topicEngine{}).Once(context.Background())
		var le *LintError
		if !errors.As(err, &le) {
			t.Fatalf("Once = %v, want a *LintError", err)
		}
		r.checkKept(t, id1)
	})
	t.Run("engine", func(t *testing.T) {
		r := workspaceRepo(t, nil)
		r.stage(t, id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))
		_, err := r.runner(t, topicEngine{fail: errors.New("turn limit reached")}).Once(context.Background())
		if err == nil || !strings.Contains(err.Error(), "turn limit reached") {
			t.Fatalf("Once = %v", err)
		}
		r.checkKept(t, id1)
	})
	t.Run("busy", func(t *testing.T) {
		r := workspaceRepo(t, nil)
		r.stage(t, id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))
		held, err := AcquireLock(context.Background(), r.stagingDir(), "other-run", now)
		if err != nil {
			t.Fatal(err)
		}
		_, err = r.runner(t, topicEngine{}).Once(context.Background())
		var busy *BusyError
		if !errors.As(err, &busy) || busy.Holder.RunID != "other-run" {
			t.Fatalf("Once = %v, want busy", err)
		}
		if err := held.Release(); err != nil {
			t.Fatal(err)
		}
		r.checkKept(t, id1)
	})
	t.Run("interrupted", func(t *testing.T) {
		r := workspaceRepo(t, nil)
		r.stage(t, id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))
		ctx, cancel := context.WithCancel(context.Background())
		_, err := r.runner(t, topicEngine{between: func(context.Context) { cancel() }}).Once(ctx)
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("Once = %v", err)
		}
		r.checkKept(t, id1)
	})
}

func (r *testRepo) checkKept(t *testing.T, ids ...string) {
	t.Helper()
	if out, _ := r.gitErr("rev-parse", "--verify", "-q", "yoimem/memory"); out != "" {
		t.Errorf("a commit was made: %s", out)
	}
	if got := r.staged(t); !slices.Equal(got, ids) {
		t.Errorf("staging %v, want %v kept", got, ids)
	}
	if _, err := os.Stat(filepath.Join(r.stagingDir(), LockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the lock was left: %v", err)
	}
}

// TestRunPlansAgainWhenTheBranchMoves: a memory commit made by another
// writer between the plan and the commit makes the run plan again on
// it; both changes are kept.
func TestRunPlansAgainWhenTheBranchMoves(t *testing.T) {
	r := workspaceRepo(t, nil)
	r.stage(t, id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))
	run := r.runner(t, topicEngine{})
	other := r.branch(t)
	moved := false
	run.Hooks.Stage = func(s Stage) {
		if s != StageLinted || moved {
			return
		}
		moved = true
		in := planInput(nil)
		in.Base = mustSnapshot(t, r)
		p := &Plan{Input: in, Changes: changeSet(t, "memory/decisions/use-sqlite.md", decision("resolved", "# Use SQLite\nChosen elsewhere.\n", "s9"))}
		msg := memlog.Message{RunID: "other", Engine: "test", Ops: []memlog.Op{{Kind: memlog.OpAdd, Path: "memory/decisions/use-sqlite.md", Reason: "elsewhere"}}}
		text, _ := msg.Format()
		if _, err := other.Commit(context.Background(), gitstore.CommitRequest{Changes: p.Changes, Message: text, Author: gitstore.Signature{Name: "a", Email: "b", When: now}}); err != nil {
			t.Fatal(err)
		}
	}
	rep, err := run.Once(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	got := r.git(t, "show", rep.Result.Commit+":.yoi/memory/decisions/use-sqlite.md")
	if !strings.Contains(got, "Chosen elsewhere.") || !strings.Contains(got, "Chosen: sqlite") || !strings.Contains(got, "session_id: s9") || !strings.Contains(got, "session_id: s1") {
		t.Errorf("the run did not build on the other commit:\n%s", got)
	}
	if ops := rep.Plan.Message.Ops; len(ops) != 1 || ops[0].Kind != memlog.OpUpdate {
		t.Errorf("ops after planning again: %+v", ops)
	}
}
