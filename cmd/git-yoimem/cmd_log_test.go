package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/fixture"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// sampleRepo builds testdata/repos/sample.txtar in a temporary directory
// and returns it with the HOME of its isolated git configuration.
func sampleRepo(t *testing.T) (dir, home string) {
	t.Helper()
	archive, err := os.ReadFile("../../testdata/repos/sample.txtar")
	if err != nil {
		t.Fatal(err)
	}
	dir, home = filepath.Join(t.TempDir(), "repo"), t.TempDir()
	if err := fixture.Repo(archive, dir, home); err != nil {
		t.Fatal(err)
	}
	return dir, home
}

// testEnv runs the program in-process in dir with an isolated git.
func testEnv(t *testing.T, dir, home string) (Env, *bytes.Buffer, *bytes.Buffer) {
	var stdout, stderr bytes.Buffer
	environ := fixture.Env(home)
	return Env{
		Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr,
		Getenv:  func(k string) string { return lookup(environ, k) },
		Environ: func() []string { return append([]string(nil), environ...) },
		Dir:     dir,
		Now:     func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
	}, &stdout, &stderr
}

func lookup(env []string, k string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, k+"="); ok {
			return v
		}
	}
	return ""
}

// TestLogRoundTrip: messages written by the memory-branch writer come back
// through 'git yoimem log --format json' as they were written.
func TestLogRoundTrip(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir, home := sampleRepo(t)
	env, stdout, stderr := testEnv(t, dir, home)
	ctx := context.Background()
	repo, err := gitstore.Locate(ctx, gitstore.Git{Dir: dir, Env: env.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	objs, err := gitstore.OpenObjects(repo)
	if err != nil {
		t.Fatal(err)
	}
	mb := &gitstore.MemoryBranch{Repo: repo, Objects: objs, Branch: "yoimem/memory", Base: "refs/heads/main", Prefix: ".yoi"}
	written := []*memlog.Message{
		{RunID: "run-1", Engine: "rules", Consumed: []string{"s-1"}, Sessions: []string{"sess:1-9"},
			Ops: []memlog.Op{{Kind: memlog.OpAdd, Path: "memory/requests/a.md", Reason: "asked in sess"}}},
		{RunID: "run-2", Engine: "llm", Model: "anthropic:claude-sonnet-4-5",
			Ops: []memlog.Op{
				{Kind: memlog.OpReplace, Path: "memory/decisions/json-logs.md", Target: "memory/decisions/structured-logging.md", Categories: []memlog.Category{memlog.CategorySuperseded}, Reason: "slog wins"},
				{Kind: memlog.OpDrop, Path: "memory/requests/a.md", Categories: []memlog.Category{memlog.CategoryUnused}, Reason: "never read"},
			}},
	}
	for i, m := range written {
		text, err := m.Format()
		if err != nil {
			t.Fatal(err)
		}
		var cs record.ChangeSet
		_ = cs.Put(record.Change{Path: "memory/requests/a.md", Content: []byte{byte('a' + i)}})
		if _, err := mb.Commit(ctx, gitstore.CommitRequest{Changes: &cs, Message: text, Author: gitstore.Signature{Name: "git-yoimem", Email: "y@localhost", When: time.Unix(1767225600+int64(i), 0).UTC()}}); err != nil {
			t.Fatal(err)
		}
	}
	if code := run(ctx, []string{"git-yoimem", "log", "--format", "json"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var got []gitstore.MemoryCommit
	if err := json.Unmarshal(stdout.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, stdout)
	}
	if len(got) != 2 {
		t.Fatalf("%d entries", len(got))
	}
	for i, e := range got {
		want := written[len(written)-1-i] // newest first
		want.Subject = memlog.CountSubject(want.Ops)
		want = displayOps(want)   // printed from the workspace root
		if want.Consumed == nil { // JSON lists are [] rather than null
			want.Consumed = []string{}
		}
		if want.Sessions == nil {
			want.Sessions = []string{}
		}
		if e.Subject != want.Subject || e.RunID != want.RunID || e.Engine != want.Engine || e.Model != want.Model ||
			!reflect.DeepEqual(e.Ops, want.Ops) || !reflect.DeepEqual(e.Consumed, want.Consumed) || !reflect.DeepEqual(e.Sessions, want.Sessions) {
			t.Errorf("entry %d:\n got %+v\nwant %+v", i, e.Message, want)
		}
	}
	if got[0].Categories[memlog.CategorySuperseded] != 1 || got[0].Categories[memlog.CategoryUnused] != 1 {
		t.Errorf("categories %v", got[0].Categories)
	}

	// merge brings the memory into main; a dirty .yoi/ refuses it first.
	if err := os.WriteFile(filepath.Join(dir, ".yoi/memory/requests/wip.md"), []byte("wip"), 0o644); err != nil {
		t.Fatal(err)
	}
	stdout.Reset()
	stderr.Reset()
	if code := run(ctx, []string{"git-yoimem", "merge"}, env); code != exitFindings || !strings.Contains(stderr.String(), "uncommitted changes") {
		t.Fatalf("dirty merge: exit %d: %s", code, stderr)
	}
	os.Remove(filepath.Join(dir, ".yoi/memory/requests/wip.md"))
	if code := run(ctx, []string{"git-yoimem", "merge"}, env); code != 0 {
		t.Fatalf("merge: exit %d: %s", code, stderr)
	}
	// main now contains the memory tip (a fast-forward here: main had not moved).
	cmd := exec.Command("git", "merge-base", "--is-ancestor", "yoimem/memory", "HEAD")
	cmd.Dir, cmd.Env = dir, env.Environ()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("memory tip not in HEAD after merge: %v %s", err, out)
	}
	if b, err := os.ReadFile(filepath.Join(dir, ".yoi/memory/requests/a.md")); err != nil || string(b) != "b" {
		t.Fatalf("merged file: %q %v", b, err)
	}
}
