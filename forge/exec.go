package forge

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/internal/capture"
	"github.com/yoimem/git-yoimem/internal/quote"
)

// Command is one run of a tool.
type Command struct {
	Path  string   // the executable, as LookPath found it
	Args  []string // after the program name
	Dir   string
	Env   []string // the whole environment
	Stdin []byte   // nil: no input (the null device)
}

// Exec is the seam through which Open finds and runs the tools.
type Exec interface {
	// LookPath finds a tool on the PATH of env; fs.ErrNotExist (wrapped)
	// when it is not there.
	LookPath(name string, env []string) (string, error)
	// Run runs c and returns its stdout; a tool that exits non-zero is a
	// *CLIError.
	Run(ctx context.Context, c Command) ([]byte, error)
}

// System runs the tools as child processes.
type System struct{}

// quiet is set in every tool's environment: no prompt can wait for an
// answer nobody gives, no pager or update notice gets in the output.
// gh: `gh help environment` (pkg/cmd/root/help_topic.go of cli/cli);
// glab: cmd/glab/main.go, internal/iostreams/pager.go and
// internal/commands/update/check_update.go of gitlab-org/cli (checked at
// v1.7x, December 2025; NO_PROMPT is deprecated there for GLAB_NO_PROMPT).
func quiet() []string {
	return []string{
		"GH_PROMPT_DISABLED=1", "GH_PAGER=cat", "GH_NO_UPDATE_NOTIFIER=1", "GH_SPINNER_DISABLED=1",
		"GLAB_NO_PROMPT=true", "GLAB_PAGER=cat", "GLAB_CHECK_UPDATE=false",
		"NO_COLOR=1", "PAGER=cat",
	}
}

// maxOutput bounds what is read of a tool's stdout: a listing of open
// requests for one branch, or one created request, is a few KiB.
const maxOutput = 4 << 20

// stderrKeep is how much of each end of a tool's stderr is kept.
const stderrKeep = 8 << 10

// waitDelay bounds the wait for the output pipes once the tool has exited
// or the context is done (a tool's children may hold them).
const waitDelay = 500 * time.Millisecond

// LookPath searches the absolute directories of the PATH of env (not the
// process's): the tools run with env, so they must be found in it.
func (System) LookPath(name string, env []string) (string, error) {
	for _, dir := range filepath.SplitList(envValue(env, "PATH")) {
		if !filepath.IsAbs(dir) {
			continue // "" and relative entries name the current directory: the repository
		}
		p := filepath.Join(dir, name)
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return p, nil
		}
	}
	return "", fmt.Errorf("%s: not found on PATH: %w", name, fs.ErrNotExist)
}

// Run runs c with the quiet settings added to its environment.
func (System) Run(ctx context.Context, c Command) ([]byte, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.Path, c.Args...)
	cmd.Dir = c.Dir
	cmd.Env = append(append([]string(nil), c.Env...), quiet()...)
	cmd.WaitDelay = waitDelay
	detach(cmd)
	if c.Stdin != nil {
		cmd.Stdin = bytes.NewReader(c.Stdin)
	}
	stdout := &capture.Limited{Max: maxOutput, OnOver: cancel}
	stderr := &capture.HeadTail{Keep: stderrKeep}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	if ctx.Err() != nil && !stdout.Over() {
		return nil, fmt.Errorf("%s %s: %w", filepath.Base(c.Path), subcommand(c.Args), context.Cause(ctx))
	}
	if err != nil || stdout.Over() {
		e := &CLIError{Name: filepath.Base(c.Path), Args: c.Args, ExitCode: -1, Stderr: stderr.String(), Err: err}
		if stdout.Over() {
			e.Err = fmt.Errorf("printed more than %s bytes", quote.Thousands(maxOutput))
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			e.ExitCode = ee.ExitCode()
		}
		return nil, e
	}
	return stdout.Bytes(), nil
}

// CLIError is a tool that failed: its name, subcommand, exit code and
// the end of what it printed on stderr.
type CLIError struct {
	Name     string
	Args     []string
	ExitCode int // -1 when it did not exit by itself
	Stderr   string
	Err      error
}

func (e *CLIError) Error() string {
	msg := fmt.Sprintf("%s %s: %v", e.Name, subcommand(e.Args), e.Err)
	if tail := lastLines(e.Stderr, 3); tail != "" {
		msg += ": " + tail
	}
	return msg
}

func (e *CLIError) Unwrap() error { return e.Err }

// subcommand is the words before the first flag ("pr create", "api").
func subcommand(args []string) string {
	var words []string
	for _, a := range args {
		if strings.HasPrefix(a, "-") || len(words) == 2 {
			break
		}
		words = append(words, a)
	}
	return strings.Join(words, " ")
}

// lastLines is the last n non-blank lines of s on one line, control
// characters escaped: a tool's last words are its error.
func lastLines(s string, n int) string {
	var keep []string
	lines := strings.Split(s, "\n")
	for i := len(lines) - 1; i >= 0 && len(keep) < n; i-- {
		if l := strings.TrimSpace(lines[i]); l != "" {
			keep = append([]string{quote.Controls(l)}, keep...)
		}
	}
	return strings.Join(keep, " / ")
}

// envValue is the last value of key in env (the one a child sees).
func envValue(env []string, key string) string {
	for i := len(env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}
