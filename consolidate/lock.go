package consolidate

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
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/record"
)

// The consolidation lock (docs/consolidate.md, "The lock") is one file in
// the staging directory, created exclusively, that names its holder and
// fixes the staging entries the run consumes. It is held while the holder
// lives; a dead holder's lock is taken over and its run finished or
// redone. Every look at the file, and every change to it, happens under a
// short flock on a guard file next to it, so that two runs never both
// take over the same dead holder.

// ErrBusy means another live run holds the consolidation lock.
var ErrBusy = errors.New("a consolidation is already running")

// BusyError is ErrBusy with the holder.
type BusyError struct {
	Path   string // the lock file, as commands print it
	Holder Holder
	// OtherHost: the holder runs on another host, so whether it still
	// lives cannot be checked.
	OtherHost bool
}

func (e *BusyError) Error() string {
	h := e.Holder
	msg := fmt.Sprintf("%v: run %s, pid %d on %s, since %s (%s)", ErrBusy, h.RunID, h.PID, h.Host, h.Since.UTC().Format(time.RFC3339), e.Path)
	if e.OtherHost {
		msg += "; it runs on another host, so git-yoimem cannot tell whether it still does"
	}
	return msg
}

func (e *BusyError) Unwrap() error { return ErrBusy }

// holderVersion is the version of the lock file's format.
const holderVersion = 1

// Holder is the content of the lock file.
type Holder struct {
	Version int    `json:"version"`
	Host    string `json:"host"`
	PID     int    `json:"pid"`
	// Start tells the holder's process from a later one with the same
	// pid (Linux: boot ID and start time from /proc); "" when unknown.
	Start    string    `json:"start,omitempty"`
	RunID    string    `json:"run_id"`
	Since    time.Time `json:"since"`
	Consumed []string  `json:"consumed"` // staging IDs, fixed at the start
	// Note is the blob of the run's git note and Metrics the mark of the
	// usage its commit moves, recorded just before it commits: what a run
	// taking over needs to finish a commit that was made.
	Note    string          `json:"note,omitempty"`
	Metrics json.RawMessage `json:"metrics,omitempty"`
}

// Lock is a held consolidation lock.
type Lock struct {
	dir       string
	holder    Holder
	recovered *Holder
	wait      time.Duration
}

// guardWait bounds the wait for the guard: it is held for the few
// milliseconds a look at the lock takes.
const guardWait = 10 * time.Second

// AcquireLock takes the consolidation lock of the staging directory dir
// for a run runID starting at now, fixing its consumed list: the staging
// entries there now. A live holder is a *BusyError. A dead holder's lock
// (same host, its process gone or its pid reused) is taken over: the run
// keeps the dead run's ID, consumed list and recovery data, and
// Recovered returns the dead holder. A lock file that does not parse is
// an error and is left alone.
func AcquireLock(ctx context.Context, dir, runID string, now time.Time) (*Lock, error) {
	l := &Lock{dir: dir, wait: guardWait}
	err := l.guarded(ctx, func() error {
		old, err := l.read()
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return l.create(runID, now)
		case err != nil:
			return err
		}
		self := currentProcess()
		if old.Host != self.host {
			return &BusyError{Path: lockDisplay, Holder: old, OtherHost: true}
		}
		if processLives(old.PID, old.Start) {
			return &BusyError{Path: lockDisplay, Holder: old}
		}
		return l.takeOver(old, self, now)
	})
	if err != nil {
		return nil, err
	}
	return l, nil
}

func (l *Lock) create(runID string, now time.Time) error {
	list, err := extract.ListStaging(l.dir)
	if err != nil {
		return err
	}
	self := currentProcess()
	l.holder = Holder{Version: holderVersion, Host: self.host, PID: self.pid, Start: self.start, RunID: runID, Since: now.UTC(), Consumed: []string{}}
	for _, e := range list {
		l.holder.Consumed = append(l.holder.Consumed, e.ID)
	}
	return l.write(true)
}

func (l *Lock) takeOver(old Holder, self process, now time.Time) error {
	dead := old
	l.holder = old
	l.holder.Version, l.holder.Host, l.holder.PID, l.holder.Start, l.holder.Since = holderVersion, self.host, self.pid, self.start, now.UTC()
	if l.holder.Consumed == nil {
		l.holder.Consumed = []string{}
	}
	l.recovered = &dead
	return l.write(false)
}

// Holder is the lock's holder record: this run's.
func (l *Lock) Holder() Holder { return l.holder }

// Recovered is the dead holder this lock was taken over from (nil when
// the lock was free).
func (l *Lock) Recovered() *Holder { return l.recovered }

// Path is the lock file.
func (l *Lock) Path() string { return l.path() }

// Update changes the holder record (what a crash must finish), if the
// lock is still this run's.
func (l *Lock) Update(change func(*Holder)) error {
	return l.guarded(context.Background(), func() error {
		if err := l.stillMine(); err != nil {
			return err
		}
		next := l.holder
		change(&next)
		prev := l.holder
		l.holder = next
		if err := l.write(false); err != nil {
			l.holder = prev
			return err
		}
		return nil
	})
}

