package forge

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// tool is a found gh or glab, run for one request.
type tool struct {
	req  Request
	host Host
	path string
}

// run runs the tool in the repository with stdin (nil: none).
func (t tool) run(ctx context.Context, stdin []byte, args ...string) ([]byte, error) {
	return t.req.Exec.Run(ctx, Command{Path: t.path, Args: args, Dir: t.req.Dir, Env: t.req.Env, Stdin: stdin})
}

// loggedIn asks `auth status --hostname HOST`. Both tools exit 1 when the
// host has no login or its token fails (gh: pkg/cmd/auth/status; glab:
// internal/commands/auth/status); then why says so, with the tool's
// last words.
func (t tool) loggedIn(ctx context.Context) (ok bool, why string, err error) {
	_, err = t.run(ctx, nil, "auth", "status", "--hostname", t.host.Name)
	var ce *CLIError
	if errors.As(err, &ce) && ce.ExitCode > 0 {
		why = fmt.Sprintf("%s is not logged in to %s (%s auth login --hostname %s)", t.host.CLI(), t.host.Name, t.host.CLI(), t.host.Name)
		if tail := lastLines(ce.Stderr, 1); tail != "" {
			why += ": " + tail
		}
		return false, why, nil
	}
	return err == nil, "", err
}

// open finds the open request for the branch and updates it, or creates
// one.
func (t tool) open(ctx context.Context) (Result, error) {
	if t.host.Kind == GitLab {
		return t.openGitLab(ctx)
	}
	return t.openGitHub(ctx)
}

// flag is a flag and its value as two words, or as --name=value when the
// value starts with "-" (and could be read as a flag; "-" alone is stdin).
func flag(name, value string) []string {
	if strings.HasPrefix(value, "-") && value != "-" {
		return []string{name + "=" + value}
	}
	return []string{name, value}
}

func args(parts ...[]string) []string {
	var out []string
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func words(w ...string) []string { return w }

// numberAfter is the number that ends url after sep ("/pull/12" → 12).
func numberAfter(url, sep string) (int, bool) {
	i := strings.LastIndex(url, sep)
	if i < 0 {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimRight(url[i+len(sep):], "/"))
	return n, err == nil && n > 0
}
