package lint

import (
	"encoding/json"
	"fmt"
	"sort"
)

// Severity of a finding.
type Severity int

// Severities. Errors refuse a write; warnings do not.
const (
	Error Severity = iota
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalJSON writes the severity as "error" or "warning".
func (s Severity) MarshalJSON() ([]byte, error) { return json.Marshal(s.String()) }

// UnmarshalJSON reads "error" or "warning".
func (s *Severity) UnmarshalJSON(b []byte) error {
	var v string
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	switch v {
	case "error":
		*s = Error
	case "warning":
		*s = Warning
	default:
		return fmt.Errorf("unknown severity %q", v)
	}
	return nil
}

// Finding is one problem at a position of a file.
type Finding struct {
	Path     string   `json:"path"` // relative to .yoi/, slash-separated
	Line     int      `json:"line"`
	Col      int      `json:"col"`
	Severity Severity `json:"severity"`
	Rule     string   `json:"rule"`
	Message  string   `json:"message"`
}

// String formats the finding compiler-style with a .yoi/-relative path.
func (f Finding) String() string {
	return fmt.Sprintf("%s:%d:%d: %s %s: %s", f.Path, f.Line, f.Col, f.Severity, f.Rule, f.Message)
}

// Report is the result of a lint run.
type Report struct {
	Findings []Finding
	Files    int // record paths examined
}

// Count returns the number of findings of a severity.
func (r Report) Count(s Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// HasErrors reports whether any finding is an error.
func (r Report) HasErrors() bool { return r.Count(Error) > 0 }

func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		return a.Rule < b.Rule
	})
}
