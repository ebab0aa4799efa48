package gitstore

import (
	"context"
	"strings"
	"testing"
)

// TestParentAfterSquashOrRebaseMerge: a memory branch whose changes reached
// the base by squash or by cherry-picks (GitHub's rebase merge) is merged,
// though its tip is no ancestor of the base: the next memory commit starts
// from the base tip, carries only its own change, and says why in the
// reflog. A branch whose changes are not (all) in the base stays the parent.
func TestParentAfterSquashOrRebaseMerge(t *testing.T) {
	type setup func(t *testing.T, dir string, env []string)
	squash := func(t *testing.T, dir string, env []string) {
		runGit(t, dir, env, "merge", "-q", "--squash", "yoimem/memory")
		runGit(t, dir, env, "commit", "-q", "-m", "memory (squashed)")
	}
	codeCommit := func(t *testing.T, dir string, env []string, name string) {
		writeFile(t, dir, "src/"+name, []byte(name+"\n"), 0o644)
		runGit(t, dir, env, "add", "-A")
		runGit(t, dir, env, "commit", "-q", "-m", "code "+name)
	}
	tests := []struct {
		name   string
		before setup // on main, before the merge
		merge  setup // brings (some of) the memory into main
		after  setup // on main, after the merge
		merged bool
	}{
		{name: "squash", merge: squash, merged: true},
		{name: "squash, then code and a hand edit of a squashed record",
			merge: squash,
			after: func(t *testing.T, dir string, env []string) {
				codeCommit(t, dir, env, "later.go")
				writeFile(t, dir, ".yoi/knowledge/a.md", []byte("A, edited by hand\n"), 0o644)
				runGit(t, dir, env, "commit", "-q", "-am", "edit a")
			}, merged: true},
		{name: "squash after main edited another record",
			before: func(t *testing.T, dir string, env []string) {
				writeFile(t, dir, ".yoi/knowledge/other.md", []byte("other, by hand\n"), 0o644)
				runGit(t, dir, env, "add", "-A")
				runGit(t, dir, env, "commit", "-q", "-m", "add other")
			},
			merge: squash, merged: true},
		{name: "cherry-picks (GitHub rebase merge)",
			before: func(t *testing.T, dir string, env []string) { codeCommit(t, dir, env, "x.go") },
			merge: func(t *testing.T, dir string, env []string) {
				runGit(t, dir, env, "cherry-pick", "main..yoimem/memory")
			}, merged: true},
		{name: "rebase of the branch then fast-forward",
			before: func(t *testing.T, dir string, env []string) { codeCommit(t, dir, env, "x.go") },
			merge: func(t *testing.T, dir string, env []string) {
				runGit(t, dir, env, "rebase", "-q", "main", "yoimem/memory")
				runGit(t, dir, env, "switch", "-q", "main")
				runGit(t, dir, env, "merge", "-q", "--ff-only", "yoimem/memory")
			}, merged: true},
		{name: "not merged, main moved",
			merge: func(t *testing.T, dir string, env []string) { codeCommit(t, dir, env, "x.go") }},
		{name: "squashed, then main took the change back",
			merge: squash,
			after: func(t *testing.T, dir string, env []string) {
				runGit(t, dir, env, "revert", "--no-edit", "HEAD")
			}, merged: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, dir, env := memRepo(t)
			ctx := context.Background()
			commit(t, m, changes(t, "knowledge/a.md", "A\n"), 1)
			second := commit(t, m, changes(t, "knowledge/b.md", "B\n", "knowledge/keep.md", ""), 2)
			for _, s := range []setup{tt.before, tt.merge, tt.after} {
				if s != nil {
					s(t, dir, env)
				}
			}
			base := runGit(t, dir, env, "rev-parse", "main")
			tip := runGit(t, dir, env, "rev-parse", "yoimem/memory")
			want := tip
			if tt.merged {
				want = base
			}
			if got, err := m.Parent(ctx); err != nil || got != want {
				t.Fatalf("Parent = %q, %v; want %s (merged %v; base %s, memory %s)", got, err, want, tt.merged, base, tip)
			}
			if merged, err := m.Merged(ctx); err != nil || merged != tt.merged {
				t.Fatalf("Merged = %v, %v; want %v", merged, err, tt.merged)
			}
			since, err := m.UnmergedSince(ctx)
			if unmerged := runGit(t, dir, env, "rev-list", since+"..yoimem/memory"); err != nil || (unmerged == "") != tt.merged {
				t.Fatalf("UnmergedSince = %q, %v: unmerged commits %q, want none only when merged (%v)", since, err, unmerged, tt.merged)
			}
			next := commit(t, m, changes(t, "knowledge/c.md", "C\n"), 3)
			if next.Parent != want {
				t.Fatalf("commit built on %s, want %s", next.Parent, want)
			}
			if !tt.merged {
				return
			}
			if diff := runGit(t, dir, env, "diff", "--name-only", "main", "yoimem/memory"); diff != ".yoi/knowledge/c.md" {
				t.Fatalf("diff main yoimem/memory = %q, want only the new record", diff)
			}
			if tip != base && tip == second.Commit {
				reflog := runGit(t, dir, env, "reflog", "-1", "--format=%gs", "yoimem/memory")
				if !strings.Contains(reflog, "squash") || !strings.Contains(reflog, "refs/heads/main") {
					t.Fatalf("reflog = %q, want it to say the branch restarted from the base after a squash or rebase merge", reflog)
				}
			}
		})
	}
}

