package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// manyNoted writes n commits on refs/heads/many and a note on each on
// refs/notes/yoimem through git fast-import, which fans the notes tree
// out (xx/yyyy…) past 256 notes, as git notes does. It returns the
// commits, oldest first.
func manyNoted(t *testing.T, dir string, env []string, n int) []string {
	t.Helper()
	var in bytes.Buffer
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&in, "commit refs/heads/many\nmark :%d\ncommitter T <t@x> %d +0000\ndata <<EOF\nc%d\nEOF\n\n", i, 1112911993+i, i)
	}
	fmt.Fprintf(&in, "commit refs/notes/yoimem\ncommitter T <t@x> 1112911993 +0000\ndata <<EOF\nnotes\nEOF\n")
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&in, "N inline :%d\ndata <<EOF\nnote %d\nEOF\n", i, i)
	}
	cmd := exec.Command("git", "fast-import", "--quiet")
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, &in
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("fast-import: %v\n%s", err, out)
	}
	return strings.Fields(runGit(t, dir, env, "rev-list", "--reverse", "refs/heads/many"))
}

func notesOf(t *testing.T, dir string, env []string) *Notes {
	t.Helper()
	m := openBranch(t, dir, env)
	return &Notes{Repo: m.Repo, Objects: m.Objects, Ref: "refs/notes/yoimem"}
}

// TestNotesMoveFannedOut: the note of a replayed commit moves to its
// copy in a notes tree fanned out into directories; git reads it there,
// and the original has none.
func TestNotesMoveFannedOut(t *testing.T) {
	dir, env := newRepo(t)
	commits := manyNoted(t, dir, env, 300)
	if top := runGit(t, dir, env, "ls-tree", "--name-only", "refs/notes/yoimem"); len(strings.Fields(top)[0]) != 2 {
		t.Fatalf("the notes tree is not fanned out: %.80s", top)
	}
	n := notesOf(t, dir, env)
	all, err := n.List(context.Background(), "")
	if err != nil || len(all) != 300 {
		t.Fatalf("List: %d notes, %v", len(all), err)
	}
	old := commits[41]
	copyOf := treeCommit(t, dir, env, "copy", []string{commits[299]})
	noted := commits[42] // a copy that has a note keeps it
	same := treeCommit(t, dir, env, "copy 2", []string{commits[299]}, "f", "2")
	runGit(t, dir, env, "notes", "--ref", "yoimem", "add", "-m", "note 46", same) // the note of commits[45]
	moved, err := n.Move(context.Background(), []Rewritten{{Old: old, New: copyOf}, {Old: commits[43], New: noted}, {Old: copyOf, New: commits[0]}, {Old: commits[45], New: same}}, "move", syncWho)
	if err != nil {
		t.Fatal(err)
	}
	if moved != 1 {
		t.Fatalf("moved %d, want 1", moved)
	}
	if got := runGit(t, dir, env, "notes", "--ref", "yoimem", "show", copyOf); got != "note 42" {
		t.Fatalf("the copy's note = %q", got)
	}
	if list := runGit(t, dir, env, "notes", "--ref", "yoimem", "list"); strings.Contains(list, " "+old) {
		t.Fatalf("the original %s still has a note", old)
	}
	if got := runGit(t, dir, env, "notes", "--ref", "yoimem", "show", noted); got != "note 43" {
		t.Fatalf("a noted copy's note = %q, want its own", got)
	}
	if got := runGit(t, dir, env, "notes", "--ref", "yoimem", "show", commits[43]); got != "note 44" {
		t.Fatalf("a note not moved (its copy had one) = %q", got)
	}
	if list := runGit(t, dir, env, "notes", "--ref", "yoimem", "list"); strings.Contains(list, " "+commits[45]) {
		t.Fatalf("the original %s keeps the note its copy has", commits[45])
	}
	// 300, one moved, one added by hand, one the same as its copy's gone
	if got := len(strings.Split(runGit(t, dir, env, "notes", "--ref", "yoimem", "list"), "\n")); got != 300 {
		t.Fatalf("%d notes, want 300", got)
	}
}

