package gitstore

import (
	"context"
	"errors"
	"testing"
)

// TestParent: the commit the next memory commit is written on is the base
// tip for a new branch, the memory tip while it is not merged, and the
// base tip again once the base has merged it.
func TestParent(t *testing.T) {
	m, dir, env := memRepo(t)
	ctx := context.Background()
	base := runGit(t, dir, env, "rev-parse", "main")
	if got, err := m.Parent(ctx); err != nil || got != base {
		t.Fatalf("new branch: Parent = %q, %v; want the base tip %s", got, err, base)
	}
	first := commit(t, m, changes(t, "knowledge/a.md", "A\n"), 1)
	if got, err := m.Parent(ctx); err != nil || got != first.Commit {
		t.Fatalf("unmerged: Parent = %q, %v; want the memory tip %s", got, err, first.Commit)
	}
	if merged, err := m.Merged(ctx); err != nil || merged {
		t.Fatalf("unmerged: Merged = %v, %v", merged, err)
	}
	runGit(t, dir, env, "merge", "-q", "--no-ff", "-m", "merge memory", "yoimem/memory")
	if merged, err := m.Merged(ctx); err != nil || !merged {
		t.Fatalf("merged: Merged = %v, %v", merged, err)
	}
	merged := runGit(t, dir, env, "rev-parse", "main")
	if got, err := m.Parent(ctx); err != nil || got != merged {
		t.Fatalf("merged: Parent = %q, %v; want the base tip %s", got, err, merged)
	}
	next := commit(t, m, changes(t, "knowledge/b.md", "B\n"), 2)
	if next.Parent != merged {
		t.Fatalf("Commit built on %s, Parent said %s", next.Parent, merged)
	}
}

// TestCommitExpectParent: a commit planned on one parent is refused when
// the parent has changed since (the branch moved, or the base merged it),
// and nothing is written to the branch.
func TestCommitExpectParent(t *testing.T) {
	m, dir, env := memRepo(t)
	ctx := context.Background()
	planned, err := m.Parent(ctx)
	if err != nil {
		t.Fatal(err)
	}
	moved := commit(t, m, changes(t, "knowledge/a.md", "A\n"), 1)
	_, err = m.Commit(ctx, CommitRequest{Changes: changes(t, "knowledge/b.md", "B\n"), Message: msg(2), Author: Signature{Name: "a", Email: "b", When: when}, ExpectParent: planned})
	var pm *ParentMovedError
	if !errors.As(err, &pm) || !errors.Is(err, ErrParentMoved) || pm.Expected != planned || pm.Parent != moved.Commit {
		t.Fatalf("Commit on a moved parent = %v, want a *ParentMovedError from %s to %s", err, planned, moved.Commit)
	}
	if tip := runGit(t, dir, env, "rev-parse", "yoimem/memory"); tip != moved.Commit {
		t.Fatalf("the branch moved to %s on a refused commit", tip)
	}
	res, err := m.Commit(ctx, CommitRequest{Changes: changes(t, "knowledge/b.md", "B\n"), Message: msg(2), Author: Signature{Name: "a", Email: "b", When: when}, ExpectParent: moved.Commit})
	if err != nil || res.Parent != moved.Commit {
		t.Fatalf("Commit on the expected parent = %+v, %v", res, err)
	}
}
