package gitstore

import (
	"context"
	"path/filepath"
	"testing"
)

// bareRemote makes a bare repository beside dir, adds it as origin and
// pushes refs to it.
func bareRemote(t *testing.T, dir string, env []string, refs ...string) string {
	t.Helper()
	remote := filepath.Join(filepath.Dir(dir), "remote.git")
	runGit(t, filepath.Dir(dir), env, "init", "-q", "--bare", remote)
	runGit(t, dir, env, "remote", "add", "origin", remote)
	if len(refs) > 0 {
		runGit(t, dir, env, append([]string{"push", "-q", "origin"}, refs...)...)
	}
	return remote
}

// TestIntegrateSupersededThenPushIsFastForward: the remote's memory branch
// was squash-merged into main; the local branch then restarted from main.
// Sync records the remote's tip as merged (a two-parent commit with our
// tree), and the push that follows fast-forwards the remote's branch.
func TestIntegrateSupersededThenPushIsFastForward(t *testing.T) {
	m, dir, env := memRepo(t)
	ctx := context.Background()
	theirs := commit(t, m, changes(t, "knowledge/a.md", "A\n"), 1).Commit
	remote := bareRemote(t, dir, env, "main", "yoimem/memory")
	runGit(t, dir, env, "merge", "-q", "--squash", "yoimem/memory")
	runGit(t, dir, env, "commit", "-q", "-m", "memory (squashed)")
	runGit(t, dir, env, "push", "-q", "origin", "main")
	ours := commit(t, m, changes(t, "knowledge/b.md", "B\n"), 2).Commit
	if p := runGit(t, dir, env, "rev-parse", ours+"^"); p != runGit(t, dir, env, "rev-parse", "main") {
		t.Fatalf("the local commit's parent is %s, not main", p)
	}
	res, err := m.Integrate(ctx, IntegrateRequest{Theirs: theirs, From: "origin/yoimem/memory", Who: syncWho})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Superseded || res.Before != ours {
		t.Fatalf("%+v, want superseded from %s", res, ours)
	}
	if got := runGit(t, dir, env, "rev-parse", res.After+"^1", res.After+"^2"); got != ours+"\n"+theirs {
		t.Fatalf("parents of %s: %s, want ours then theirs", res.After, got)
	}
	if a, b := runGit(t, dir, env, "rev-parse", res.After+"^{tree}"), runGit(t, dir, env, "rev-parse", ours+"^{tree}"); a != b {
		t.Fatalf("tree %s, want ours %s", a, b)
	}
	pushed, err := PushRefs(ctx, m.Repo, "origin", []string{m.Ref()})
	if err != nil {
		t.Fatal(err)
	}
	if len(pushed) != 1 || pushed[0].Status != Pushed || pushed[0].Summary != abbrevRange(t, dir, env, theirs, res.After) {
		t.Fatalf("push %+v, want a fast-forward %s", pushed, abbrevRange(t, dir, env, theirs, res.After))
	}
	if got := runGit(t, remote, env, "rev-parse", "yoimem/memory"); got != res.After {
		t.Fatalf("remote at %s, want %s", got, res.After)
	}
}

// abbrevRange is git push's summary of a fast-forward: old..new.
func abbrevRange(t *testing.T, dir string, env []string, from, to string) string {
	return runGit(t, dir, env, "rev-parse", "--short", from) + ".." + runGit(t, dir, env, "rev-parse", "--short", to)
}

// TestIntegrateSupersededKeepsWhatTheBaseHolds: the local branch has an
// unpushed commit made on an older memory commit (before the remote's
// branch moved on and was squash-merged into main). Recording the
// remote's branch as merged must not keep the local tree's stale records:
// the base's versions (the remote's last changes) stay, and the local
// commit goes on top of them, so the next pull request neither reverts
// nor conflicts with what was merged.
func TestIntegrateSupersededKeepsWhatTheBaseHolds(t *testing.T) {
	m, dir, env := memRepo(t)
	ctx := context.Background()
	x1 := commit(t, m, changes(t, "knowledge/a.md", "A1\n"), 1).Commit
	theirs := commit(t, m, changes(t, "knowledge/a.md", "A2\n", "knowledge/b.md", "B\n"), 2).Commit
	bareRemote(t, dir, env, "main", "yoimem/memory")
	runGit(t, dir, env, "merge", "-q", "--squash", "yoimem/memory")
	runGit(t, dir, env, "commit", "-q", "-m", "memory (squashed)")
	// This clone had only x1 when it consolidated again.
	runGit(t, dir, env, "update-ref", m.Ref(), x1)
	ours := treeCommit(t, dir, env, msg(3), []string{x1}, ".yoi/knowledge/c.md", "C\n")
	runGit(t, dir, env, "update-ref", m.Ref(), ours)
	res, err := m.Integrate(ctx, IntegrateRequest{Theirs: theirs, From: "origin/yoimem/memory", Who: syncWho})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Superseded {
		t.Fatalf("%+v, want superseded", res)
	}
	for path, want := range map[string]string{".yoi/knowledge/a.md": "A2", ".yoi/knowledge/b.md": "B", ".yoi/knowledge/c.md": "C"} {
		if got := showAt(t, dir, env, res.After, path); got != want {
			t.Errorf("%s at the new tip = %q, want %q", path, got, want)
		}
	}
	if err := runGitErrOnly(dir, env, "merge-base", "--is-ancestor", theirs, res.After); err != nil {
		t.Errorf("the remote's tip is not in the new tip: its push would not be a fast-forward")
	}
	if got := runGit(t, dir, env, "merge-base", "main", res.After); got != runGit(t, dir, env, "rev-parse", "main") {
		t.Errorf("the new tip does not build on main (merge base %s): a pull request would merge the stale records", got)
	}
}

func runGitErrOnly(dir string, env []string, args ...string) error {
	_, err := runGitErr(dir, env, args...)
	return err
}