// TestNotesMerge: the remote's notes come in by fast-forward, or by a
// merge commit holding both sides' notes; a note both sides wrote
// differently keeps ours and is named.
func TestNotesMerge(t *testing.T) {
	type tc struct {
		name string
		// ours and theirs notes commits from the shared one
		build        func(t *testing.T, dir string, env []string, shared string, objs []string) (ours, theirs string)
		want         Integration
		added        int
		differing    int
		at           func(ours, theirs string) string // where the ref ends ("": a new merge)
		wantNotes    map[int]string
		wantParents2 bool
	}
	add := func(t *testing.T, dir string, env []string, parent, obj, text string) string {
		runGit(t, dir, env, "update-ref", "refs/notes/scratch", parent)
		runGit(t, dir, env, "notes", "--ref", "scratch", "add", "-f", "-m", text, obj)
		return runGit(t, dir, env, "rev-parse", "refs/notes/scratch")
	}
	tests := []tc{
		{name: "up to date", want: UpToDate,
			build: func(t *testing.T, dir string, env []string, s string, o []string) (string, string) { return s, s },
			at:    func(ours, theirs string) string { return ours }},
		{name: "none here: created", want: Created,
			build: func(t *testing.T, dir string, env []string, s string, o []string) (string, string) { return "", s },
			at:    func(ours, theirs string) string { return theirs }},
		{name: "fast-forward", want: FastForward,
			build: func(t *testing.T, dir string, env []string, s string, o []string) (string, string) {
				return s, add(t, dir, env, s, o[1], "theirs 1")
			},
			at: func(ours, theirs string) string { return theirs }, wantNotes: map[int]string{0: "shared 0", 1: "theirs 1"}},
		{name: "ahead", want: Ahead,
			build: func(t *testing.T, dir string, env []string, s string, o []string) (string, string) {
				return add(t, dir, env, s, o[1], "ours 1"), s
			},
			at: func(ours, theirs string) string { return ours }},
		{name: "diverged: both sides' notes", want: Replayed, added: 1, wantParents2: true,
			build: func(t *testing.T, dir string, env []string, s string, o []string) (string, string) {
				return add(t, dir, env, s, o[1], "ours 1"), add(t, dir, env, s, o[2], "theirs 2")
			},
			wantNotes: map[int]string{0: "shared 0", 1: "ours 1", 2: "theirs 2"}},
		{name: "diverged: one object noted differently keeps ours", want: Replayed, added: 1, differing: 1, wantParents2: true,
			build: func(t *testing.T, dir string, env []string, s string, o []string) (string, string) {
				ours := add(t, dir, env, s, o[1], "ours 1")
				theirs := add(t, dir, env, add(t, dir, env, s, o[1], "theirs 1"), o[2], "theirs 2")
				return ours, theirs
			},
			wantNotes: map[int]string{1: "ours 1", 2: "theirs 2"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, env := newRepo(t)
			var objs []string
			for i := 0; i < 3; i++ {
				objs = append(objs, treeCommit(t, dir, env, fmt.Sprint("c", i), nil, "f", fmt.Sprint(i)))
			}
			runGit(t, dir, env, "notes", "--ref", "scratch", "add", "-m", "shared 0", objs[0])
			shared := runGit(t, dir, env, "rev-parse", "refs/notes/scratch")
			ours, theirs := tt.build(t, dir, env, shared, objs)
			if ours != "" {
				runGit(t, dir, env, "update-ref", "refs/notes/yoimem", ours)
			}
			res, err := notesOf(t, dir, env).Merge(context.Background(), theirs, "merge", syncWho)
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != tt.want || res.Added != tt.added || len(res.Differing) != tt.differing {
				t.Fatalf("%+v, want %s, %d added, %d differing", res, tt.want, tt.added, tt.differing)
			}
			tip := runGit(t, dir, env, "rev-parse", "refs/notes/yoimem")
			if tt.at != nil && tip != tt.at(ours, theirs) {
				t.Fatalf("ref at %s", tip)
			}
			if tt.wantParents2 {
				if got := runGit(t, dir, env, "rev-parse", tip+"^1", tip+"^2"); got != ours+"\n"+theirs {
					t.Fatalf("parents %s, want ours and theirs", got)
				}
				if tt.differing == 1 && res.Differing[0] != objs[1] {
					t.Fatalf("differing %v, want %s", res.Differing, objs[1])
				}
			}
			for i, want := range tt.wantNotes {
				if got := runGit(t, dir, env, "notes", "--ref", "yoimem", "show", objs[i]); got != want {
					t.Errorf("note of c%d = %q, want %q", i, got, want)
				}
			}
		})
	}
}
