package gitstore

import (
	"context"
	"testing"
)

func TestSymbolicFullName(t *testing.T) {
	_, dir, env := memRepo(t)
	runGit(t, dir, env, "branch", "yoimem/memory")
	runGit(t, dir, env, "update-ref", "refs/remotes/origin/yoimem/memory", "HEAD")
	runGit(t, dir, env, "tag", "v1")
	head := runGit(t, dir, env, "rev-parse", "HEAD")
	r := locate(t, dir, env)
	for name, want := range map[string]string{
		"yoimem/memory":            "refs/heads/yoimem/memory",
		"origin/yoimem/memory":     "refs/remotes/origin/yoimem/memory",
		"v1":                       "refs/tags/v1",
		"HEAD":                     "refs/heads/main",
		head[:40]:                  "",
		"yoimem/memory^{commit}":   "",
		"refs/heads/yoimem/memory": "refs/heads/yoimem/memory",
	} {
		got, err := SymbolicFullName(context.Background(), r, name)
		if err != nil || got != want {
			t.Errorf("SymbolicFullName(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := SymbolicFullName(context.Background(), r, "nope"); err == nil {
		t.Error("SymbolicFullName(nope): no error")
	}
}
