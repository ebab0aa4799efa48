package workspace

import (
	"context"
	"testing"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
)

// TestSharedPerm: the writers of the workspace's machine-local state
// (metrics, the records' lock) are given the repository's
// core.sharedRepository.
func TestSharedPerm(t *testing.T) {
	_, env, _ := testRepo(t)
	runGit(t, env, "config", "core.sharedRepository", "all")
	w, err := Open(context.Background(), env, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := w.SharedPerm(); p != sharedperm.Everybody || err != nil {
		t.Errorf("SharedPerm = %#o, %v; want everybody", p, err)
	}
	if p, err := w.Metrics().Shared.Get(); p != sharedperm.Everybody || err != nil {
		t.Errorf("Metrics().Shared = %#o, %v; want everybody", p, err)
	}
	store, ok := w.Tools().Store.(*gitstore.WorktreeStore)
	if !ok {
		t.Fatalf("Tools().Store is a %T", w.Tools().Store)
	}
	if p, err := store.Shared.Get(); p != sharedperm.Everybody || err != nil {
		t.Errorf("Tools().Store.Shared = %#o, %v; want everybody", p, err)
	}
}
