package gitstore

import (
	"context"
	"strings"
)

// SymbolicFullName gives the full ref name a revision names
// (refs/heads/main for main, refs/remotes/origin/x for origin/x), or ""
// when it names no ref (a hash, HEAD detached, an expression).
func SymbolicFullName(ctx context.Context, r Repo, name string) (string, error) {
	// --verify: without it, git 2.39 prints --end-of-options back.
	out, err := r.Git.Run(ctx, "rev-parse", "--verify", "--symbolic-full-name", "--end-of-options", name)
	if err != nil {
		return "", err
	}
	full := strings.TrimSpace(string(out))
	if !strings.HasPrefix(full, "refs/") {
		return "", nil
	}
	return full, nil
}
