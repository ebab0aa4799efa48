package gitstore

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestLocate(t *testing.T) {
	type want struct{ top, gitDir, commonDir string }
	tests := []struct {
		name string
		// setup returns the directory to locate from, the environment and
		// the expected repository.
		setup func(t *testing.T) (dir string, env []string, w want)
	}{
		{
			name: "top level",
			setup: func(t *testing.T) (string, []string, want) {
				repo, env := newRepo(t)
				return repo, env, want{repo, filepath.Join(repo, ".git"), filepath.Join(repo, ".git")}
			},
		},
		{
			name: "subdirectory",
			setup: func(t *testing.T) (string, []string, want) {
				repo, env := newRepo(t)
				sub := mkdirAll(t, repo, ".yoi/knowledge")
				return sub, env, want{repo, filepath.Join(repo, ".git"), filepath.Join(repo, ".git")}
			},
		},
		{
			name: "unclean directory",
			setup: func(t *testing.T) (string, []string, want) {
				repo, env := newRepo(t)
				mkdirAll(t, repo, "a/b")
				dir := repo + "/a//b/../b/./"
				return dir, env, want{repo, filepath.Join(repo, ".git"), filepath.Join(repo, ".git")}
			},
		},
		{
			name: "linked worktree",
			setup: func(t *testing.T) (string, []string, want) {
				repo, env := newRepo(t)
				wt := filepath.Join(filepath.Dir(repo), "linked wt")
				runGit(t, repo, env, "worktree", "add", "-q", "-b", "side", wt)
				sub := mkdirAll(t, wt, "sub")
				// git names the admin directory after the worktree, but
				// sanitized ("linked-wt"); the .git file says where it is.
				return sub, env, want{wt, linkedGitDir(t, wt), filepath.Join(repo, ".git")}
			},
		},
		{
			name: "main worktree of a repository with a linked one",
			setup: func(t *testing.T) (string, []string, want) {
				repo, env := newRepo(t)
				runGit(t, repo, env, "worktree", "add", "-q", "-b", "side", filepath.Join(filepath.Dir(repo), "wt"))
				return repo, env, want{repo, filepath.Join(repo, ".git"), filepath.Join(repo, ".git")}
			},
		},
		{
			name: "separate git dir",
			setup: func(t *testing.T) (string, []string, want) {
				root, env := newGitEnv(t)
				work, gd := filepath.Join(root, "work"), filepath.Join(root, "store.git")
				runGit(t, root, env, "init", "-q", "--separate-git-dir", gd, work)
				return work, env, want{work, gd, gd}
			},
		},
		{
			name: "worktreeConfig extension",
			setup: func(t *testing.T) (string, []string, want) {
				repo, env := newRepo(t)
				runGit(t, repo, env, "config", "core.repositoryformatversion", "1")
				runGit(t, repo, env, "config", "extensions.worktreeConfig", "true")
				runGit(t, repo, env, "config", "--worktree", "yoimem.test", "1")
				if _, err := os.Stat(filepath.Join(repo, ".git", "config.worktree")); err != nil {
					t.Fatalf("config.worktree not written: %v", err)
				}
				return repo, env, want{repo, filepath.Join(repo, ".git"), filepath.Join(repo, ".git")}
			},
		},
		{
			name: "worktreeConfig extension, linked worktree",
			setup: func(t *testing.T) (string, []string, want) {
				repo, env := newRepo(t)
				runGit(t, repo, env, "config", "core.repositoryformatversion", "1")
				runGit(t, repo, env, "config", "extensions.worktreeConfig", "true")
				wt := filepath.Join(filepath.Dir(repo), "wt")
				runGit(t, repo, env, "worktree", "add", "-q", "-b", "side", wt)
				runGit(t, wt, env, "config", "--worktree", "yoimem.test", "1")
				if _, err := os.Stat(filepath.Join(repo, ".git", "worktrees", "wt", "config.worktree")); err != nil {
					t.Fatalf("config.worktree not written: %v", err)
				}
				return wt, env, want{wt, filepath.Join(repo, ".git", "worktrees", "wt"), filepath.Join(repo, ".git")}
			},
		},
		{
			name: "spaces in path",
			setup: func(t *testing.T) (string, []string, want) {
				root, env := newGitEnv(t)
				repo := filepath.Join(root, "my repo")
				runGit(t, root, env, "init", "-q", repo)
				sub := mkdirAll(t, repo, "sub dir/more  spaces ")
				return sub, env, want{repo, filepath.Join(repo, ".git"), filepath.Join(repo, ".git")}
			},
		},
		{
			name: "unborn branch",
			setup: func(t *testing.T) (string, []string, want) {
				root, env := newGitEnv(t)
				repo := filepath.Join(root, "fresh")
				runGit(t, root, env, "init", "-q", repo)
				return repo, env, want{repo, filepath.Join(repo, ".git"), filepath.Join(repo, ".git")}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, env, w := tt.setup(t)
			g := Git{Dir: dir, Env: env}
			r, err := Locate(context.Background(), g)
			if err != nil {
				t.Fatalf("Locate(%q): %v", dir, err)
			}
			checkRepoPaths(t, r)
			if r.TopLevel != w.top || r.GitDir != w.gitDir || r.CommonDir != w.commonDir {
				t.Errorf("Locate(%q) =\n  TopLevel  %q\n  GitDir    %q\n  CommonDir %q\nwant\n  TopLevel  %q\n  GitDir    %q\n  CommonDir %q",
					dir, r.TopLevel, r.GitDir, r.CommonDir, w.top, w.gitDir, w.commonDir)
			}
			if r.Git.Dir != r.TopLevel {
				t.Errorf("Repo.Git.Dir = %q, want TopLevel %q", r.Git.Dir, r.TopLevel)
			}
			if !slices.Equal(r.Git.Env, env) || r.Git.Path != g.Path {
				t.Errorf("Repo.Git does not keep the Env and Path of the Git it was located with")
			}
			// The returned Git runs at the top level.
			out, err := r.Git.Run(context.Background(), "rev-parse", "--show-prefix")
			if err != nil {
				t.Fatal(err)
			}
			if s := strings.TrimSpace(string(out)); s != "" {
				t.Errorf("Repo.Git runs in %q below the top level, want the top level", s)
			}
		})
	}
}

