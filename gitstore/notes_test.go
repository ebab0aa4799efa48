package gitstore

import (
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

func openNotes(t testing.TB, m *MemoryBranch) *Notes {
	t.Helper()
	return &Notes{Repo: m.Repo, Objects: m.Objects, Ref: "refs/notes/yoimem"}
}

// TestNotesAdd: a note written with plumbing is what git notes shows; a
// second note on the same commit replaces it; one on another commit
// keeps the first; Read reads them back.
func TestNotesAdd(t *testing.T) {
	m, dir, env := memRepo(t)
	ctx := context.Background()
	n := openNotes(t, m)
	a := commit(t, m, changes(t, "knowledge/a.md", "A\n"), 1).Commit
	b := commit(t, m, changes(t, "knowledge/b.md", "B\n"), 2).Commit
	who := Signature{Name: "git-yoimem", Email: "yoimem@localhost", When: when}
	if err := n.Add(ctx, a, []byte("evidence of a\n"), "run 1", who); err != nil {
		t.Fatal(err)
	}
	if got := runGit(t, dir, env, "notes", "--ref", "yoimem", "show", a); got != "evidence of a" {
		t.Fatalf("git notes show = %q", got)
	}
	if err := n.Add(ctx, b, []byte("evidence of b\n"), "run 2", who); err != nil {
		t.Fatal(err)
	}
	if err := n.Add(ctx, a, []byte("evidence of a, again\n"), "run 1 redone", who); err != nil {
		t.Fatal(err)
	}
	for c, want := range map[string]string{a: "evidence of a, again", b: "evidence of b"} {
		if got := runGit(t, dir, env, "notes", "--ref", "yoimem", "show", c); got != want {
			t.Errorf("git notes show %s = %q, want %q", c, got, want)
		}
		got, ok, err := n.Read(ctx, c)
		if err != nil || !ok || strings.TrimSpace(string(got)) != want {
			t.Errorf("Read %s = %q, %v, %v", c, got, ok, err)
		}
	}
	if _, ok, err := n.Read(ctx, runGit(t, dir, env, "rev-parse", "main")); ok || err != nil {
		t.Errorf("Read of a commit without a note = %v, %v", ok, err)
	}
	if got := runGit(t, dir, env, "log", "--format=%s", "refs/notes/yoimem"); got != "run 1 redone\nrun 2\nrun 1" {
		t.Errorf("notes history:\n%s", got)
	}
	// Nothing else moved.
	if st := runGit(t, dir, env, "status", "--porcelain"); st != "" {
		t.Errorf("status: %s", st)
	}
	if out, err := runGitErr(dir, env, "fsck", "--strict", "--no-dangling"); err != nil || strings.TrimSpace(out) != "" {
		t.Fatalf("fsck: %v %s", err, out)
	}
}

// TestNotesFanout: in a notes tree git has fanned out (xx/yyyy… paths,
// as it does past a few hundred notes), a note is read where git put it
// and a new one goes where git reads it, once.
func TestNotesFanout(t *testing.T) {
	m, dir, env := memRepo(t)
	ctx := context.Background()
	var commits []string
	var script strings.Builder
	for i := 0; i < 600; i++ {
		fmt.Fprintf(&script, "commit refs/heads/many\nmark :%d\ncommitter a <b> 1112911993 +0000\ndata 2\n%d\n", i+1, i%10)
		if i > 0 {
			fmt.Fprintf(&script, "from :%d\n", i)
		}
		script.WriteString("\n")
	}
	script.WriteString("commit refs/notes/yoimem\ncommitter a <b> 1112911993 +0000\ndata 5\nmany\n")
	for i := 0; i < 600; i++ {
		fmt.Fprintf(&script, "N inline :%d\ndata 7\nnote%03d\n", i+1, i)
	}
	script.WriteString("\n")
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = strings.NewReader(script.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
	commits = strings.Split(runGit(t, dir, env, "rev-list", "--reverse", "many"), "\n")
	if tree := runGit(t, dir, env, "ls-tree", "--name-only", "refs/notes/yoimem"); !strings.Contains(tree, "\n") || len(strings.Split(tree, "\n")[0]) != 2 {
		t.Fatalf("git did not fan the notes out:\n%.200s", tree)
	}
	n := openNotes(t, m)
	got, ok, err := n.Read(ctx, commits[123])
	if err != nil || !ok || string(got) != "note123" {
		t.Fatalf("Read of a fanned-out note = %q, %v, %v", got, ok, err)
	}
	target := commit(t, m, changes(t, "knowledge/z.md", "Z\n"), 3).Commit
	who := Signature{Name: "a", Email: "b", When: when}
	for _, c := range []string{target, commits[5]} {
		if err := n.Add(ctx, c, []byte("ours\n"), "ours", who); err != nil {
			t.Fatal(err)
		}
		if got := runGit(t, dir, env, "notes", "--ref", "yoimem", "show", c); got != "ours" {
			t.Errorf("git notes show %s = %q", c, got)
		}
	}
	if list := runGit(t, dir, env, "notes", "--ref", "yoimem", "list"); strings.Count(list, "\n")+1 != 601 {
		t.Errorf("git notes list has %d notes, want 601", strings.Count(list, "\n")+1)
	}
	flat := runGit(t, dir, env, "ls-tree", "-r", "--name-only", "refs/notes/yoimem")
	if strings.Contains(flat, target) || !strings.Contains(flat, target[:2]+"/"+target[2:]) {
		t.Errorf("the new note is not in git's fanout")
	}
}
