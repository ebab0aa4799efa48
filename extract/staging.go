package extract

import (
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// StagingVersion is the version of the staging file format.
const StagingVersion = 1

// Staging is one file in .yoi/memory/_staging/: the activity of a range of
// a session, wrapped with its source by our code (the model never says
// where its input came from).
type Staging struct {
	Version   int       `json:"version"`
	ID        string    `json:"id"` // UUIDv7; the file is <id>.json
	CreatedAt time.Time `json:"created_at"`
	Source    Source    `json:"source"`
	Agent     string    `json:"agent"` // log format: native, claude-code, codex
	Model     string    `json:"model"`
	Activity  Activity  `json:"activity"`
}

// Source is where in which session the activity came from.
type Source struct {
	SessionID string `json:"session_id"`
	Range     [2]int `json:"range"` // first and last log entry, inclusive
}

// Marshal renders the staging file: indented JSON, arrays never null. The
// caller's activity is not changed.
func (s Staging) Marshal() ([]byte, error) {
	s.Activity = s.Activity.clone()
	s.Activity.normalize()
	b, err := json.MarshalIndent(s, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// ParseStaging reads a staging file.
func ParseStaging(name string, b []byte) (Staging, error) {
	var s Staging
	if err := json.Unmarshal(b, &s); err != nil {
		return Staging{}, fmt.Errorf("%s: %w", name, err)
	}
	switch {
	case s.Version != StagingVersion:
		return Staging{}, fmt.Errorf("%s: version %d; this git-yoimem reads version %d", name, s.Version, StagingVersion)
	case s.ID == "":
		return Staging{}, fmt.Errorf("%s: no id", name)
	case s.Source.SessionID == "":
		return Staging{}, fmt.Errorf("%s: source has no session_id", name)
	case s.Source.Range[0] < 1 || s.Source.Range[1] < s.Source.Range[0]:
		return Staging{}, fmt.Errorf("%s: bad source range %v", name, s.Source.Range)
	}
	s.Activity.normalize()
	return s, nil
}

// clone copies the slices that normalize may fill in.
func (a Activity) clone() Activity {
	a.Decisions = slices.Clone(a.Decisions)
	a.Discussions = slices.Clone(a.Discussions)
	a.Attempts = slices.Clone(a.Attempts)
	a.Requests = slices.Clone(a.Requests)
	return a
}

func (a *Activity) normalize() {
	if a.Decisions == nil {
		a.Decisions = []Decision{}
	}
	if a.Discussions == nil {
		a.Discussions = []Discussion{}
	}
	if a.Attempts == nil {
		a.Attempts = []Attempt{}
	}
	if a.Requests == nil {
		a.Requests = []Request{}
	}
	for i := range a.Decisions {
		if a.Decisions[i].Options == nil {
			a.Decisions[i].Options = []string{}
		}
	}
	for i := range a.Discussions {
		if a.Discussions[i].Points == nil {
			a.Discussions[i].Points = []string{}
		}
	}
}