// TestLocateRelativeDir locates from a relative Dir; the paths must still
// be absolute.
func TestLocateRelativeDir(t *testing.T) {
	repo, env := newRepo(t)
	mkdirAll(t, repo, "sub")
	t.Chdir(repo)
	r, err := Locate(context.Background(), Git{Dir: "sub", Env: env})
	if err != nil {
		t.Fatal(err)
	}
	checkRepoPaths(t, r)
	if r.TopLevel != repo {
		t.Errorf("TopLevel = %q, want %q", r.TopLevel, repo)
	}
}

// linkedGitDir reads a linked worktree's .git file ("gitdir: <path>").
func linkedGitDir(t *testing.T, wt string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(wt, ".git"))
	if err != nil {
		t.Fatal(err)
	}
	gd, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir: ")
	if !ok || !filepath.IsAbs(gd) {
		t.Fatalf("%s/.git = %q, want \"gitdir: <absolute path>\"", wt, b)
	}
	return gd
}

func checkRepoPaths(t *testing.T, r Repo) {
	t.Helper()
	for name, p := range map[string]string{"TopLevel": r.TopLevel, "GitDir": r.GitDir, "CommonDir": r.CommonDir} {
		if !filepath.IsAbs(p) || filepath.Clean(p) != p {
			t.Errorf("%s = %q, want an absolute, clean path", name, p)
		}
	}
}

