// Package lockfile is git-yoimem's one cross-process lock: an exclusive
// advisory lock (flock(2), through gofrs/flock) on a file, taken with a
// wait that ends with its context or a bound, and released by the kernel
// when its holder dies, so that a crash leaves no stale lock.
//
// The locked file is created when missing (with its directory) and is
// never replaced, renamed or removed: a process waiting on the old file
// and one locking a new file at the same path would both hold "the" lock.
//
// A holder may record who it is, for people and for other processes to
// read: inside the locked file (the default: written in place, since the
// file may not be replaced) or in a file next to it (HolderFile: replaced
// atomically). The record goes when the lock is released; one a killed
// holder left behind is recognised with Held. The flock is the lock; the
// record only says who has it.
package lockfile

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
	"github.com/yoimem/git-yoimem/internal/smallfile"
)

// ErrHeld means another holder kept the lock past the wait.
var ErrHeld = errors.New("held by another process")

// ErrNoHolder means no holder record is there: the lock is free, or its
// holder recorded nothing.
var ErrNoHolder = errors.New("no holder recorded")

// retryDelay is the pause between tries while waiting.
const retryDelay = 10 * time.Millisecond

// Lock is one process's handle on a lock file. Two Locks on one path
// exclude each other, in one process or in two. A Lock is not safe for
// concurrent use: callers that share one serialise its use.
type Lock struct {
	path   string
	holder string // the holder record's file; path when it is kept inside
	fl     *flock.Flock
	shared sharedperm.Source // core.sharedRepository, for a lock in a git directory
}

// Option changes how New sets up a Lock.
type Option func(*Lock)

// HolderFile keeps the holder record in the file at path, next to the
// locked file, instead of inside it.
func HolderFile(path string) Option { return func(l *Lock) { l.holder = path } }

// Shared gives the directories and files the lock creates the bits git
// gives its own under core.sharedRepository (read from src when the lock
// file is to be created): a lock in a shared repository's git directory
// is taken by every user of its group.
func Shared(src sharedperm.Source) Option { return func(l *Lock) { l.shared = src } }

// New returns a Lock on path; nothing is opened until it is taken.
func New(path string, opts ...Option) *Lock {
	l := &Lock{path: path, holder: path, fl: flock.New(path)}
	for _, o := range opts {
		o(l)
	}
	return l
}

// Path is the locked file.
func (l *Lock) Path() string { return l.path }

// TryLock takes the lock if it is free now.
func (l *Lock) TryLock() (bool, error) {
	if err := l.create(); err != nil {
		return false, fmt.Errorf("lock %s: %w", l.path, err)
	}
	ok, err := l.fl.TryLock()
	if err != nil {
		return false, fmt.Errorf("lock %s: %w", l.path, err)
	}
	return ok, nil
}

// Acquire takes the lock, waiting while another holds it: at most wait
// (then an error wrapping ErrHeld that says how long it waited), or
// without a bound when wait is negative; 0 tries once. It stops when ctx
// ends, with an error wrapping ctx's.
func (l *Lock) Acquire(ctx context.Context, wait time.Duration) error {
	var deadline <-chan time.Time
	if wait > 0 {
		t := time.NewTimer(wait)
		defer t.Stop()
		deadline = t.C
	}
	for {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("wait for %s: %w", l.path, err)
		}
		ok, err := l.TryLock()
		switch {
		case err != nil:
			return err
		case ok:
			return nil
		case wait == 0:
			return fmt.Errorf("%s: %w", l.path, ErrHeld)
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("wait for %s: %w", l.path, ctx.Err())
		case <-deadline:
			return fmt.Errorf("%s: %w (waited %s)", l.path, ErrHeld, wait)
		case <-time.After(retryDelay):
		}
	}
}

// Unlock clears the holder record and releases the lock; the locked file
// stays. Unlocking a Lock not held does nothing.
func (l *Lock) Unlock() error {
	if !l.fl.Locked() {
		return nil
	}
	l.clearHolder()
	if err := l.fl.Unlock(); err != nil {
		return fmt.Errorf("unlock %s: %w", l.path, err)
	}
	return nil
}

