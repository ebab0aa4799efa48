package main

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"github.com/yoimem/git-yoimem/internal/agentstub"
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
		// A scripted stand-in for an agent CLI run as a command:
		// consolidation model (claude -p, codex exec).
		"agentstub": func() {
			os.Exit(agentstub.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
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
	goEnv := goEnvironment(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(e *testscript.Env) error {
			for k, v := range goEnv {
				e.Setenv(k, v)
			}
			return isolatedGit(e)
		},
	})
}

// goEnvironment is what a script needs to run install.sh (which builds
// with go) without the network: the source tree, and this machine's module
// and build caches (HOME is the script's own).
func goEnvironment(t *testing.T) map[string]string {
	src, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"YOIMEM_SRC": src, "GOPROXY": "off", "GOSUMDB": "off", "GOTOOLCHAIN": "local", "GOFLAGS": ""}
	out, err := exec.Command("go", "env", "GOCACHE", "GOMODCACHE", "GOPATH").Output()
	if err != nil {
		return env // no go: install_sh skips itself
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	for i, k := range []string{"GOCACHE", "GOMODCACHE", "GOPATH"} {
		if i < len(lines) {
			env[k] = lines[i]
		}
	}
	return env
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