func TestLocateErrors(t *testing.T) {
	tests := []struct {
		name string
		// setup returns the directory to locate from and the environment.
		setup   func(t *testing.T) (string, []string)
		wantErr error // nil: an error that is neither sentinel
	}{
		{
			name: "bare repository",
			setup: func(t *testing.T) (string, []string) {
				root, env := newGitEnv(t)
				bare := filepath.Join(root, "bare.git")
				runGit(t, root, env, "init", "-q", "--bare", bare)
				return bare, env
			},
			wantErr: ErrNoWorkTree,
		},
		{
			name: "inside a bare repository",
			setup: func(t *testing.T) (string, []string) {
				root, env := newGitEnv(t)
				bare := filepath.Join(root, "bare.git")
				runGit(t, root, env, "init", "-q", "--bare", bare)
				return filepath.Join(bare, "refs", "heads"), env
			},
			wantErr: ErrNoWorkTree,
		},
		{
			name: "inside .git",
			setup: func(t *testing.T) (string, []string) {
				repo, env := newRepo(t)
				return filepath.Join(repo, ".git"), env
			},
			wantErr: ErrNoWorkTree,
		},
		{
			name: "below .git",
			setup: func(t *testing.T) (string, []string) {
				repo, env := newRepo(t)
				return filepath.Join(repo, ".git", "refs", "heads"), env
			},
			wantErr: ErrNoWorkTree,
		},
		{
			name: "plain directory",
			setup: func(t *testing.T) (string, []string) {
				root, env := newGitEnv(t) // GIT_CEILING_DIRECTORIES=root
				return mkdirAll(t, root, "plain/sub"), env
			},
			wantErr: ErrNotRepository,
		},
		{
			name: "missing directory",
			setup: func(t *testing.T) (string, []string) {
				root, env := newGitEnv(t)
				return filepath.Join(root, "does-not-exist"), env
			},
			wantErr: nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, env := tt.setup(t)
			r, err := Locate(context.Background(), Git{Dir: dir, Env: env})
			if err == nil {
				t.Fatalf("Locate(%q) = %+v, want an error", dir, r)
			}
			if r.TopLevel != "" || r.GitDir != "" || r.CommonDir != "" || r.Git.Dir != "" || r.Git.Env != nil {
				t.Errorf("Locate(%q) returned %+v with its error, want the zero Repo", dir, r)
			}
			for _, s := range []error{ErrNoWorkTree, ErrNotRepository} {
				if got, want := errors.Is(err, s), s == tt.wantErr; got != want {
					t.Errorf("Locate(%q) = %v; errors.Is(err, %q) = %v, want %v", dir, err, s, got, want)
				}
			}
			if !strings.Contains(err.Error(), dir) {
				t.Errorf("error %q does not name the directory %q", err, dir)
			}
		})
	}
}

// TestLocateTranslatedMessages runs git with its messages translated (as
// for a user whose LANG is German): Locate must still tell "not a
// repository" and "no work tree" apart, since Git.Env nil inherits the
// user's locale. It skips where git has no translations installed.
func TestLocateTranslatedMessages(t *testing.T) {
	root, env := newGitEnv(t)
	plain := mkdirAll(t, root, "plain")
	bare := filepath.Join(root, "bare.git")
	runGit(t, root, env, "init", "-q", "--bare", bare)

	var tenv []string
	for _, loc := range []string{"C.UTF-8", "C.utf8", "de_DE.UTF-8", "de_DE.utf8"} {
		e := append(slices.Clone(env), "LC_ALL="+loc, "LANGUAGE=de")
		cmd := exec.Command("git", "rev-parse", "--show-toplevel")
		cmd.Dir, cmd.Env = plain, e
		out, _ := cmd.CombinedOutput()
		if len(out) > 0 && !strings.Contains(string(out), "not a git repository") {
			tenv = e
			break
		}
	}
	if tenv == nil {
		t.Skip("git prints no translated messages here (no locale or no German catalogue)")
	}
	for _, tt := range []struct {
		dir  string
		want error
	}{{plain, ErrNotRepository}, {bare, ErrNoWorkTree}} {
		_, err := Locate(context.Background(), Git{Dir: tt.dir, Env: tenv})
		if !errors.Is(err, tt.want) {
			t.Errorf("Locate(%q) with German messages = %v, want %v", tt.dir, err, tt.want)
		}
	}
	// And locating a repository still works and gives the same answer.
	repo := filepath.Join(root, "repo")
	runGit(t, root, env, "init", "-q", repo)
	r, err := Locate(context.Background(), Git{Dir: repo, Env: tenv})
	if err != nil || r.TopLevel != repo {
		t.Errorf("Locate(%q) with German messages = %+v, %v", repo, r, err)
	}
	if !slices.Equal(r.Git.Env, tenv) {
		t.Errorf("Repo.Git.Env = %q, want the caller's %q", r.Git.Env, tenv)
	}
}