// Held tells whether anyone holds the lock now: this Lock, or another
// (then it is taken and released at once, so that a waiter polling at
// that moment tries again a little later).
func (l *Lock) Held() (bool, error) {
	if l.fl.Locked() {
		return true, nil
	}
	probe := flock.New(l.path)
	ok, err := probe.TryLock()
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	case err != nil:
		return false, fmt.Errorf("lock %s: %w", l.path, err)
	case ok:
		_ = probe.Unlock()
		return false, nil
	}
	return true, nil
}

// SetHolder records v (JSON; Me for the usual fields) as the holder.
// Only the holder may: an error otherwise.
func (l *Lock) SetHolder(v any) error {
	if !l.fl.Locked() {
		return fmt.Errorf("holder of %s: the lock is not held", l.path)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("holder of %s: %w", l.path, err)
	}
	b = append(b, '\n')
	if l.holder != l.path {
		perm, err := l.shared.Get()
		if err != nil {
			return err
		}
		return perm.WriteFile(l.holder, b, 0o644, true)
	}
	// In place: the locked file is the lock and is never replaced. A
	// reader in the middle may see a torn record, which it reports as
	// unreadable rather than as someone else's.
	f, err := os.OpenFile(l.path, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("holder of %s: %w", l.path, err)
	}
	defer f.Close()
	if _, err := f.WriteAt(b, 0); err != nil {
		return fmt.Errorf("holder of %s: %w", l.path, err)
	}
	if err := f.Truncate(int64(len(b))); err != nil {
		return fmt.Errorf("holder of %s: %w", l.path, err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("holder of %s: %w", l.path, err)
	}
	return nil
}

// Holder reads the holder record into v: ErrNoHolder when there is none.
// A record a killed holder left is still there: Held tells whether it is
// live.
func (l *Lock) Holder(v any) error {
	b, err := smallfile.Read(l.holder, maxHolderBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist) || err == nil && len(b) == 0:
		return fmt.Errorf("%s: %w", l.holder, ErrNoHolder)
	case err != nil:
		return fmt.Errorf("holder of %s: %w", l.path, err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("holder of %s: unreadable record: %w", l.path, err)
	}
	return nil
}

// create makes the locked file's directory and, in a shared repository,
// the file itself, as git makes a lock file there (0666 with the umask
// applying, then the shared bits). A file that exists is left as it is,
// without reading the setting; otherwise flock creates it (0600).
func (l *Lock) create() error {
	if _, err := os.Lstat(l.path); err == nil {
		return nil
	}
	perm, err := l.shared.Get()
	if err != nil {
		return err
	}
	if !perm.Shared() {
		return os.MkdirAll(filepath.Dir(l.path), 0o755)
	}
	if err := perm.MkdirAll(filepath.Dir(l.path)); err != nil {
		return err
	}
	f, err := os.OpenFile(l.path, os.O_RDONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if errors.Is(err, fs.ErrExist) {
		return nil
	}
	if err != nil {
		return err
	}
	aerr := perm.AdjustFile(f)
	return errors.Join(aerr, f.Close())
}

// clearHolder removes the record while the lock is still held: after the
// release, another holder's record must not be removed.
func (l *Lock) clearHolder() {
	if l.holder != l.path {
		_ = os.Remove(l.holder)
		return
	}
	if f, err := os.OpenFile(l.path, os.O_WRONLY, 0); err == nil {
		_ = f.Truncate(0)
		f.Close()
	}
}

// Holder is the usual holder record: which process, on which host, since
// when. Callers with more to say embed it in their own record.
type Holder struct {
	PID   int       `json:"pid"`
	Host  string    `json:"host"`
	Since time.Time `json:"since"`
}

// Me is this process as holder since now (in UTC).
func Me(now time.Time) Holder {
	host, _ := os.Hostname()
	return Holder{PID: os.Getpid(), Host: host, Since: now.UTC()}
}

// maxHolderBytes bounds a holder record (a few fields).
const maxHolderBytes = 1 << 20
