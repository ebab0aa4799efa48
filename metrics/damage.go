package metrics

import "fmt"

// FileKind says which usage file a DamageError is in: what can be done
// about it depends on it.
type FileKind int

// The usage files.
const (
	// RunFile is a committed .yoi/metrics/<run-id>.jsonl, written whole by
	// a consolidation run and never changed: git has its good version.
	RunFile FileKind = iota
	// Journal is a session's event journal in the machine-local state,
	// never committed.
	Journal
	// Ledger is the token ledger in the machine-local state, never
	// committed.
	Ledger
)

// DamageError is a line of a usage file that cannot be read (or a read
// that failed). Its message is "file:line: what".
type DamageError struct {
	Kind FileKind
	File string // as the reader was given it (run files: .yoi/metrics/…)
	Line int
	Err  error
}

func (e *DamageError) Error() string { return fmt.Sprintf("%s:%d: %v", e.File, e.Line, e.Err) }
func (e *DamageError) Unwrap() error { return e.Err }

func damaged(kind FileKind, file string, line int, format string, args ...any) *DamageError {
	return &DamageError{Kind: kind, File: file, Line: line, Err: fmt.Errorf(format, args...)}
}
