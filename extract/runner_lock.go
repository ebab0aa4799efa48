package extract

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/yoimem/git-yoimem/internal/lockfile"
)

// lock takes the log's in-flight lock, waiting at most wait for it: held
// is false when another run has it. The lock is an flock, so a run that
// dies releases it with its process (stale-safe); the file names the
// holder for people.
func (r *Runner) lock(ctx context.Context, wait time.Duration) (unlock func(), held bool, err error) {
	l := lockfile.New(filepath.Join(r.StateDir, r.Log.Key()+".lock"), lockfile.Shared(r.Shared))
	err = l.Acquire(ctx, wait)
	switch {
	case errors.Is(err, lockfile.ErrHeld):
		return nil, false, nil
	case err != nil:
		return nil, false, fmt.Errorf("extract lock: %w", err)
	}
	if err := l.SetHolder(lockfile.Me(r.Now())); err != nil {
		r.warn("%v", err) // for people; the flock is the lock
	}
	return func() { _ = l.Unlock() }, true, nil
}
