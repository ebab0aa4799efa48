package llm

import (
	"bytes"
	"context"
	"errors"
	"os/exec"
	"time"
)

// Execer runs a command with stdin and returns what it printed. A nonzero
// exit is not an error: it is ExecResult.ExitCode. Err is for a command
// that could not run or was stopped by ctx.
type Execer interface {
	Exec(ctx context.Context, argv []string, stdin []byte) (ExecResult, error)
}

// ExecResult is a finished command.
type ExecResult struct {
	Stdout, Stderr []byte
	ExitCode       int
}

// OSExec runs commands with os/exec. When ctx is done the command's whole
// process group is killed, and the wait for its output pipes is bounded,
// so a command never hangs the caller.
type OSExec struct {
	Dir string
	Env []string // nil: the process's environment
}

// execWaitDelay bounds the wait for the pipes once the command was killed.
const execWaitDelay = 500 * time.Millisecond

// Exec runs argv.
func (o OSExec) Exec(ctx context.Context, argv []string, stdin []byte) (ExecResult, error) {
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir, cmd.Env = o.Dir, o.Env
	cmd.Stdin = bytes.NewReader(stdin)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = execWaitDelay
	killGroup(cmd)
	err := cmd.Run()
	res := ExecResult{Stdout: stdout.Bytes(), Stderr: stderr.Bytes()}
	if ctx.Err() != nil {
		return res, ctx.Err()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		res.ExitCode = ee.ExitCode()
		return res, nil
	}
	return res, err
}
