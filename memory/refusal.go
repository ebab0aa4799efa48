package memory

import (
	"errors"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
)

// Refusal is an operation the rules refuse, with the findings that say
// why. A finding may be about another record than Path (a delete that
// leaves references to it dangling): each names its own file.
type Refusal struct {
	Op       string // read, write, edit or delete
	Path     string // relative to .yoi/
	Findings []lint.Finding
}

func (r *Refusal) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "refused to %s %s:", r.Op, shown(r.Path))
	for _, f := range r.Findings {
		fmt.Fprintf(&b, "\n  %s:%d:%d: %s %s: %s", shown(f.Path), f.Line, f.Col, f.Severity, f.Rule, f.Message)
	}
	return b.String()
}

// shown prints a path from the workspace root, or as it was given (quoted)
// when it is not a path inside .yoi/ at all.
func shown(p string) string {
	if _, err := record.CleanRel(p); err != nil {
		return fmt.Sprintf("%q", p)
	}
	return record.DisplayPath(p)
}

// ChangedError is a write refused because the record is not the version
// its writer read (the expect of write, edit and delete).
type ChangedError struct {
	Op, Path string // Path relative to .yoi/
	Expected string // the blob id the writer read
	Now      string // the blob id it has now; "" when it is gone
}

func (e *ChangedError) Error() string {
	now := "now " + e.Now
	if e.Now == "" {
		now = "now deleted"
	}
	return fmt.Sprintf("%s %s: changed since you read it (blob %s, %s); read it again", e.Op, record.DisplayPath(e.Path), e.Expected, now)
}

// Unwrap makes errors.Is(err, record.ErrChanged) hold.
func (e *ChangedError) Unwrap() error { return record.ErrChanged }

// Errors of the tools.
var (
	ErrReadOnly = errors.New("the file is read-only (its owner locked it); leave it as it is")
)

// opError names the operation and the record, as every error of the tools
// does: "edit .yoi/knowledge/retry.md: …".
func opError(op, path string, err error) error {
	return fmt.Errorf("%s %s: %w", op, record.DisplayPath(path), err)
}
