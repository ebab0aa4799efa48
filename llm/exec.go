package llm

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"time"

	"github.com/yoimem/git-yoimem/internal/capture"
)

// Execer runs a command with stdin and returns what it printed. A nonzero
// exit is not an error: it is ExecResult.ExitCode. Err is for a command
// that could not run, was stopped by ctx, or printed more than maxStdout
// bytes on stdout (ErrStdoutLimit: it was stopped).
type Execer interface {
	Exec(ctx context.Context, argv []string, stdin []byte, maxStdout int64) (ExecResult, error)
}

// ErrStdoutLimit is an Execer's error for a command that printed more than
// maxStdout bytes on stdout.
var ErrStdoutLimit = errors.New("stdout over the limit")

// ExecResult is a finished command. Stderr holds the start and the end of
// what it printed there, however much that was.
type ExecResult struct {
	Stdout, Stderr []byte
	ExitCode       int
}

// OSExec runs commands with os/exec. When ctx is done, or the command
// prints more than maxStdout bytes, the command's whole process group is
// killed, and the wait for its output pipes is bounded, so a command never
// hangs the caller nor fills its memory.
type OSExec struct {
	Dir string
	Env []string // nil: the process's environment
}

// execWaitDelay bounds the wait for the pipes once the command was killed.
const execWaitDelay = 500 * time.Millisecond

// stderrKeep is how much of the start and of the end of a command's stderr
// is kept: enough for any message, never the flood.
const stderrKeep = 16 << 10

// Exec runs argv.
func (o OSExec) Exec(ctx context.Context, argv []string, stdin []byte, maxStdout int64) (ExecResult, error) {
	run, stop := context.WithCancel(ctx)
	defer stop()
	cmd := exec.CommandContext(run, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = o.Dir, o.Env
	cmd.Stdin = bytes.NewReader(stdin)
	stdout := &capture.Limited{Max: maxStdout, OnOver: stop}
	stderr := &capture.HeadTail{Keep: stderrKeep}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.WaitDelay = execWaitDelay
	killGroup(cmd)
	err := cmd.Run()
	res := ExecResult{Stdout: stdout.Bytes(), Stderr: []byte(stderr.String())}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	if stdout.Over() {
		return ExecResult{Stderr: res.Stderr}, fmt.Errorf("%s: %w", argv[0], ErrStdoutLimit)
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		res.ExitCode = ee.ExitCode()
		return res, nil
	}
	return res, err
}
