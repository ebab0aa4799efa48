package review

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const decisionA = `---
created_at: 2025-12-01T10:00:00Z
updated_at: 2025-12-03T16:20:00Z
status: resolved
sources:
  - {session_id: s0, range: [1, 2]}
  - {session_id: s1, range: [3, 4]}
---
# Use SQLite

One file, no server.
Backups are a file copy.
Migrations run at start.
`

const decisionATrimmed = `---
created_at: 2025-12-01T10:00:00Z
updated_at: 2025-12-04T16:20:00Z
status: resolved
sources:
  - {session_id: s1, range: [3, 4]}
---
# Use SQLite

One file, no server.
`

const decisionB = `---
created_at: 2025-12-01T10:00:00Z
updated_at: 2025-12-03T16:20:00Z
status: resolved
sources:
  - {session_id: s0, range: [5, 6]}
---
# Old idea

Nobody reads this.
`

const knowledgeK = `---
kind: rule
description: How to retry HTTP calls
model_invokation: true
user_invocable: true
created_at: 2026-01-05T09:30:00Z
updated_at: 2026-01-05T09:30:00Z
last_sources: []
---
# Retry

Retry twice.
`

const memoryMessage = `yoimem: 1 added, 1 trimmed, 1 dropped

add knowledge/retry.md: retries came up in three sessions
trim memory/decisions/a.md [noisy]: backup and migration notes repeat the README
drop memory/decisions/b.md [outdated,unused]: nobody read it in 90 days

Yoimem-Run: 0194d29f-0c00-7000-8000-0000000000aa
Yoimem-Engine: rules
Yoimem-Consumed: 0194d29f-0c00-7000-8000-000000000001
Yoimem-Session: s2:1-9
Yoimem-Categories: outdated=1 superseded=0 unused=1 noisy=1
`

const evidenceNote = `{"version": 1, "run_id": "0194d29f-0c00-7000-8000-0000000000aa", "engine": "rules",
 "now": "2026-01-10T00:00:00Z", "base": "",
 "entries": [{"version": 1, "id": "0194d29f-0c00-7000-8000-000000000001", "created_at": "2026-01-09T00:00:00Z",
   "source": {"session_id": "s3", "range": [2, 7]}, "agent": "native", "model": "m",
   "activity": {}}],
 "usage": {".yoi/memory/decisions/a.md": {"uses": 7, "frequency": 12.5, "known": true, "protected": true},
           ".yoi/memory/decisions/b.md": {"uses": 0, "frequency": 0, "known": true, "unused": true}},
 "candidates": [".yoi/memory/decisions/a.md"], "locked": [], "lint": {"max_file_bytes": 0, "caps": {}, "description_chars": 0, "sources_warn": 0}}
`

// gitEnv isolates git from the user's configuration and fixes the
// dates, so commit hashes are the same on every run.
func gitEnv(home string) []string {
	return append(os.Environ(), "HOME="+home, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL="+filepath.Join(home, "gitconfig"),
		"GIT_AUTHOR_NAME=T", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=T", "GIT_COMMITTER_EMAIL=t@example.com",
		"GIT_AUTHOR_DATE=2026-01-10T00:00:00Z", "GIT_COMMITTER_DATE=2026-01-10T00:00:00Z")
}

