package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
)

// HooksDir is where git runs the repository's hooks from: core.hooksPath
// (a relative one taken from the top level) or the common git directory's
// hooks/, which linked worktrees share.
func HooksDir(ctx context.Context, r Repo) (string, error) {
	out, err := r.Git.Run(ctx, "rev-parse", "--path-format=absolute", "--git-path", "hooks")
	if err != nil {
		return "", fmt.Errorf("find the hooks directory: %w", err)
	}
	dir := string(bytes.TrimSuffix(bytes.TrimSuffix(out, []byte("\n")), []byte("\r")))
	if !filepath.IsAbs(dir) {
		return "", fmt.Errorf("find the hooks directory: git rev-parse --git-path hooks printed %q", dir)
	}
	return filepath.Clean(dir), nil
}
