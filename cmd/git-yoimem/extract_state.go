package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/internal/atomicfile"
)

func (x *extractor) statePath() string { return filepath.Join(x.dir, x.log.key()+".json") }

func (x *extractor) loadState() (extract.State, error) {
	fresh := extract.State{Format: string(x.log.format), Session: x.log.session, Log: x.log.path}
	st, err := readState(x.statePath())
	if err == nil {
		return st, nil
	}
	// The scan state is saved without waiting for the disk; the pointer,
	// when it moved, was also saved durably beside it.
	if saved, perr := readState(x.pointerPath()); perr == nil {
		if !errors.Is(err, os.ErrNotExist) {
			warnf(x.env.Stderr, "%v; going on from the last saved pointer (entry %d)", err, saved.Pointer.Index)
		}
		return saved, nil
	}
	if errors.Is(err, os.ErrNotExist) {
		return fresh, nil
	}
	warnf(x.env.Stderr, "%v; starting this log over", err)
	return fresh, nil
}

func readState(path string) (extract.State, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return extract.State{}, fmt.Errorf("read extract state: %w", err)
	}
	return extract.ParseState(path, b)
}

func (x *extractor) pointerPath() string { return filepath.Join(x.dir, x.log.key()+".pointer.json") }

// saveState writes the state atomically; durably when the pointer moved.
func (x *extractor) saveState(st extract.State, durable bool) error {
	st.Format, st.Session, st.Log = string(x.log.format), x.log.session, x.log.path
	if err := os.MkdirAll(x.dir, 0o755); err != nil {
		return fmt.Errorf("save extract state: %w", err)
	}
	if durable {
		// The pointer moved: a copy that only moves with it, written
		// durably, survives a crash that empties the state file.
		if err := atomicfile.Write(x.pointerPath(), st.Marshal(), 0o644); err != nil {
			return fmt.Errorf("save extract pointer: %w", err)
		}
	}
	if err := atomicfile.Replace(x.statePath(), st.Marshal(), 0o644); err != nil {
		return fmt.Errorf("save extract state: %w", err)
	}
	return nil
}
