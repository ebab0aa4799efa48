package extract

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/yoimem/git-yoimem/internal/smallfile"
)

// The machine-local state of a log: the scan position and pointer
// (<key>.json, replaced without waiting for the disk) and a durable copy
// written each time the pointer moves (<key>.pointer.json).

func (r *Runner) statePath() string   { return filepath.Join(r.StateDir, r.Log.Key()+".json") }
func (r *Runner) pointerPath() string { return filepath.Join(r.StateDir, r.Log.Key()+".pointer.json") }

func (r *Runner) loadState() (State, error) {
	fresh := State{Format: string(r.Log.Format), Session: r.Log.Session, Log: r.Log.Path}
	st, err := readState(r.statePath())
	if err == nil {
		return st, nil
	}
	// The scan state is saved without waiting for the disk; the pointer,
	// when it moved, was also saved durably beside it.
	if saved, perr := readState(r.pointerPath()); perr == nil {
		if !errors.Is(err, os.ErrNotExist) {
			r.warn("%v; going on from the last saved pointer (entry %d)", err, saved.Pointer.Index)
		}
		return saved, nil
	}
	if errors.Is(err, os.ErrNotExist) {
		return fresh, nil
	}
	r.warn("%v; starting this log over", err)
	return fresh, nil
}

func readState(path string) (State, error) {
	b, err := smallfile.Read(path, maxStateBytes)
	if err != nil {
		return State{}, fmt.Errorf("read extract state: %w", err)
	}
	return ParseState(path, b)
}

// saveState writes the state atomically; durably when the pointer moved.
func (r *Runner) saveState(st State, durable bool) error {
	st.Format, st.Session, st.Log = string(r.Log.Format), r.Log.Session, r.Log.Path
	perm, err := r.Shared.Get()
	if err != nil {
		return fmt.Errorf("save extract state: %w", err)
	}
	if err := perm.Dirs(r.StateDir, 0o755); err != nil {
		return fmt.Errorf("save extract state: %w", err)
	}
	if durable {
		// The pointer moved: a copy that only moves with it, written
		// durably, survives a crash that empties the state file.
		if err := perm.WriteFile(r.pointerPath(), st.Marshal(), 0o644, true); err != nil {
			return fmt.Errorf("save extract pointer: %w", err)
		}
	}
	if err := perm.WriteFile(r.statePath(), st.Marshal(), 0o644, false); err != nil {
		return fmt.Errorf("save extract state: %w", err)
	}
	return nil
}

// maxStateBytes bounds a session's extract state (a pointer, counts and
// the recent message ids: kilobytes).
const maxStateBytes = 4 << 20
