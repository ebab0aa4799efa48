package gitstore

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"
)

// diverged makes the branch and a remote tip that both moved from a
// shared memory commit: ours adds b.md, theirs c.md.
func diverged(t *testing.T, m *MemoryBranch, dir string, env []string) (ours, theirs string) {
	t.Helper()
	base := runGit(t, dir, env, "rev-parse", "main")
	s := treeCommit(t, dir, env, "yoimem: shared", []string{base}, ".yoi/knowledge/a.md", "a\n")
	ours = treeCommit(t, dir, env, "yoimem: ours", []string{s}, ".yoi/knowledge/b.md", "b\n")
	theirs = treeCommit(t, dir, env, "yoimem: theirs", []string{s}, ".yoi/knowledge/c.md", "c\n")
	runGit(t, dir, env, "update-ref", m.Ref(), ours)
	return ours, theirs
}

var syncWho = Signature{Name: "t", Email: "t@x", When: when}

// TestIntegrateLeavesTheBranchWhenItCannotMove: a branch another writer
// moved during the sync, a branch checked out in a worktree, a sync
// interrupted mid-replay: the branch stays where the other writer (or
// nobody) put it, and the result claims no move.
func TestIntegrateLeavesTheBranchWhenItCannotMove(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, m *MemoryBranch, dir string, env []string, theirs string) (context.Context, IntegrateRequest)
		want  func(t *testing.T, err error)
	}{
		{name: "ref moved during the sync",
			setup: func(t *testing.T, m *MemoryBranch, dir string, env []string, theirs string) (context.Context, IntegrateRequest) {
				return context.Background(), IntegrateRequest{Check: func(ctx context.Context, tip string, changed, deleted []string) ([]Conflict, error) {
					runGit(t, dir, env, "update-ref", m.Ref(), theirs) // another writer, outside git-yoimem
					return nil, nil
				}}
			},
			want: func(t *testing.T, err error) {
				if !errors.Is(err, errRefMoved) || !strings.Contains(err.Error(), "moved during the sync") {
					t.Fatalf("err = %v, want the ref moved", err)
				}
			}},
		{name: "checked out in a worktree",
			setup: func(t *testing.T, m *MemoryBranch, dir string, env []string, theirs string) (context.Context, IntegrateRequest) {
				runGit(t, dir, env, "worktree", "add", "-q", filepath.Join(filepath.Dir(dir), "wt"), m.Branch)
				return context.Background(), IntegrateRequest{}
			},
			want: func(t *testing.T, err error) {
				var co *CheckedOutError
				if !errors.As(err, &co) || co.Branch != "yoimem/memory" || !strings.HasSuffix(co.Worktree, "wt") {
					t.Fatalf("err = %v, want a CheckedOutError naming the worktree", err)
				}
			}},
		{name: "interrupted in the merge of a record",
			setup: func(t *testing.T, m *MemoryBranch, dir string, env []string, theirs string) (context.Context, IntegrateRequest) {
				ctx, cancel := context.WithCancel(context.Background())
				t.Cleanup(cancel)
				return ctx, IntegrateRequest{Merge: func(path string, base, ours, theirs []byte) ([]byte, bool, error) {
					cancel()
					return append(ours, theirs...), false, nil
				}}
			},
			want: func(t *testing.T, err error) {
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("err = %v, want context.Canceled", err)
				}
			}},
		{name: "interrupted in the check",
			setup: func(t *testing.T, m *MemoryBranch, dir string, env []string, theirs string) (context.Context, IntegrateRequest) {
				ctx, cancel := context.WithCancel(context.Background())
				t.Cleanup(cancel)
				return ctx, IntegrateRequest{Check: func(ctx context.Context, tip string, changed, deleted []string) ([]Conflict, error) {
					cancel()
					return nil, nil
				}}
			},
			want: func(t *testing.T, err error) {
				if !errors.Is(err, context.Canceled) {
					t.Fatalf("err = %v, want context.Canceled", err)
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, dir, env := memRepo(t)
			ours, theirs := diverged(t, m, dir, env)
			// Two commits of ours, the second changing what theirs changed:
			// the replay merges, then checks.
			ours = treeCommit(t, dir, env, "yoimem: ours 2", []string{ours}, ".yoi/knowledge/c.md", "c, ours\n")
			runGit(t, dir, env, "update-ref", m.Ref(), ours)
			ctx, req := tt.setup(t, m, dir, env, theirs)
			req.Theirs, req.From, req.Who = theirs, "origin/yoimem/memory", syncWho
			if req.Merge == nil {
				req.Merge = func(path string, base, ours, theirs []byte) ([]byte, bool, error) {
					return append(ours, theirs...), false, nil
				}
			}
			before := runGit(t, dir, env, "rev-parse", m.Ref())
			res, err := m.Integrate(ctx, req)
			tt.want(t, err)
			if now := runGit(t, dir, env, "rev-parse", m.Ref()); now != before && tt.name != "ref moved during the sync" {
				t.Fatalf("the branch moved to %s", now)
			}
			if res.After != res.Before || res.Before != ours || len(res.Replayed) != 0 || len(res.Merged) != 0 || res.Outcome != "" {
				t.Fatalf("result claims a move: %+v", res)
			}
		})
	}
}

// TestIntegrateStopsBetweenCommitsWhenInterrupted: an interrupt during a
// long replay stops it at the next commit, not at its end.
func TestIntegrateStopsBetweenCommitsWhenInterrupted(t *testing.T) {
	m, dir, env := memRepo(t)
	ours, theirs := diverged(t, m, dir, env)
	for i := 0; i < 3; i++ { // each changes what theirs changed: a merge each
		ours = treeCommit(t, dir, env, "yoimem: ours", []string{ours}, ".yoi/knowledge/c.md", strings.Repeat("ours\n", i+1))
	}
	runGit(t, dir, env, "update-ref", m.Ref(), ours)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	merges := 0
	_, err := m.Integrate(ctx, IntegrateRequest{Theirs: theirs, From: "origin/yoimem/memory", Who: syncWho,
		Merge: func(path string, base, o, th []byte) ([]byte, bool, error) {
			merges++
			cancel()
			return append(o, th...), false, nil
		}})
	if !errors.Is(err, context.Canceled) || merges != 1 {
		t.Fatalf("err %v after %d merges, want canceled after 1", err, merges)
	}
	if now := runGit(t, dir, env, "rev-parse", m.Ref()); now != ours {
		t.Fatalf("the branch moved to %s", now)
	}
}
