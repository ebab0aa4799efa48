package config

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"

	"github.com/yoimem/git-yoimem/internal/quote"
)

// GitRunner runs git with args in the repository and returns its standard
// output. When git exits with a non-zero status the error must say so
// through an ExitCode() int method, as *exec.ExitError does; git's
// standard error, when the error carries it (as exec.Cmd.Output fills in
// ExitError.Stderr), is quoted in FromGit's error.
type GitRunner func(ctx context.Context, args ...string) ([]byte, error)

// FromGit returns the yoimem.* settings that git sees, in git's order
// (system, global, local, worktree, then command line; within a file, top
// to bottom), with one run of
//
//	git config -z --show-scope --show-origin --get-regexp '^yoimem\.'
//
// Each Entry's Origin has Kind Git and the scope and origin as git prints
// them ("local file:.git/config"). Names are as git prints them: section
// and key lowercased, subsection as written. Having no yoimem.* setting is
// not an error.
func FromGit(ctx context.Context, git GitRunner) ([]Entry, error) {
	out, err := git(ctx, "config", "-z", "--show-scope", "--show-origin", "--get-regexp", `^yoimem\.`)
	if err != nil {
		var exit interface{ ExitCode() int }
		if errors.As(err, &exit) && exit.ExitCode() == 1 && len(out) == 0 {
			return nil, nil // no key matches
		}
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if msg := strings.TrimSpace(string(ee.Stderr)); msg != "" {
				return nil, fmt.Errorf("reading git config yoimem.*: %s: %w", msg, err)
			}
		}
		return nil, fmt.Errorf("reading git config yoimem.*: %w", err)
	}
	return parseGitOutput(out)
}

// parseGitOutput parses the output of git config -z --show-scope
// --show-origin --get-regexp: records of three NUL-terminated fields, the
// scope ("local"), the origin ("file:.git/config", "command line:") and
// the key, followed by a newline and the value when the key has one.
func parseGitOutput(out []byte) ([]Entry, error) {
	if len(out) == 0 {
		return nil, nil
	}
	if out[len(out)-1] != 0 {
		return nil, fmt.Errorf("reading git config yoimem.*: output does not end with NUL")
	}
	fields := bytes.Split(out[:len(out)-1], []byte{0})
	if len(fields)%3 != 0 {
		return nil, fmt.Errorf("reading git config yoimem.*: expected records of scope, origin and key, got %d fields", len(fields))
	}
	entries := make([]Entry, 0, len(fields)/3)
	for i := 0; i < len(fields); i += 3 {
		scope, origin, kv := string(fields[i]), string(fields[i+1]), string(fields[i+2])
		name, value, hasValue := strings.Cut(kv, "\n")
		if name == "" || scope == "" || strings.Contains(scope, " ") {
			return nil, fmt.Errorf("reading git config yoimem.*: malformed record %s", quote.Value(scope+"\x00"+origin+"\x00"+kv))
		}
		entries = append(entries, Entry{
			Name:    name,
			Value:   value,
			NoValue: !hasValue,
			Origin:  Origin{Kind: Git, Detail: scope + " " + origin},
		})
	}
	return entries, nil
}
