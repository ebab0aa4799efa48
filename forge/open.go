package forge

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Request is a pull request to open or update.
type Request struct {
	Dir       string // the repository; the tools run there
	RemoteURL string // the remote the memory branch was pushed to
	Head      string // the branch to merge, short name: "yoimem/memory"
	Base      string // the branch to merge into, short name: "main"
	Title     string // one line; used when the request is created
	// Body is the description (Markdown from `git yoimem review`). It is
	// sent on the tool's stdin, never on its command line.
	Body []byte
	// BodyFile is the absolute path the body is written to when the
	// request must be opened by hand, e.g. under the git directory. The
	// caller chooses it; nothing is written there otherwise.
	BodyFile string
	// Env is the tools' environment, and where GH_HOST and GITLAB_HOST
	// are read; nil: the process's.
	Env []string
	// Exec finds and runs the tools; nil: System.
	Exec Exec
}

// Action is what Open did.
type Action string

const (
	Created Action = "created" // a new request was opened
	Updated Action = "updated" // the open request's description was replaced
	Manual  Action = "manual"  // nothing was run: see Result.Command
)

// Result is what Open did, and what to do by hand when it could not.
type Result struct {
	Action Action `json:"action"`
	URL    string `json:"url,omitempty"`    // the request's page (created, updated)
	Number int    `json:"number,omitempty"` // its number (GitLab: its IID)
	// Manual: why, the file holding the body, the command that opens the
	// request once the tool is installed and logged in (empty for a host
	// no tool serves), and the repository's web page when it is known.
	Reason   string `json:"reason,omitempty"`
	BodyFile string `json:"body_file,omitempty"`
	Command  string `json:"command,omitempty"`
	WebURL   string `json:"web_url,omitempty"`
}

// BodyError is a description that no forge stores as written: a NUL
// byte, or bytes that are not UTF-8 (both APIs take JSON strings, which
// would replace them). Open refuses it before running or writing anything.
type BodyError struct {
	Offset int
	What   string // "NUL byte", "invalid UTF-8"
}

func (e *BodyError) Error() string {
	return fmt.Sprintf("pull request description: %s at byte %d", e.What, e.Offset)
}

// Open opens the pull request (merge request) of r.Head into r.Base with
// r.Body as its description, or replaces the description of the one that
// is open, through gh or glab. When the remote's host is not one they
// serve, the tool is not installed or not logged in, it writes the body
// to r.BodyFile and returns the Manual action with the command to run.
// A tool that fails is a *CLIError; the context bounds every run.
func Open(ctx context.Context, r Request) (Result, error) {
	if err := r.check(); err != nil {
		return Result{}, err
	}
	if err := ctx.Err(); err != nil {
		return Result{}, fmt.Errorf("pull request: %w", context.Cause(ctx))
	}
	if r.Env == nil {
		r.Env = os.Environ()
	}
	if r.Exec == nil {
		r.Exec = System{}
	}
	h := Detect(r.RemoteURL, func(k string) string { return envValue(r.Env, k) })
	if h.Kind == None {
		return r.manual(h, fmt.Sprintf("%s is not a GitHub or GitLab host (GH_HOST or GITLAB_HOST names one that is)", hostOf(h, r.RemoteURL)))
	}
	path, err := r.Exec.LookPath(h.CLI(), r.Env)
	if errors.Is(err, fs.ErrNotExist) {
		return r.manual(h, h.CLI()+" is not installed (not found on PATH)")
	} else if err != nil {
		return Result{}, err
	}
	t := tool{req: r, host: h, path: path}
	if ok, why, err := t.loggedIn(ctx); err != nil {
		return Result{}, err
	} else if !ok {
		return r.manual(h, why)
	}
	return t.open(ctx)
}

// hostOf names the remote's host for a message; a URL's password is
// masked.
func hostOf(h Host, remoteURL string) string {
	if h.Name != "" {
		return h.Name
	}
	if u, err := url.Parse(remoteURL); err == nil && u.Host != "" {
		remoteURL = u.Redacted()
	}
	return fmt.Sprintf("the remote %q", remoteURL)
}

// check refuses a request no tool could take, before anything runs.
func (r Request) check() error {
	switch {
	case r.Head == "":
		return errors.New("pull request: no head branch")
	case r.Base == "":
		return errors.New("pull request: no base branch")
	case strings.TrimSpace(r.Title) == "":
		return errors.New("pull request: no title")
	case strings.ContainsAny(r.Title, "\r\n"):
		return fmt.Errorf("pull request title %q is more than one line", r.Title)
	case r.BodyFile == "" || !filepath.IsAbs(r.BodyFile):
		return fmt.Errorf("pull request: the file for the description must be an absolute path, not %q", r.BodyFile)
	}
	return checkBody(r.Body)
}

func checkBody(b []byte) error {
	for i := 0; i < len(b); {
		c, size := utf8.DecodeRune(b[i:])
		switch {
		case c == utf8.RuneError && size <= 1:
			return &BodyError{Offset: i, What: "invalid UTF-8"}
		case c == 0:
			return &BodyError{Offset: i, What: "NUL byte"}
		}
		i += size
	}
	return nil
}

// manual writes the body where the caller asked and says what to run.
func (r Request) manual(h Host, reason string) (Result, error) {
	if err := writeBody(r.BodyFile, r.Body); err != nil {
		return Result{}, err
	}
	return Result{Action: Manual, Reason: reason, BodyFile: r.BodyFile, Command: ManualCommand(h, r), WebURL: h.WebURL}, nil
}