// TestLocateKeepsCallerEnv: Locate must not write into the spare capacity
// of the caller's Env slice.
func TestLocateKeepsCallerEnv(t *testing.T) {
	repo, base := newRepo(t)
	env := make([]string, len(base), len(base)+8)
	copy(env, base)
	r, err := Locate(context.Background(), Git{Dir: repo, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	if spare := env[len(env):cap(env)]; slices.ContainsFunc(spare, func(s string) bool { return s != "" }) {
		t.Errorf("Locate wrote %q past the end of the caller's Env", spare)
	}
	if !slices.Equal(r.Git.Env, base) {
		t.Errorf("Repo.Git.Env = %q, want %q", r.Git.Env, base)
	}
}

func TestRunStdout(t *testing.T) {
	repo, env := newRepo(t)
	g := Git{Dir: repo, Env: env}
	out, err := g.Run(context.Background(), "var", "GIT_AUTHOR_IDENT")
	if err != nil {
		t.Fatal(err)
	}
	// The identity and date come from the isolated environment only.
	if want := testName + " <" + testEmail + "> 1112911993 +0000\n"; string(out) != want {
		t.Errorf("git var GIT_AUTHOR_IDENT = %q, want %q", out, want)
	}
	out, err = g.Run(context.Background(), "log", "-1", "--format=%s%x00%an%x00%cI")
	if err != nil {
		t.Fatal(err)
	}
	if want := "init\x00" + testName + "\x002005-04-07T22:13:13+00:00\n"; string(out) != want {
		t.Errorf("git log = %q, want %q", out, want)
	}
}

func TestRunInput(t *testing.T) {
	repo, env := newRepo(t)
	g := Git{Dir: repo, Env: env}
	large := make([]byte, 4<<20) // larger than any pipe buffer
	for i := range large {
		large[i] = byte(i*7 + i>>13)
	}
	tests := []struct {
		name  string
		stdin []byte
	}{
		{"nil", nil},
		{"empty", []byte{}},
		{"line", []byte("hello\n")},
		{"no trailing newline, CRLF, NUL", []byte("a\r\nb\x00c")},
		{"large", large},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := g.RunInput(context.Background(), tt.stdin, "hash-object", "--stdin")
			if err != nil {
				t.Fatal(err)
			}
			if got, want := string(out), blobID(tt.stdin)+"\n"; got != want {
				t.Errorf("hash-object --stdin = %q, want %q", got, want)
			}
		})
	}
	// Run is RunInput without stdin: git must not wait for input.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, err := g.Run(ctx, "hash-object", "--stdin")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(out), blobID(nil)+"\n"; got != want {
		t.Errorf("Run hash-object --stdin = %q, want %q", got, want)
	}
}

// blobID is git's SHA-1 object name of a blob.
func blobID(b []byte) string {
	h := sha1.New()
	fmt.Fprintf(h, "blob %d\x00", len(b))
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil))
}

func TestRunError(t *testing.T) {
	repo, env := newRepo(t)
	tests := []struct {
		name       string
		path       string
		args       []string
		wantCode   int
		wantStdout string
		wantStderr string // substring
		wantMsg    string // substring of Error()
		wantIs     error
	}{
		{
			name:       "fatal",
			args:       []string{"rev-parse", "--verify", "refs/heads/nope"},
			wantCode:   128,
			wantStderr: "fatal: Needed a single revision",
			wantMsg:    "git rev-parse --verify refs/heads/nope: fatal: Needed a single revision",
		},
		{
			name:     "exit 1 with empty stderr",
			args:     []string{"config", "--get", "no.such.key"},
			wantCode: 1,
			wantMsg:  "git config --get no.such.key: exit status 1",
		},
		{
			name:       "stdout and stderr of a failing command",
			args:       []string{"-c", "alias.fail=!printf out; printf err >&2; exit 3", "fail"},
			wantCode:   3,
			wantStdout: "out",
			wantStderr: "err",
			wantMsg:    ": err",
		},
		{
			name:     "no such executable",
			path:     filepath.Join(repo, "no-such-git"),
			args:     []string{"version"},
			wantCode: -1,
			wantIs:   fs.ErrNotExist,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := Git{Dir: repo, Env: env, Path: tt.path}.Run(context.Background(), tt.args...)
			if err == nil {
				t.Fatalf("Run(%q) succeeded with %q", tt.args, out)
			}
			var ge *Error
			if !errors.As(err, &ge) {
				t.Fatalf("Run(%q) = %T %v, want *Error", tt.args, err, err)
			}
			if ge.ExitCode != tt.wantCode {
				t.Errorf("ExitCode = %d, want %d", ge.ExitCode, tt.wantCode)
			}
			if !slices.Equal(ge.Args, tt.args) {
				t.Errorf("Args = %q, want %q", ge.Args, tt.args)
			}
			if tt.wantStderr == "" && tt.wantIs == nil && ge.Stderr != "" {
				t.Errorf("Stderr = %q, want empty", ge.Stderr)
			}
			if !strings.Contains(ge.Stderr, tt.wantStderr) {
				t.Errorf("Stderr = %q, want it to contain %q", ge.Stderr, tt.wantStderr)
			}
			if string(out) != tt.wantStdout {
				t.Errorf("stdout = %q, want %q", out, tt.wantStdout)
			}
			if !strings.Contains(err.Error(), tt.wantMsg) {
				t.Errorf("Error() = %q, want it to contain %q", err, tt.wantMsg)
			}
			if ge.Err == nil || errors.Unwrap(err) != ge.Err {
				t.Errorf("Unwrap() = %v, want the underlying error %v", errors.Unwrap(err), ge.Err)
			}
			if tt.wantIs != nil && !errors.Is(err, tt.wantIs) {
				t.Errorf("errors.Is(%v, %v) = false", err, tt.wantIs)
			}
			// errors.As sees through wrapping by callers.
			wrapped := fmt.Errorf("outer: %w", err)
			var ge2 *Error
			if !errors.As(wrapped, &ge2) || ge2 != ge {
				t.Errorf("errors.As through a wrapper did not find the *Error")
			}
		})
	}
}