// TestParentAfterPartialSquash: when only the first memory commits reached
// the base (picked, or squashed before more were made), the rest are
// replayed onto the base tip commit by commit, message and author kept,
// and the next commit goes on them: nothing unmerged is lost and nothing
// merged is carried again. A replay that would overwrite what the base
// changed since is not made: the memory tip stays the parent.
func TestParentAfterPartialSquash(t *testing.T) {
	tests := []struct {
		name       string
		merge      func(t *testing.T, dir string, env []string)
		replay     bool
		handCommit bool // the memory branch's last commit is made by hand, outside .yoi/
	}{
		{name: "first commit picked", replay: true, merge: func(t *testing.T, dir string, env []string) {
			runGit(t, dir, env, "cherry-pick", "yoimem/memory~1")
		}},
		{name: "first commit picked, then its record edited on the base", merge: func(t *testing.T, dir string, env []string) {
			runGit(t, dir, env, "cherry-pick", "yoimem/memory~1")
			writeFile(t, dir, ".yoi/knowledge/a.md", []byte("A, by hand\n"), 0o644)
			runGit(t, dir, env, "commit", "-q", "-am", "edit a")
		}},
		{name: "first commit picked, the rest is a hand commit outside .yoi/", handCommit: true, merge: func(t *testing.T, dir string, env []string) {
			runGit(t, dir, env, "cherry-pick", "yoimem/memory~1")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, dir, env := memRepo(t)
			ctx := context.Background()
			commit(t, m, changes(t, "knowledge/a.md", "A\n"), 1)
			second := commit(t, m, changes(t, "knowledge/a.md", "A2\n", "knowledge/b.md", "B\n"), 2)
			if tt.handCommit {
				runGit(t, dir, env, "switch", "-q", "--detach", "yoimem/memory~1")
				writeFile(t, dir, "src/hack.go", []byte("package main\n"), 0o644)
				runGit(t, dir, env, "add", "-A")
				runGit(t, dir, env, "commit", "-q", "-m", "by hand")
				runGit(t, dir, env, "branch", "-f", "yoimem/memory", "HEAD")
				runGit(t, dir, env, "switch", "-q", "main")
				second.Commit = runGit(t, dir, env, "rev-parse", "yoimem/memory")
			}
			tt.merge(t, dir, env)
			base := runGit(t, dir, env, "rev-parse", "main")
			got, err := m.Parent(ctx)
			if err != nil {
				t.Fatal(err)
			}
			first := runGit(t, dir, env, "rev-parse", second.Commit+"~1")
			if since, err := m.UnmergedSince(ctx); err != nil || since != first {
				t.Fatalf("UnmergedSince = %q, %v; want the picked memory commit %s", since, err, first)
			}
			if !tt.replay {
				if got != second.Commit {
					t.Fatalf("Parent = %s, want the memory tip %s", got, second.Commit)
				}
				return
			}
			if got == second.Commit || runGit(t, dir, env, "rev-parse", got+"^") != base {
				t.Fatalf("Parent = %s, want the unmerged memory commit replayed on the base %s", got, base)
			}
			if a, b := runGit(t, dir, env, "log", "-1", "--format=%an %ae %ad%n%B", got), runGit(t, dir, env, "log", "-1", "--format=%an %ae %ad%n%B", second.Commit); a != b {
				t.Fatalf("replayed commit:\n%s\nwant as the original:\n%s", a, b)
			}
			again, err := m.Parent(ctx)
			if err != nil || again != got {
				t.Fatalf("Parent again = %s, %v; want the same replay %s", again, err, got)
			}
			next := commit(t, m, changes(t, "knowledge/c.md", "C\n"), 3)
			if next.Parent != got || next.Restarted == "" {
				t.Fatalf("commit = %+v, want it on the replay %s, restarted", next, got)
			}
			if diff := runGit(t, dir, env, "diff", "--name-only", "main", "yoimem/memory"); diff != ".yoi/knowledge/a.md\n.yoi/knowledge/b.md\n.yoi/knowledge/c.md" {
				t.Fatalf("diff main yoimem/memory = %q", diff)
			}
			logged, _, err := MemoryLog(ctx, m.Repo, "main..yoimem/memory")
			if err != nil || len(logged) != 2 || logged[0].RunID != "run-3" || logged[1].RunID != "run-2" {
				t.Fatalf("MemoryLog main..yoimem/memory = %+v, %v; want run-3 then run-2", logged, err)
			}
		})
	}
}
