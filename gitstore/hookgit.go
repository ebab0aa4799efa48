package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"strings"
)

// StagedChanges lists the paths under prefix/ (relative to prefix/) that
// the index adds or modifies, and deletes, against HEAD (or the empty
// tree before the first commit), through git: the fallback when the index
// cannot be read directly (StagedFast). It takes no lock.
func StagedChanges(ctx context.Context, r Repo, prefix string) (changed, deleted []string, err error) {
	out, err := r.Git.Run(ctx, "--no-optional-locks", "diff", "--cached", "--name-status", "--no-renames", "-z", "--", prefix+"/")
	if err != nil {
		return nil, nil, fmt.Errorf("list staged changes: %w", err)
	}
	fields := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		status, p := string(fields[i]), string(fields[i+1])
		rel, ok := strings.CutPrefix(p, prefix+"/")
		if !ok {
			continue
		}
		if strings.HasPrefix(status, "D") {
			deleted = append(deleted, rel)
		} else {
			changed = append(changed, rel)
		}
	}
	return changed, deleted, nil
}

// ResolveObject gives the object name (a revision such as a ref or a
// tag's name) names, as a full hash.
func ResolveObject(ctx context.Context, r Repo, name string) (string, error) {
	out, err := r.Git.Run(ctx, "rev-parse", "--verify", "--end-of-options", name+"^{object}")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}