func TestRunContext(t *testing.T) {
	repo, env := newRepo(t)
	g := Git{Dir: repo, Env: env}

	t.Run("already canceled", func(t *testing.T) {
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := g.Run(ctx, "version")
		if !errors.Is(err, context.Canceled) {
			t.Errorf("Run with a canceled context = %v, want context.Canceled", err)
		}
		var ge *Error
		if !errors.As(err, &ge) || ge.ExitCode != -1 {
			t.Errorf("Run with a canceled context = %#v, want *Error with ExitCode -1", err)
		}
	})

	// git runs the alias in a child (a shell and sleep) that inherits its
	// stdout and stderr: killing git alone leaves the pipes open. The
	// sleeps outlast the generous wait below: Run returns because the
	// timeout stopped them all, or not at all (no assertion on how fast).
	// The sleep replaces the alias's shell (exec) and names itself in a
	// file, to be ended when the test is.
	for _, tt := range []struct {
		name  string
		stdin []byte
		alias string
	}{
		{"alias sleeps", nil, "exec sleep 300"},
		{"alias sleeps, with stdin", []byte("x\n"), "cat >/dev/null; exec sleep 300"},
		{"alias sleeps with output", nil, "echo started; exec sleep 300"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pidFile := filepath.Join(t.TempDir(), "pid")
			t.Cleanup(func() { killPIDFile(pidFile) })
			args := []string{"-c", "alias.slow=!echo $$ >'" + pidFile + "'; " + tt.alias, "slow"}
			ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
			defer cancel()
			var out []byte
			var err error
			waitFor(t, time.Minute, fmt.Sprintf("Run(%q) with a 100ms timeout", args), func() { out, err = g.RunInput(ctx, tt.stdin, args...) })
			if err == nil {
				t.Fatalf("Run(%q) with a 100ms timeout succeeded with %q", args, out)
			}
			var ge *Error
			if !errors.As(err, &ge) || ge.ExitCode == 0 {
				t.Errorf("Run(%q) = %v, want *Error with a nonzero ExitCode", args, err)
			}
		})
	}
}

// TestRunBackgroundChild: git exits successfully but leaves a child that
// holds its stdout open. Run returns soon after git exits (the WaitDelay)
// and reports that the output was cut off instead of waiting for the child.
func TestRunBackgroundChild(t *testing.T) {
	repo, env := newRepo(t)
	g := Git{Dir: repo, Env: env}
	pidFile := filepath.Join(t.TempDir(), "pid")
	t.Cleanup(func() { killPIDFile(pidFile) })
	var out []byte
	var err error
	// The child outlasts the generous wait: Run returns because it stopped
	// waiting for the child, or not at all.
	waitFor(t, time.Minute, "Run of a git leaving a child behind", func() {
		out, err = g.Run(context.Background(), "-c", "alias.bg=!echo before; sleep 300 & echo $! >'"+pidFile+"'", "bg")
	})
	if !errors.Is(err, exec.ErrWaitDelay) {
		t.Errorf("Run = %q, %v; want exec.ErrWaitDelay", out, err)
	}
	if string(out) != "before\n" {
		t.Errorf("stdout = %q, want %q", out, "before\n")
	}
}

// waitFor runs f and waits for it to return, at most d (generous: the
// test asserts that f returns, not how fast).
func waitFor(t *testing.T, d time.Duration, what string, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("%s did not return within %v", what, d)
	}
}

// killPIDFile kills the process whose id the file holds, if any.
func killPIDFile(path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && pid > 0 {
		if p, err := os.FindProcess(pid); err == nil {
			p.Kill()
		}
	}
}
