package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/yoimem/git-yoimem/internal/quote"
)

// Exit codes, documented in the README and in `git yoimem --help`.
const (
	exitOK        = 0
	exitFindings  = 1 // lint found errors; an operation was refused
	exitCannotRun = 2 // usage error, not a repository, bad configuration, I/O failure
	exitLocked    = 3 // another process holds a lock
	exitInterrupt = 130
)

// exitError carries an exit code and hints the user can act on.
type exitError struct {
	code  int
	err   error
	hints []string
	usage bool // a bad flag or argument: run adds the command's usage when there is no hint
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

// cannotRun marks an error as "could not run" (exit 2), with hints.
func cannotRun(err error, hints ...string) error {
	return &exitError{code: exitCannotRun, err: err, hints: hints}
}

// usageError is a bad flag or argument (exit 2). Without a hint of its
// own, run adds the usage of the command it was given to (usageHints).
func usageError(format string, args ...any) *exitError {
	return &exitError{code: exitCannotRun, err: fmt.Errorf(format, args...), usage: true}
}

// usageErrorHint is a usage error with a hint of its own.
func usageErrorHint(hint, format string, args ...any) *exitError {
	e := usageError(format, args...)
	e.hints = []string{hint}
	return e
}

// silentExit ends with a code after the command has said all it has to say.
type silentExit int

func (s silentExit) Error() string { return fmt.Sprintf("exit %d", int(s)) }

// report prints err as "git-yoimem: error: …" with hints and returns the
// exit code.
func report(w io.Writer, err error) int {
	var silent silentExit
	if errors.As(err, &silent) {
		return int(silent)
	}
	code := exitCannotRun
	var hints []string
	var ee *exitError
	if errors.As(err, &ee) {
		code, hints = ee.code, ee.hints
	}
	msg := strings.TrimSpace(err.Error())
	fmt.Fprintf(w, "git-yoimem: error: %s\n", terminalSafe(msg))
	for _, h := range hints {
		fmt.Fprintf(w, "hint: %s\n", terminalSafe(h))
	}
	return code
}

func warnf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "git-yoimem: warning: %s\n", terminalSafe(fmt.Sprintf(format, args...)))
}

// terminalSafe escapes the control bytes of a message but its line breaks
// and tabs (a refusal lists its findings a line each), and cuts a line
// over 1 KiB: whatever a message echoes (a name someone typed, git's
// stderr, a model's error), no escape sequence or carriage return reaches
// the terminal, and no line floods it. Names are quoted and cut where they
// are put in a message; this is the net under them.
func terminalSafe(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		cells := strings.Split(l, "\t")
		for j, c := range cells {
			cells[j] = quote.Controls(c)
		}
		lines[i] = quote.Line(strings.Join(cells, "\t"))
	}
	return strings.Join(lines, "\n")
}

func statusf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, format+"\n", args...)
}
