//go:build unix

package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/internal/fixture"
)

// TestConsolidateSyncNeverPrompts: consolidation's fetch (yoimem.sync)
// may run where nobody answers (an agent hook's background run, a
// pre-commit hook): a remote that asks for credentials makes it warn and
// consolidate on the local memory, without asking anyone — no askpass
// program (a dialog waiting on a desktop), no terminal prompt. Credential
// helpers, which answer by themselves, still run.
func TestConsolidateSyncNeverPrompts(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.Header().Set("WWW-Authenticate", `Basic realm="memory"`)
		http.Error(w, "credentials, please", http.StatusUnauthorized)
	}))
	defer srv.Close()

	root := t.TempDir()
	dir, home := filepath.Join(root, "repo"), filepath.Join(root, "home")
	for _, d := range []string{dir, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	askpass, helper := filepath.Join(root, "askpass.sh"), filepath.Join(root, "helper.sh")
	askpassLog, helperLog := filepath.Join(root, "askpass.log"), filepath.Join(root, "helper.log")
	// The askpass program would wait for a person; here it says it was asked.
	writeScript(t, askpass, "#!/bin/sh\necho \"$1\" >> '"+askpassLog+"'\nexit 1\n")
	writeScript(t, helper, "#!/bin/sh\necho \"$1 GIT_TERMINAL_PROMPT=$GIT_TERMINAL_PROMPT\" >> '"+helperLog+"'\n")
	gitconfig := "[init]\n\tdefaultBranch = main\n[user]\n\tname = T\n\temail = t@example.com\n[credential]\n\thelper = " + helper + "\n"
	if err := os.WriteFile(filepath.Join(home, ".gitconfig"), []byte(gitconfig), 0o644); err != nil {
		t.Fatal(err)
	}
	environ := append(fixture.Env(home), "GIT_ASKPASS="+askpass, "SSH_ASKPASS="+askpass, "LC_ALL=C")
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = dir, environ
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	yoimem := func(args ...string) (stdout, stderr string, code int) {
		t.Helper()
		env, out, errOut := testEnv(t, dir, home)
		env.Getenv = func(k string) string { return lookup(environ, k) }
		env.Environ = func() []string { return append([]string(nil), environ...) }
		// Generous: a sync that waits on a prompt waits for ever.
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		code = run(ctx, append([]string{"git-yoimem"}, args...), env)
		if ctx.Err() != nil {
			t.Fatalf("git yoimem %s did not end: %s", strings.Join(args, " "), errOut)
		}
		return out.String(), errOut.String(), code
	}
	git("init", "-q")
	if _, stderr, code := yoimem("init", "--no-hooks"); code != 0 {
		t.Fatalf("init: %d %s", code, stderr)
	}
	git("add", "-A")
	git("commit", "-q", "-m", "memory layout")
	git("remote", "add", "origin", srv.URL+"/memory.git")
	staging := filepath.Join(dir, ".yoi", "memory", "_staging", realStagingID+".json")
	if err := os.MkdirAll(filepath.Dir(staging), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(staging, []byte(realStagingEntry), 0o644); err != nil {
		t.Fatal(err)
	}

	stdout, stderr, code := yoimem("consolidate")
	if code != 0 {
		t.Fatalf("consolidate exited %d\n%s", code, stderr)
	}
	if !strings.Contains(stderr, "could not bring in the remote's memory") || !strings.Contains(stdout, "add .yoi/memory/decisions/") {
		t.Fatalf("want a warning and a commit on the local memory:\n%s\n%s", stdout, stderr)
	}
	if asked.Load() == 0 {
		t.Fatal("the remote was never asked")
	}
	if b, err := os.ReadFile(askpassLog); err == nil {
		t.Fatalf("consolidation ran the askpass program: %s", b)
	}
	b, err := os.ReadFile(helperLog)
	if err != nil {
		t.Fatalf("the credential helper did not run: %v", err)
	}
	if !strings.Contains(string(b), "get GIT_TERMINAL_PROMPT=0") {
		t.Fatalf("the credential helper saw %q, want git's terminal prompt off", b)
	}
}

func writeScript(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o755); err != nil {
		t.Fatal(err)
	}
}
