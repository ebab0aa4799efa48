package handler

import (
	"fmt"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
	"os"
	"time"
)

// DefaultLogBytes is the size past which an agent's log is rotated to
// <log>.1 (the previous .1 is replaced): two files of about this size
// at most.
const DefaultLogBytes = 1 << 20

// OpenLog opens an agent's log for appending, rotating it first when it
// has reached limit bytes (DefaultLogBytes when limit is not positive).
// The background process writes its output to it. A log created, and its
// directories, get the shared bits (core.sharedRepository, from shared).
func OpenLog(path string, limit int64, shared sharedperm.Source) (*os.File, error) {
	if limit <= 0 {
		limit = DefaultLogBytes
	}
	if fi, err := os.Stat(path); err == nil && fi.Size() >= limit {
		// Two processes may both rotate: the second renames a fresh log
		// over the first's .1, losing at most a few lines of it.
		if err := os.Rename(path, path+".1"); err != nil && !os.IsNotExist(err) {
			return nil, fmt.Errorf("rotate agent log %s: %w", path, err)
		}
	}
	f, err := sharedperm.OpenAppend(path, 0o644, shared)
	if err != nil {
		return nil, fmt.Errorf("agent log %s: %w", path, err)
	}
	return f, nil
}

// Logf appends one line to an agent's log: the time, the session and
// the message. A log that cannot be written is dropped: the hook's
// answer matters more than its log.
func Logf(path string, limit int64, shared sharedperm.Source, now time.Time, session, format string, args ...any) {
	f, err := OpenLog(path, limit, shared)
	if err != nil {
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s session %s: %s\n", now.UTC().Format(time.RFC3339), session, fmt.Sprintf(format, args...))
}