// Release removes the lock file, if it is still this run's.
func (l *Lock) Release() error {
	return l.guarded(context.Background(), func() error {
		if err := l.stillMine(); err != nil {
			return err
		}
		if err := os.Remove(l.path()); err != nil {
			return fmt.Errorf("release the consolidation lock %s: %w", lockDisplay, err)
		}
		syncDir(l.dir)
		return nil
	})
}

func (l *Lock) stillMine() error {
	cur, err := l.read()
	if err != nil {
		return fmt.Errorf("the consolidation lock of run %s: %w", l.holder.RunID, err)
	}
	if cur.RunID != l.holder.RunID || cur.PID != l.holder.PID || cur.Host != l.holder.Host || cur.Start != l.holder.Start {
		return fmt.Errorf("the consolidation lock %s is no longer run %s's: run %s (pid %d on %s) holds it; left as it is", lockDisplay, l.holder.RunID, cur.RunID, cur.PID, cur.Host)
	}
	return nil
}

func (l *Lock) path() string { return filepath.Join(l.dir, LockName) }

// lockDisplay is the lock file as messages name it: from the workspace
// root (docs/output.md), whatever the staging directory's absolute path.
const lockDisplay = record.Dir + "/" + record.StagingDir + "/" + LockName

// guarded runs fn under the guard's flock.
func (l *Lock) guarded(ctx context.Context, fn func() error) error {
	g := flock.New(filepath.Join(l.dir, guardName))
	ctx, cancel := context.WithTimeout(ctx, l.wait)
	defer cancel()
	ok, err := g.TryLockContext(ctx, 5*time.Millisecond)
	if !ok {
		if err == nil || errors.Is(err, context.DeadlineExceeded) {
			return fmt.Errorf("%s: %w (its guard stayed locked for %s)", lockDisplay, ErrBusy, l.wait)
		}
		return fmt.Errorf("lock %s: %w", g.Path(), err)
	}
	defer g.Unlock()
	return fn()
}

// maxLockBytes bounds the lock file: a consumed list of 100,000 entries
// fits in 4 MiB.
const maxLockBytes = 16 << 20

func (l *Lock) read() (Holder, error) {
	f, err := os.Open(l.path())
	if err != nil {
		return Holder{}, err
	}
	defer f.Close()
	var h Holder
	dec := json.NewDecoder(&limitedReader{f: f, left: maxLockBytes})
	if err := dec.Decode(&h); err != nil {
		return Holder{}, damaged(lockDisplay, err)
	}
	if h.Version != holderVersion || h.RunID == "" || h.PID <= 0 || h.Host == "" {
		return Holder{}, damaged(lockDisplay, fmt.Errorf("version %d, run %q, pid %d, host %q", h.Version, h.RunID, h.PID, h.Host))
	}
	return h, nil
}

func damaged(path string, err error) error {
	return fmt.Errorf("the consolidation lock %s does not read as one (%v): if no consolidation is running, remove it", path, err)
}

// write stores the holder record whole: a complete, synced temporary file
// that is hard-linked to the lock's name (create) — link(2) fails when
// the name exists, which makes it an exclusive create of complete
// content — or renamed over it (take-over, update).
func (l *Lock) write(create bool) (err error) {
	b, err := json.Marshal(l.holder)
	if err != nil {
		return err
	}
	f, err := os.CreateTemp(l.dir, "."+LockName+".tmp-*")
	if err != nil {
		return fmt.Errorf("write the consolidation lock: %w", err)
	}
	tmp := f.Name()
	defer os.Remove(tmp) // after a link, or a failure; a rename leaves nothing
	if _, err = f.Write(append(b, '\n')); err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write the consolidation lock %s: %w", lockDisplay, err)
	}
	if create {
		err = os.Link(tmp, l.path())
		if errors.Is(err, fs.ErrExist) {
			// Written by a process that does not take the guard.
			return &BusyError{Path: lockDisplay, Holder: Holder{RunID: "(unknown)"}}
		}
	} else {
		err = os.Rename(tmp, l.path())
	}
	if err != nil {
		return fmt.Errorf("write the consolidation lock %s: %w", lockDisplay, err)
	}
	syncDir(l.dir)
	return nil
}

// syncDir makes a directory's entries durable (best effort: the change is
// made already).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// limitedReader fails past its limit instead of ending early, so that a
// huge lock file is an error, not a truncated read.
type limitedReader struct {
	f    *os.File
	left int64
}

func (r *limitedReader) Read(p []byte) (int, error) {
	if r.left <= 0 {
		return 0, fmt.Errorf("over %d bytes", maxLockBytes)
	}
	if int64(len(p)) > r.left {
		p = p[:r.left]
	}
	n, err := r.f.Read(p)
	r.left -= int64(n)
	return n, err
}
