package setup

import (
	"bytes"
	"errors"
)

// State is how a file of an agent's setup stands.
type State string

const (
	Absent   State = "absent"   // none of our entries (or no file)
	Current  State = "current"  // our entries, as this git-yoimem writes them
	Outdated State = "outdated" // some of our entries, not all or not as written now: install again
	Broken   State = "invalid"  // the file cannot be read or is not valid JSON
)

// FileStatus is one file's state.
type FileStatus struct {
	File  File
	State State
	Err   error // when Broken

	notify bool // the file runs our notify
}

// Status is an agent's setup in one scope.
type Status struct {
	Agent string
	Scope Scope
	Files []FileStatus
	// Notify: a file sets the agent's notify command to ours (Codex's
	// config.toml).
	Notify bool
}

// State sums the files up: Current when every file is, Absent when none
// holds anything of ours, Broken when one cannot be read, else Outdated.
func (s Status) State() State {
	n := map[State]int{}
	for _, f := range s.Files {
		n[f.State]++
	}
	switch {
	case n[Broken] > 0:
		return Broken
	case n[Current] == len(s.Files):
		return Current
	case n[Absent] == len(s.Files):
		return Absent
	}
	return Outdated
}

// StatusOf reads the agent's files in scope sc and tells how each
// stands. It writes nothing. Only an error that stops it from knowing
// which files to read (no HOME for the user scope) is returned; a file
// that cannot be read is a Broken FileStatus.
func StatusOf(a Agent, sc Scope, loc Locations) (Status, error) {
	files, err := a.Files(sc, loc)
	if err != nil {
		return Status{}, err
	}
	st := Status{Agent: a.Name, Scope: sc}
	for _, f := range files {
		fs := fileStatus(f)
		st.Files = append(st.Files, fs)
		st.Notify = st.Notify || fs.notify
	}
	return st, nil
}

func fileStatus(f File) FileStatus {
	c, err := change(f, func(f File, old []byte, exists bool) (Action, []byte, error) {
		return Unchanged, old, nil
	})
	if err != nil {
		return FileStatus{File: f, State: Broken, Err: err}
	}
	if c.Old == nil {
		return FileStatus{File: f, State: Absent}
	}
	notify := f.notify != nil && f.notify(c.Old)
	cur, err := f.current(c.Old)
	if err != nil && !errors.Is(err, ErrNoProjectEntry) {
		return FileStatus{File: f, State: Broken, Err: &FileError{File: f, Invalid: true, Err: err}}
	}
	if cur {
		return FileStatus{File: f, State: Current, notify: notify}
	}
	out, err := f.unmerge(c.Old)
	if err != nil {
		return FileStatus{File: f, State: Broken, Err: &FileError{File: f, Invalid: true, Err: err}}
	}
	if bytes.Equal(out, c.Old) {
		return FileStatus{File: f, State: Absent}
	}
	return FileStatus{File: f, State: Outdated, notify: notify}
}
