package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/quote"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/internal/capture"
)

// Git runs git commands in a directory with a given environment.
type Git struct {
	Dir string
	// Env is the full environment of the child; nil inherits the process's.
	Env []string
	// Path is the git executable; empty means "git" from PATH.
	Path string
	// MaxOutput bounds what is read of a command's stdout; 0:
	// DefaultMaxOutput. Past it the command is killed and fails with an
	// *OutputLimitError.
	MaxOutput int64
}

// DefaultMaxOutput is Git.MaxOutput when it is not set: far more than the
// listings of .yoi/ and the memory commits git-yoimem reads, and a bound on
// what a damaged repository or a hostile git can make it hold.
const DefaultMaxOutput = 64 << 20

// stderrKeep is how much of the start and of the end of a command's
// stderr an Error keeps: stderr is read to its end, but only its ends
// are a message.
const stderrKeep = 16 << 10

// OutputLimitError is a git command that printed more than Git.MaxOutput
// bytes on stdout; it was killed.
type OutputLimitError struct {
	Args  []string
	Limit int64
}

func (e *OutputLimitError) Error() string {
	return fmt.Sprintf("git %s printed more than %s bytes, the most git-yoimem reads from a git command; it was stopped",
		subcommand(e.Args), quote.Thousands(e.Limit))
}

// subcommand is the git command args run (log, ls-files…): past the
// options of git itself (-c key=value, -C dir, --git-dir=…).
func subcommand(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "-c" || a == "-C":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return "(no command)"
}

// Error is a failed git command with what it printed on stderr.
type Error struct {
	Args     []string
	ExitCode int
	Stderr   string
	Err      error
}

func (e *Error) Error() string {
	msg := strings.TrimSpace(e.Stderr)
	if msg == "" {
		msg = e.Err.Error()
	}
	return fmt.Sprintf("git %s: %s", strings.Join(e.Args, " "), msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Run runs git with args and returns its stdout.
func (g Git) Run(ctx context.Context, args ...string) ([]byte, error) {
	return g.RunInput(ctx, nil, args...)
}

// RunInput runs git with stdin. At most MaxOutput bytes of stdout are
// read (past them git is killed: *OutputLimitError), and the start and end
// of stderr are kept for the error.
func (g Git) RunInput(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	path := g.Path
	if path == "" {
		path = "git"
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir = g.Dir
	cmd.Env = g.Env
	// git's children (aliases, hooks) inherit its stdout and stderr; without
	// a delay, a canceled command waits for them to close the pipes.
	cmd.WaitDelay = waitDelay
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	stdout := &capture.Limited{Max: orDefault(g.MaxOutput, DefaultMaxOutput), OnOver: cancel}
	stderr := &capture.HeadTail{Keep: stderrKeep}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	err := cmd.Run()
	if stdout.Over() {
		return nil, &OutputLimitError{Args: args, Limit: stdout.Max}
	}
	if err != nil {
		code := -1
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		return stdout.Bytes(), &Error{Args: args, ExitCode: code, Stderr: stderr.String(), Err: err}
	}
	return stdout.Bytes(), nil
}

func orDefault(v, def int64) int64 {
	if v <= 0 {
		return def
	}
	return v
}

// waitDelay bounds the wait for git's output pipes once git has exited or
// its context is done.
const waitDelay = 500 * time.Millisecond

// ErrNotRepository means the directory is not inside a git working tree.
var ErrNotRepository = errors.New("not a git repository")

// ErrNoWorkTree means the repository is bare or the directory is inside .git.
var ErrNoWorkTree = errors.New("no working tree")

// Repo is where a repository's parts are, as absolute paths.
type Repo struct {
	TopLevel  string // working tree root
	GitDir    string // this worktree's git dir
	CommonDir string // shared git dir (differs from GitDir in linked worktrees)
	Git       Git    // runs git at TopLevel
}

// Contains reports whether dir (absolute, clean; it need not exist yet)
// lies in the working tree: at TopLevel or below it, and not in the git
// directory, once the symbolic links of its existing part are resolved.
func (r Repo) Contains(dir string) bool {
	real := resolveExisting(dir)
	return within(real, r.TopLevel) && (r.GitDir == "" || !within(real, r.GitDir)) && (r.CommonDir == "" || !within(real, r.CommonDir))
}

// within reports whether real is dir or below it (dir's links resolved).
func within(real, dir string) bool {
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	rel, err := filepath.Rel(dir, real)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// resolveExisting resolves the symbolic links of the longest existing
// prefix of an absolute, clean path and appends the rest.
func resolveExisting(p string) string {
	rest := ""
	for {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// Locate finds the repository that contains g.Dir with one git call.
func Locate(ctx context.Context, g Git) (Repo, error) {
	// The errors are told apart by git's message, so it must be untranslated.
	c := g
	c.Env = untranslated(g.Env)
	out, err := c.Run(ctx, "rev-parse", "--path-format=absolute", "--is-inside-work-tree", "--git-dir", "--git-common-dir", "--show-toplevel")
	if err != nil {
		var ge *Error
		if errors.As(err, &ge) && strings.Contains(ge.Stderr, "not a git repository") {
			return Repo{}, fmt.Errorf("%s: %w", g.Dir, ErrNotRepository)
		}
		if errors.As(err, &ge) && strings.Contains(ge.Stderr, "must be run in a work tree") {
			return Repo{}, fmt.Errorf("%s: %w", g.Dir, ErrNoWorkTree)
		}
		return Repo{}, fmt.Errorf("locate repository at %s: %w", g.Dir, err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) < 4 || lines[0] != "true" {
		return Repo{}, fmt.Errorf("%s: %w", g.Dir, ErrNoWorkTree)
	}
	r := Repo{GitDir: filepath.Clean(lines[1]), CommonDir: filepath.Clean(lines[2]), TopLevel: filepath.Clean(lines[3])}
	r.Git = g
	r.Git.Dir = r.TopLevel
	return r, nil
}

// untranslated returns a copy of env (nil: the process's) in which git
// prints its messages in English.
func untranslated(env []string) []string {
	if env == nil {
		env = os.Environ()
	}
	return append(env[:len(env):len(env)], "LC_ALL=C", "LANGUAGE=")
}

// Stream runs git with stdin and hands its stdout to read as it comes,
// for output too large to hold (a push's whole history). When read
// returns an error, git is killed and that error is returned; otherwise
// git's own failure is (an *Error with the ends of its stderr).
func (g Git) Stream(ctx context.Context, stdin []byte, read func(io.Reader) error, args ...string) error {
	path := g.Path
	if path == "" {
		path = "git"
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir, cmd.Env = g.Dir, g.Env
	cmd.WaitDelay = waitDelay
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	stderr := &capture.HeadTail{Keep: stderrKeep}
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return &Error{Args: args, ExitCode: -1, Err: err}
	}
	if err := cmd.Start(); err != nil {
		return &Error{Args: args, ExitCode: -1, Err: err}
	}
	rerr := read(out)
	if rerr != nil {
		cancel()
	} else {
		_, _ = io.Copy(io.Discard, out) // what read left: git must not block on a full pipe
	}
	werr := cmd.Wait()
	if rerr != nil {
		return rerr
	}
	if werr != nil {
		code := -1
		var ee *exec.ExitError
		if errors.As(werr, &ee) {
			code = ee.ExitCode()
		}
		return &Error{Args: args, ExitCode: code, Stderr: stderr.String(), Err: werr}
	}
	return nil
}
