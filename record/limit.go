package record

import (
	"github.com/yoimem/git-yoimem/internal/quote"
)

// TooLargeError is a file or an input refused by a size limit. Nothing past
// a limit is ever cut and used: the reader gets this error instead, with
// the real size and what sets the limit, so that the message says what to
// change.
type TooLargeError struct {
	Path    string // the file, relative to .yoi/; empty when What names the input
	What    string // the input when it is not a record file, e.g. "standard input"
	Size    int64  // the real size in bytes
	Limit   int64  // the limit it is over
	Setting string // the configuration key or flag that sets Limit
}

func (e *TooLargeError) Error() string {
	what := e.What
	if e.Path != "" {
		what = DisplayPath(e.Path)
	}
	return what + " is " + e.Reason()
}

// Reason is the message without the file's name, for lists that name it
// already: "1,734,112 bytes, over the limit of 1,048,576
// (yoimem.lint.maxFileBytes)".
func (e *TooLargeError) Reason() string {
	s := quote.Thousands(e.Size) + " bytes, over the limit of " + quote.Thousands(e.Limit)
	if e.Setting != "" {
		s += " (" + e.Setting + ")"
	}
	return s
}
