package main

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/llm/apis"
)

var update = flag.Bool("update", false, "rewrite the expected output in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"git-yoimem": func() {
			ctx, stop := interruptible() // as main: Ctrl-C is tested too
			code := run(ctx, os.Args, realEnv())
			stop()
			os.Exit(code)
		},
		// The helper that makes Anthropic and OpenAI calls (its own binary
		// in an installation, so that git-yoimem does not link the SDKs).
		llm.DefaultAPIHelper: func() {
			if len(os.Args) < 2 || os.Args[1] != "call" {
				os.Exit(2)
			}
			os.Exit(apis.ServeCall(context.Background(), os.Args[2:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
		},
	})
}

func TestScript(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup:               isolatedGit,
	})
}

// isolatedGit gives every script its own HOME and git configuration, fixed
// dates and identities, so nothing of the machine's or the user's leaks in
// and hashes are reproducible.
func isolatedGit(e *testscript.Env) error {
	home := filepath.Join(e.WorkDir, ".home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return err
	}
	gitconfig := filepath.Join(home, ".gitconfig")
	cfg := "[init]\n\tdefaultBranch = main\n[user]\n\tname = Test\n\temail = test@example.com\n[core]\n\tautocrlf = false\n"
	if err := os.WriteFile(gitconfig, []byte(cfg), 0o644); err != nil {
		return err
	}
	// The pre-commit framework test uses the repository's real manifest.
	if manifest, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml")); err == nil {
		if err := os.WriteFile(filepath.Join(e.WorkDir, "pre-commit-hooks.yaml"), manifest, 0o644); err != nil {
			return err
		}
	}
	for k, v := range map[string]string{
		"HOME":                home,
		"XDG_CONFIG_HOME":     filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM": "1",
		"GIT_CONFIG_GLOBAL":   gitconfig,
		"GIT_AUTHOR_NAME":     "Test",
		"GIT_AUTHOR_EMAIL":    "test@example.com",
		"GIT_AUTHOR_DATE":     "2026-01-02T03:04:05Z",
		"GIT_COMMITTER_NAME":  "Test",
		"GIT_COMMITTER_EMAIL": "test@example.com",
		"GIT_COMMITTER_DATE":  "2026-01-02T03:04:05Z",
		"YOIMEM_NOW":          "2026-01-02T03:04:05Z",
		"TZ":                  "UTC",
		"LC_ALL":              "C",
	} {
		e.Setenv(k, v)
	}
	return nil
}
