package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
)

// lockSession takes the session's in-flight lock, waiting at most wait for
// it: held is false when another run has it. The lock is an flock, so a run that dies
// releases it with its process (stale-safe); the file names the holder
// for people.
func lockSession(dir, key string, now time.Time, wait time.Duration) (unlock func(), held bool, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, false, fmt.Errorf("extract lock: %w", err)
	}
	path := filepath.Join(dir, key+".lock")
	l := flock.New(path)
	ok, err := l.TryLock()
	for deadline := time.Now().Add(wait); err == nil && !ok && time.Now().Before(deadline); {
		time.Sleep(20 * time.Millisecond)
		ok, err = l.TryLock()
	}
	if err != nil {
		return nil, false, fmt.Errorf("extract lock %s: %w", path, err)
	}
	if !ok {
		return nil, false, nil
	}
	host, _ := os.Hostname()
	holder, _ := json.Marshal(map[string]any{"pid": os.Getpid(), "host": host, "since": now.UTC()})
	_ = os.WriteFile(path, append(holder, '\n'), 0o644) // for people; the flock is the lock
	return func() { l.Unlock() }, true, nil
}