func run(t *testing.T, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

func write(t *testing.T, dir, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// history builds main (two decisions) and a memory branch on it: one
// memory commit with a note, then a commit that is not one.
func history(t *testing.T) (Source, context.Context) {
	t.Helper()
	return historyIn(t, "")
}

// historyIn is history with the workspace in the directory root of the
// repository ("" for its top level, else ending in "/").
func historyIn(t *testing.T, root string) (Source, context.Context) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir, home := t.TempDir(), t.TempDir()
	env := gitEnv(home)
	run(t, dir, env, "init", "-q", "-b", "main")
	write(t, dir, root+".yoi/memory/decisions/a.md", decisionA)
	write(t, dir, root+".yoi/memory/decisions/b.md", decisionB)
	write(t, dir, "README.md", "hello\n")
	run(t, dir, env, "add", "-A")
	run(t, dir, env, "commit", "-q", "-m", "memory layout")
	run(t, dir, env, "checkout", "-q", "-b", "yoimem/memory")
	write(t, dir, root+".yoi/memory/decisions/a.md", decisionATrimmed)
	write(t, dir, root+".yoi/knowledge/retry.md", knowledgeK)
	run(t, dir, env, "rm", "-q", root+".yoi/memory/decisions/b.md")
	run(t, dir, env, "add", "-A")
	run(t, dir, env, "commit", "-q", "-m", memoryMessage)
	run(t, dir, env, "notes", "--ref=refs/notes/yoimem", "add", "-m", evidenceNote, "HEAD")
	write(t, dir, "README.md", "hello again\n")
	run(t, dir, env, "commit", "-q", "-am", "docs: not a memory commit")
	ctx := context.Background()
	repo, err := gitstore.Locate(ctx, gitstore.Git{Dir: dir, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	obj, err := gitstore.OpenObjects(repo)
	if err != nil {
		t.Fatal(err)
	}
	return Source{Repo: repo, Prefix: root + ".yoi", Notes: &gitstore.Notes{Repo: repo, Objects: obj, Ref: "refs/notes/yoimem"}}, ctx
}

func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test ./review -update rewrites it):\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestBuildMarkdownGolden(t *testing.T) {
	src, ctx := history(t)
	rep, err := Build(ctx, src, "main..yoimem/memory")
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "review.md", Markdown(rep))
}

func TestBuildReport(t *testing.T) {
	src, ctx := history(t)
	rep, err := Build(ctx, src, "main..yoimem/memory")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Commits) != 1 || len(rep.Skipped) != 1 {
		t.Fatalf("commits %d, skipped %d; want 1 and 1", len(rep.Commits), len(rep.Skipped))
	}
	c := rep.Commits[0]
	var names []string
	for _, g := range c.Groups {
		names = append(names, g.Name)
	}
	if got := strings.Join(names, " "); got != "outdated unused noisy add" {
		t.Errorf("groups %q", got)
	}
	if len(c.NewRecords) != 1 || c.NewRecords[0] != ".yoi/knowledge/retry.md" {
		t.Errorf("new records %q", c.NewRecords)
	}
	if len(c.Losses) != 2 {
		t.Fatalf("losses %+v; want a.md (trimmed) and b.md (removed)", c.Losses)
	}
	a := c.Losses[0]
	if a.Path != ".yoi/memory/decisions/a.md" || a.Removed || strings.Join(a.LostSources, ",") != "s0:1-2" || a.RemovedLine != 2 || a.BodyLines != 4 {
		t.Errorf("a.md loss %+v", a)
	}
	if b := c.Losses[1]; !b.Removed || b.Path != ".yoi/memory/decisions/b.md" {
		t.Errorf("b.md loss %+v", b)
	}
	if len(c.Protected) != 1 || c.Protected[0].Path != ".yoi/memory/decisions/a.md" || c.Protected[0].Frequency != 12.5 || c.Protected[0].Uses != 7 {
		t.Errorf("protected %+v", c.Protected)
	}
	if len(c.NewKnowledge) != 1 || strings.Join(c.NewKnowledge[0].Candidates, ",") != ".yoi/memory/decisions/a.md" {
		t.Errorf("new knowledge %+v", c.NewKnowledge)
	}
	if got := strings.Join(c.Sessions, " "); got != "s2:1-9 s3:2-7" {
		t.Errorf("sessions %q; want the trailer's and the note's", got)
	}
	if len(c.Unrecovered) != 0 {
		t.Errorf("unrecovered %q", c.Unrecovered)
	}
}

// TestBuildJSONShape: keys are snake_case and lists are never null.
func TestBuildJSONShape(t *testing.T) {
	src, ctx := history(t)
	rep, err := Build(ctx, src, "main..yoimem/memory")
	if err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(rep)
	if err != nil {
		t.Fatal(err)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(b, &top); err != nil {
		t.Fatal(err)
	}
	var commits []map[string]json.RawMessage
	if err := json.Unmarshal(top["commits"], &commits); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"commit", "date", "subject", "run_id", "engine", "groups", "new_records", "possible_losses", "protected_touched", "new_knowledge", "sessions", "unrecovered"} {
		v, ok := commits[0][k]
		if !ok || string(v) == "null" {
			t.Errorf("key %q: %s", k, v)
		}
	}
	if !strings.Contains(string(b), `"judged":"run"`) || !strings.Contains(string(b), `"removed_lines":2`) || !strings.Contains(string(b), `"lost_sources":["s0:1-2"]`) {
		t.Errorf("loss keys: %s", b)
	}
}

func TestBuildEmptyRangeAndNoNote(t *testing.T) {
	src, ctx := history(t)
	rep, err := Build(ctx, src, "yoimem/memory..yoimem/memory")
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Commits) != 0 || len(rep.Skipped) != 0 || rep.Commits == nil || rep.Skipped == nil {
		t.Errorf("empty range: %+v", rep)
	}
	src.Notes.Ref = "refs/notes/none"
	rep, err = Build(ctx, src, "main..yoimem/memory")
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Commits[0]
	if len(c.Unrecovered) != 1 || !strings.Contains(c.Unrecovered[0], "no evidence note in refs/notes/yoimem") || len(c.Protected) != 0 {
		t.Errorf("without a note: unrecovered %q, protected %+v", c.Unrecovered, c.Protected)
	}
	if got := strings.Join(c.Sessions, " "); got != "s2:1-9" {
		t.Errorf("sessions without a note %q; want the trailer's", got)
	}
}

