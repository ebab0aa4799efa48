package memory

import (
	"errors"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/internal/quote"
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

// shown prints a path for a message: from the workspace root, quoted as
// git quotes a path when it holds a control character, a quote or a
// backslash (a newline cannot break the message, an escape cannot reach
// the terminal), or as it was given (quoted) when it is not a path inside
// .yoi/ at all.
func shown(p string) string {
	if _, err := record.CleanRel(p); err != nil {
		return quote.Value(p)
	}
	return quote.PathValue(record.DisplayPath(p), false)
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
	return fmt.Sprintf("%s %s: changed since you read it (blob %s, %s); read it again", e.Op, shown(e.Path), e.Expected, now)
}

// Unwrap makes errors.Is(err, record.ErrChanged) hold.
func (e *ChangedError) Unwrap() error { return record.ErrChanged }

// Errors of the tools.
var (
	ErrReadOnly = errors.New("the file is read-only (its owner locked it); leave it as it is")
	// ErrBadExpect is an expect that is no blob id at all (an
	// abbreviation, a typo): a mistake to say, not a change to report.
	ErrBadExpect = errors.New("not a blob id")
)

// CheckExpect checks an expect (of write, edit, delete): empty, or a blob
// id in full, the 40 hex digits memory_read and 'memory read --format
// json' give.
func CheckExpect(expect string) error {
	if expect == "" {
		return nil
	}
	ok := len(expect) == 40
	for i := 0; ok && i < len(expect); i++ {
		c := expect[i]
		ok = '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
	}
	if !ok {
		return fmt.Errorf("expect %s is %w: give the 40 hex digits the read gave (its blob), not an abbreviation", quote.Value(expect), ErrBadExpect)
	}
	return nil
}

// opError names the operation and the record, as every error of the tools
// does: "edit .yoi/knowledge/retry.md: …".
func opError(op, path string, err error) error {
	return fmt.Errorf("%s %s: %w", op, shown(path), err)
}
