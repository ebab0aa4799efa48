package gitstore

import (
	"context"
	"errors"
)

// Ignored tells whether git ignores path (absolute, or relative to the
// top level), as `git check-ignore` decides: a tracked file is not.
func Ignored(ctx context.Context, r Repo, path string) (bool, error) {
	_, err := r.Git.Run(ctx, "check-ignore", "-q", "--", path)
	var ge *Error
	switch {
	case err == nil:
		return true, nil
	case errors.As(err, &ge) && ge.ExitCode == 1:
		return false, nil
	}
	return false, err
}