func TestBuildBadRange(t *testing.T) {
	src, ctx := history(t)
	_, err := Build(ctx, src, "main..nosuch")
	var ge *gitstore.Error
	if !errors.As(err, &ge) || ge.ExitCode != 128 {
		t.Fatalf("err %v; want git's refusal", err)
	}
}

// TestBuildProtectedJudgedNow: a commit without its note (notes are not
// fetched by default) has its protected records judged now, by
// consolidation's JudgeUsage over this machine's usage and the run files
// of the commit's parent, and says so.
func TestBuildProtectedJudgedNow(t *testing.T) {
	src, ctx := history(t)
	src.Notes.Ref = "refs/notes/none"
	at := func(min int) time.Time { return time.Date(2026, 1, 9, 0, min, 0, 0, time.UTC) }
	use := func(id string, min int, session string) metrics.Event {
		return metrics.Event{ID: id, Time: at(min), Session: session, Record: "memory/decisions/a.md", How: metrics.HowSearch}
	}
	local := metrics.Data{
		Events: []metrics.Event{use("u0", 0, "s0"), use("u1", 1, "s1"), use("u2", 2, "s2")},
		Ticks:  []metrics.Tick{{Time: at(-100), Session: "x", From: 1, To: 1, Tokens: 20_000_000}, {Time: at(5), Session: "x", From: 2, To: 2, Tokens: 1_000_000}},
	}
	src.Judge = consolidate.JudgeUsage(func() (metrics.Data, error) { return local, nil }, metrics.Params{Window: 10, Protect: 1.0, CandidateFrequency: 1.0, CandidateSessions: 2})
	rep, err := Build(ctx, src, "main..yoimem/memory")
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Commits[0]
	if len(c.Protected) != 1 || c.Protected[0].Path != ".yoi/memory/decisions/a.md" || c.Protected[0].Uses != 3 || c.Protected[0].Judged != "now" {
		t.Errorf("protected %+v; want a.md judged now with 3 uses", c.Protected)
	}
	if len(c.Unrecovered) != 1 || !strings.Contains(c.Unrecovered[0], "usage judged now") {
		t.Errorf("unrecovered %q", c.Unrecovered)
	}
	src.Judge = func(record.Snapshot) (map[string]consolidate.RecordUsage, []string, error) {
		return nil, nil, errors.New("journal broken")
	}
	if _, err := Build(ctx, src, "main..yoimem/memory"); err == nil || !strings.Contains(err.Error(), "journal broken") {
		t.Errorf("a usage that cannot be read: %v", err)
	}
}

// TestBuildInterrupted: a canceled review stops with the context's error
// (the command's exit 130), not as a git failure.
func TestBuildInterrupted(t *testing.T) {
	src, ctx := history(t)
	ctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Build(ctx, src, "main..yoimem/memory"); !errors.Is(err, context.Canceled) {
		t.Errorf("err %v; want context.Canceled", err)
	}
}

// TestBuildRecordOverLimit: a record blob over MaxRead is not read; its
// loss is not measured, and the review says so with its size, the limit
// and the key that sets it.
func TestBuildRecordOverLimit(t *testing.T) {
	src, ctx := history(t)
	src.MaxRead = 200
	rep, err := Build(ctx, src, "main..yoimem/memory")
	if err != nil {
		t.Fatal(err)
	}
	c := rep.Commits[0]
	want := ".yoi/memory/decisions/a.md before the commit is 257 bytes, over the limit of 200 (yoimem.lint.maxFileBytes): its loss is not measured"
	if strings.Join(c.Unrecovered, "\n") != want {
		t.Errorf("unrecovered %q;\nwant %q", c.Unrecovered, want)
	}
	for _, l := range c.Losses {
		if l.Path == ".yoi/memory/decisions/a.md" {
			t.Errorf("a.md measured: %+v", l)
		}
	}
}

// TestBuildSubdirectoryWorkspace: a workspace below the top level reads
// the same, its paths printed from the workspace root.
func TestBuildSubdirectoryWorkspace(t *testing.T) {
	top, ctx := history(t)
	sub, _ := historyIn(t, "svc/api/")
	want, err := Build(ctx, top, "main..yoimem/memory")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Build(ctx, sub, "main..yoimem/memory")
	if err != nil {
		t.Fatal(err)
	}
	w, g := want.Commits[0], got.Commits[0]
	w.Commit, g.Commit = "", ""
	wj, _ := json.Marshal(w)
	gj, _ := json.Marshal(g)
	if string(wj) != string(gj) {
		t.Errorf("in svc/api/:\n%s\nat the top:\n%s", gj, wj)
	}
}
