package handler

import (
	"encoding/json"
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/yoimem/git-yoimem/gitstore"
)

// Extract results of a background run.
const (
	ExtractRan    = "ran"     // extract ran (it may have found nothing to save)
	ExtractNotDue = "not_due" // below the threshold, or nothing new
	ExtractSkip   = "skipped" // another extract of the session holds its lock
	ExtractFailed = "failed"
)

// Consolidation results of a background run.
const (
	ConsolidationCommitted = "committed" // a memory-branch commit was made
	ConsolidationNotDue    = "not_due"   // the staging is below the thresholds
	ConsolidationBusy      = "busy"      // another consolidation holds its lock
	ConsolidationFailed    = "failed"
	ConsolidationSkipped   = "skipped" // a run made no commit
)

// Status is what the last background run of a session did: the file
// runs/<agent>/<session>.json in StateDir, written when the run starts
// (no finished_at yet) and when it ends. `git yoimem doctor` reads it.
type Status struct {
	Agent     string `json:"agent"`
	SessionID string `json:"session_id"`
	Event     string `json:"event,omitempty"` // the hook that started the run
	// Transcript is the session log the run read.
	Transcript string `json:"transcript,omitempty"`
	// Until is the byte offset the run's extract was bounded at (PreCompact).
	Until int64 `json:"until,omitempty"`
	// LogPath is the agent's log, where the run's output went.
	LogPath       string              `json:"log_path"`
	StartedAt     time.Time           `json:"started_at"`
	FinishedAt    time.Time           `json:"finished_at,omitzero"`
	Extract       ExtractStatus       `json:"extract"`
	Consolidation ConsolidationStatus `json:"consolidation"`
}

// ExtractStatus is the extract check of a run.
type ExtractStatus struct {
	Result string `json:"result,omitempty"` // ExtractRan, …; empty while running
	Staged int    `json:"staged"`           // staging files written
	Error  string `json:"error,omitempty"`
}

// ConsolidationStatus is the consolidation check of a run.
type ConsolidationStatus struct {
	Result string `json:"result,omitempty"` // ConsolidationCommitted, …; empty while running
	Commit string `json:"commit,omitempty"` // the last memory-branch commit made
	// AutoMerge is what yoimem.autoMerge did after a run that committed:
	// absent when it is off or nothing was committed.
	AutoMerge *gitstore.AutoMergeResult `json:"auto_merge,omitempty"`
	Error     string                    `json:"error,omitempty"`
}

// writeStatus replaces a session's status file, with the shared bits
// (core.sharedRepository, from shared).
func writeStatus(path string, s Status, shared sharedperm.Source) error {
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return err
	}
	perm, err := shared.Get()
	if err != nil {
		return fmt.Errorf("status file %s: %w", path, err)
	}
	if err := perm.Dirs(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("status file %s: %w", path, err)
	}
	if err := perm.WriteFile(path, append(b, '\n'), 0o644, false); err != nil {
		return fmt.Errorf("status file %s: %w", path, err)
	}
	return nil
}

// StatusFileError is a status file that could not be read.
type StatusFileError struct {
	Path string
	Err  error
}

func (e *StatusFileError) Error() string { return "status file " + e.Path + ": " + e.Err.Error() }
func (e *StatusFileError) Unwrap() error { return e.Err }

// ReadStatus reads one status file; an error is a *StatusFileError.
func ReadStatus(path string) (Status, error) {
	var s Status
	b, err := readStateFile(path)
	if err != nil {
		return s, &StatusFileError{Path: path, Err: err}
	}
	if err := json.Unmarshal(b, &s); err != nil {
		return s, &StatusFileError{Path: path, Err: err}
	}
	return s, nil
}

// LastRuns reads the status files of every agent's sessions in dir
// (StateDir), the latest start first. None is no error. Files that cannot
// be read are left out and named in the error (errors.Join of
// *StatusFileError), with the others returned.
func LastRuns(dir string) ([]Status, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "runs", "*", "*.json"))
	if err != nil {
		return nil, err
	}
	var runs []Status
	var errs []error
	for _, p := range paths {
		s, err := ReadStatus(p)
		if errors.Is(err, os.ErrNotExist) {
			continue // replaced or removed meanwhile
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		runs = append(runs, s)
	}
	sort.SliceStable(runs, func(i, j int) bool { return runs[i].StartedAt.After(runs[j].StartedAt) })
	return runs, errors.Join(errs...)
}
