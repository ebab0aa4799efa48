package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/record"
)

// A scenario's repository: a fresh git repository in a temporary
// directory, with its own HOME and git configuration (nothing of the
// user's), fixed identity and dates, the before tree committed as main's
// tip under .yoi/, then the read-only records and the staging in the
// working tree.

// repoReadme is the repository's README, so that it is not memory only.
const repoReadme = "# scenario\n\nA repository made by git yoimem eval for one scenario.\n"

// gitEnv is base without the variables that would reach the user's git
// configuration or repository, with an isolated HOME and fixed identity
// and dates (at the scenario's clock).
func gitEnv(base []string, home string, now time.Time) []string {
	var env []string
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GIT_") || k == "HOME" || k == "XDG_CONFIG_HOME" || k == "EMAIL" {
			continue
		}
		env = append(env, kv)
	}
	date := now.Format(time.RFC3339)
	return append(env,
		"HOME="+home,
		"XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL="+filepath.Join(home, ".gitconfig"),
		"GIT_AUTHOR_NAME=Scenario", "GIT_AUTHOR_EMAIL=scenario@example.com", "GIT_AUTHOR_DATE="+date,
		"GIT_COMMITTER_NAME=Scenario", "GIT_COMMITTER_EMAIL=scenario@example.com", "GIT_COMMITTER_DATE="+date,
	)
}

// lookup is a Getenv over env.
func lookup(env []string) func(string) string {
	return func(key string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
				return v
			}
		}
		return ""
	}
}

// makeRepo builds sc's repository in dir with git g.
func makeRepo(ctx context.Context, g gitstore.Git, sc *Scenario) error {
	dir := g.Dir
	if err := writeFile(filepath.Join(dir, "README.md"), []byte(repoReadme)); err != nil {
		return err
	}
	for rel, b := range sc.Before {
		if err := writeFile(filepath.Join(dir, record.Dir, filepath.FromSlash(rel)), b); err != nil {
			return err
		}
	}
	for _, args := range [][]string{
		{"init", "-q", "-b", "main"},
		{"config", "core.autocrlf", "false"},
		{"add", "-A"},
		{"commit", "-q", "--no-verify", "-m", "scenario " + sc.Name + ": the memory before the run"},
	} {
		if _, err := g.Run(ctx, args...); err != nil {
			return fmt.Errorf("scenario %s: the repository: %w", sc.Name, err)
		}
	}
	for _, rel := range sc.ReadOnly {
		if err := os.Chmod(filepath.Join(dir, record.Dir, filepath.FromSlash(rel)), 0o444); err != nil {
			return fmt.Errorf("scenario %s: readonly: %w", sc.Name, err)
		}
	}
	staging := filepath.Join(dir, record.Dir, filepath.FromSlash(record.StagingDir))
	for _, f := range sc.Staging {
		if err := writeFile(filepath.Join(staging, f.Name), f.Data); err != nil {
			return err
		}
	}
	return nil
}

func writeFile(p string, b []byte) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}
