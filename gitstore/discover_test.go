package gitstore

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// envMap turns an environment list and extra variables into Discover's
// getenv. From env it drops GIT_CEILING_DIRECTORIES, which newGitEnv sets
// only to protect the tests (a user's hook does not see it).
func envMap(env []string, extra ...string) func(string) string {
	m := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	delete(m, "GIT_CEILING_DIRECTORIES")
	for _, kv := range extra {
		k, v, _ := strings.Cut(kv, "=")
		m[k] = v
	}
	return func(k string) string { return m[k] }
}

// locate is git's own answer for dir.
func locate(t *testing.T, dir string, env []string) Repo {
	t.Helper()
	r, err := Locate(context.Background(), Git{Dir: dir, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func checkDiscoverLikeLocate(t *testing.T, dir string, getenv func(string) string, want Repo) {
	t.Helper()
	g := Git{Dir: "/somewhere/else", Env: []string{"X=1"}, Path: "/usr/bin/git-test"}
	got, ok := Discover(dir, getenv, g)
	if !ok {
		t.Fatalf("Discover(%s) declined; git locates %+v", dir, want)
	}
	if got.TopLevel != want.TopLevel || got.GitDir != want.GitDir || got.CommonDir != want.CommonDir {
		t.Errorf("Discover(%s) = top %s, git dir %s, common dir %s\nLocate       = top %s, git dir %s, common dir %s",
			dir, got.TopLevel, got.GitDir, got.CommonDir, want.TopLevel, want.GitDir, want.CommonDir)
	}
	if got.Git.Dir != got.TopLevel || got.Git.Path != g.Path || !slices.Equal(got.Git.Env, g.Env) {
		t.Errorf("Discover's Git = %+v; want the given Git run at the top level", got.Git)
	}
	checkRepoPaths(t, got)
}

func TestDiscoverLikeLocate(t *testing.T) {
	tests := []struct {
		name string
		// setup returns the directory a hook would run in and the
		// variables git would export to it.
		setup func(t *testing.T, dir string, env []string) (hookDir string, vars []string)
	}{
		{"main worktree", func(t *testing.T, dir string, env []string) (string, []string) {
			return dir, nil
		}},
		{"main worktree, GIT_DIR relative", func(t *testing.T, dir string, env []string) (string, []string) {
			return dir, []string{"GIT_DIR=.git"}
		}},
		{"main worktree, GIT_DIR absolute", func(t *testing.T, dir string, env []string) (string, []string) {
			return dir, []string{"GIT_DIR=" + filepath.Join(dir, ".git")}
		}},
		{"main worktree, GIT_DIR unclean", func(t *testing.T, dir string, env []string) (string, []string) {
			return dir, []string{"GIT_DIR=./.git/"}
		}},
		{"linked worktree", func(t *testing.T, dir string, env []string) (string, []string) {
			wt := filepath.Join(filepath.Dir(dir), "wt")
			runGit(t, dir, env, "worktree", "add", "-q", wt)
			return wt, nil
		}},
		{"linked worktree, GIT_DIR absolute as in its hooks", func(t *testing.T, dir string, env []string) (string, []string) {
			wt := filepath.Join(filepath.Dir(dir), "wt")
			runGit(t, dir, env, "worktree", "add", "-q", wt)
			return wt, []string{"GIT_DIR=" + linkedGitDir(t, wt)}
		}},
		{"linked worktree, relative gitdir and commondir", func(t *testing.T, dir string, env []string) (string, []string) {
			wt := filepath.Join(filepath.Dir(dir), "wt")
			runGit(t, dir, env, "worktree", "add", "-q", wt)
			gd := linkedGitDir(t, wt)
			rel, err := filepath.Rel(wt, gd)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+rel+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(filepath.Join(gd, "commondir")); filepath.IsAbs(strings.TrimSpace(string(b))) {
				t.Fatalf("commondir %q is absolute; the case wants it relative", b)
			}
			return wt, nil
		}},
		{"separate git dir", func(t *testing.T, dir string, env []string) (string, []string) {
			other := filepath.Join(filepath.Dir(dir), "separate")
			runGit(t, filepath.Dir(dir), env, "init", "-q", "--separate-git-dir", filepath.Join(filepath.Dir(dir), "separate.git"), other)
			runGit(t, other, env, "commit", "-q", "--allow-empty", "-m", "init")
			return other, nil
		}},
		{"submodule (relative gitdir in .git file)", func(t *testing.T, dir string, env []string) (string, []string) {
			lib := filepath.Join(filepath.Dir(dir), "lib")
			runGit(t, filepath.Dir(dir), env, "init", "-q", lib)
			runGit(t, lib, env, "commit", "-q", "--allow-empty", "-m", "lib")
			runGit(t, dir, env, "-c", "protocol.file.allow=always", "submodule", "add", "-q", lib, "vendor/lib")
			sub := filepath.Join(dir, "vendor", "lib")
			if b, _ := os.ReadFile(filepath.Join(sub, ".git")); !strings.HasPrefix(string(b), "gitdir: ../") {
				t.Fatalf("submodule .git = %q, want a relative gitdir", b)
			}
			return sub, nil
		}},
		{"core.worktree the top", func(t *testing.T, dir string, env []string) (string, []string) {
			runGit(t, dir, env, "config", "core.worktree", dir)
			return dir, nil
		}},
		{"core.worktree the top, relative", func(t *testing.T, dir string, env []string) (string, []string) {
			runGit(t, dir, env, "config", "core.worktree", "..")
			return dir, nil
		}},
		{"core.worktree the top, GIT_DIR exported", func(t *testing.T, dir string, env []string) (string, []string) {
			runGit(t, dir, env, "config", "core.worktree", dir+"/./")
			return dir, []string{"GIT_DIR=" + filepath.Join(dir, ".git")}
		}},
		{"core.worktree the top through a symlink", func(t *testing.T, dir string, env []string) (string, []string) {
			link := filepath.Join(filepath.Dir(dir), "link")
			if err := os.Symlink(dir, link); err != nil {
				t.Skip(err)
			}
			runGit(t, dir, env, "config", "core.worktree", link)
			return dir, nil
		}},
		{"core.worktree the top in config.worktree", func(t *testing.T, dir string, env []string) (string, []string) {
			runGit(t, dir, env, "config", "extensions.worktreeConfig", "true")
			writeFile(t, dir, ".git/config.worktree", []byte("[core]\n\tworktree = "+dir+"\n"), 0o644)
			return dir, nil
		}},
		{"core.bare false, spelled otherwise", func(t *testing.T, dir string, env []string) (string, []string) {
			editConfig(t, dir, "\tbare = false\n", "\tBARE=Off ; by hand\n[core \"sub\"]\n\tbare = true\n[core]\n")
			return dir, nil
		}},
		{"unborn branch", func(t *testing.T, dir string, env []string) (string, []string) {
			other := filepath.Join(filepath.Dir(dir), "unborn")
			runGit(t, filepath.Dir(dir), env, "init", "-q", other)
			return other, nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, env := newRepo(t)
			hookDir, vars := tt.setup(t, dir, env)
			want := locate(t, hookDir, append(env[:len(env):len(env)], vars...))
			checkDiscoverLikeLocate(t, hookDir, envMap(env, vars...), want)
		})
	}
}

func TestDiscoverDeclines(t *testing.T) {
	tests := []struct {
		name string
		// setup returns the directory to discover from and extra variables.
		setup func(t *testing.T, dir string, env []string) (string, []string)
		// orLikeLocate accepts an answer equal to git's instead of a
		// decline (a case git handles that Discover may leave to it).
		orLikeLocate bool
	}{
		{name: "GIT_CEILING_DIRECTORIES set", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			return dir, []string{"GIT_CEILING_DIRECTORIES=" + filepath.Dir(dir)}
		}},
		{name: "GIT_WORK_TREE set", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			return dir, []string{"GIT_DIR=" + filepath.Join(dir, ".git"), "GIT_WORK_TREE=" + dir}
		}},
		{name: "GIT_COMMON_DIR set", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			return dir, []string{"GIT_COMMON_DIR=" + filepath.Join(dir, ".git")}
		}},
		{name: "a subdirectory of the worktree", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			return mkdirAll(t, dir, "src/pkg"), nil
		}},
		{name: "not a repository", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			return mkdirAll(t, filepath.Dir(dir), "plain"), nil
		}},
		{name: ".git file without gitdir", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			other := mkdirAll(t, filepath.Dir(dir), "other")
			writeFile(t, other, ".git", []byte("nonsense\n"), 0o644)
			return other, nil
		}},
		{name: ".git file to a missing directory", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			other := mkdirAll(t, filepath.Dir(dir), "other")
			writeFile(t, other, ".git", []byte("gitdir: /no/such/dir\n"), 0o644)
			return other, nil
		}},
		{name: ".git file to a directory without HEAD", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			other := mkdirAll(t, filepath.Dir(dir), "other")
			empty := mkdirAll(t, filepath.Dir(dir), "empty.git")
			writeFile(t, other, ".git", []byte("gitdir: "+empty+"\n"), 0o644)
			return other, nil
		}},
		{name: ".git directory without HEAD", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			if err := os.Remove(filepath.Join(dir, ".git", "HEAD")); err != nil {
				t.Fatal(err)
			}
			return dir, nil
		}},
		{name: "core.worktree elsewhere (no hook)", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			elsewhere := mkdirAll(t, filepath.Dir(dir), "elsewhere")
			runGit(t, dir, env, "config", "core.worktree", elsewhere)
			return dir, nil
		}},
		{name: "core.bare true (no hook)", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			runGit(t, dir, env, "config", "core.bare", "true")
			return dir, nil
		}},
		{name: "core.bare = 1", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			runGit(t, dir, env, "config", "core.bare", "1")
			return dir, nil
		}},
		{name: "core.bare = yes", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			runGit(t, dir, env, "config", "core.bare", "yes")
			return dir, nil
		}},
		{name: "core.bare key alone", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			editConfig(t, dir, "\tbare = false\n", "\tbare\n")
			return dir, nil
		}},
		{name: "core.bare on, odd spelling and spacing", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			editConfig(t, dir, "[core]\n", "[Core]\n\tBare\t=   ON   # by hand\n")
			editConfig(t, dir, "\tbare = false\n", "")
			return dir, nil
		}},
		{name: "core.bare = 2", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			runGit(t, dir, env, "config", "core.bare", "2")
			return dir, nil
		}},
		{name: "core.bare true, GIT_DIR exported", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			runGit(t, dir, env, "config", "core.bare", "true")
			return dir, []string{"GIT_DIR=" + filepath.Join(dir, ".git")}
		}},
		{name: "core.worktree elsewhere, GIT_DIR exported", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			elsewhere := mkdirAll(t, filepath.Dir(dir), "elsewhere")
			runGit(t, dir, env, "config", "core.worktree", elsewhere)
			return dir, []string{"GIT_DIR=.git"}
		}},
		{name: "core.worktree the top, GIT_DIR exported, from a subdirectory", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			runGit(t, dir, env, "config", "core.worktree", dir)
			return mkdirAll(t, dir, "src"), []string{"GIT_DIR=" + filepath.Join(dir, ".git")}
		}},
		{name: "core.worktree elsewhere, .git file", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			other := filepath.Join(filepath.Dir(dir), "separate")
			runGit(t, filepath.Dir(dir), env, "init", "-q", "--separate-git-dir", filepath.Join(filepath.Dir(dir), "separate.git"), other)
			runGit(t, other, env, "config", "core.worktree", dir)
			return other, nil
		}},
		{name: "core.worktree elsewhere in config.worktree", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			elsewhere := mkdirAll(t, filepath.Dir(dir), "elsewhere")
			runGit(t, dir, env, "config", "extensions.worktreeConfig", "true")
			writeFile(t, dir, ".git/config.worktree", []byte("[core]\n\tworktree = "+elsewhere+"\n"), 0o644)
			return dir, nil
		}},
		{name: "core.worktree missing", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			runGit(t, dir, env, "config", "core.worktree", filepath.Join(filepath.Dir(dir), "no-such-dir"))
			return dir, nil
		}},
		{name: "config unreadable as git-config", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			editConfig(t, dir, "[core]\n", "[core\n")
			return dir, nil
		}},
		{name: "config missing", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			if err := os.Remove(filepath.Join(dir, ".git", "config")); err != nil {
				t.Fatal(err)
			}
			return dir, nil
		}},
		{name: "GIT_DIR to a directory without HEAD", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			return dir, []string{"GIT_DIR=" + mkdirAll(t, filepath.Dir(dir), "empty.git")}
		}},
		{name: "GIT_DIR missing", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			return dir, []string{"GIT_DIR=no-such.git"}
		}},
		{name: "linked worktree whose commondir is gone", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			wt := filepath.Join(filepath.Dir(dir), "wt")
			runGit(t, dir, env, "worktree", "add", "-q", wt)
			if err := os.WriteFile(filepath.Join(linkedGitDir(t, wt), "commondir"), []byte("/no/such/common\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			return wt, nil
		}},
		{name: ".git a symlink to the git dir", orLikeLocate: true, setup: func(t *testing.T, dir string, env []string) (string, []string) {
			other := mkdirAll(t, filepath.Dir(dir), "other")
			if err := os.Rename(filepath.Join(dir, ".git"), filepath.Join(filepath.Dir(dir), "moved.git")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(filepath.Join(filepath.Dir(dir), "moved.git"), filepath.Join(other, ".git")); err != nil {
				t.Fatal(err)
			}
			return other, nil
		}},
		{name: "git dir owned by someone else", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			chownOther(t, filepath.Join(dir, ".git"))
			return dir, nil
		}},
		{name: "worktree owned by someone else", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			chownOther(t, dir)
			return dir, nil
		}},
		{name: "GIT_DIR owned by someone else", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			chownOther(t, filepath.Join(dir, ".git"))
			return dir, []string{"GIT_DIR=.git"}
		}},
		{name: "linked worktree whose common dir is someone else's", setup: func(t *testing.T, dir string, env []string) (string, []string) {
			wt := filepath.Join(filepath.Dir(dir), "wt")
			runGit(t, dir, env, "worktree", "add", "-q", wt)
			chownOther(t, filepath.Join(dir, ".git"))
			return wt, nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, env := newRepo(t)
			hookDir, vars := tt.setup(t, dir, env)
			got, ok := Discover(hookDir, envMap(env, vars...), Git{})
			if !ok {
				return
			}
			if tt.orLikeLocate {
				want := locate(t, hookDir, append(env[:len(env):len(env)], vars...))
				if got.TopLevel == want.TopLevel && got.GitDir == want.GitDir && got.CommonDir == want.CommonDir {
					return
				}
				t.Fatalf("Discover = %+v, git locates %+v", got, want)
			}
			t.Errorf("Discover(%s) = %+v, true; want a decline", hookDir, got)
		})
	}
}

// editConfig replaces old, which must occur, with new in the repository's
// .git/config.
func editConfig(t *testing.T, dir, old, new string) {
	t.Helper()
	p := filepath.Join(dir, ".git", "config")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q:\n%s", p, old, b)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// chownOther gives p to another user (git's safe.directory check refuses
// such repositories). Only root can.
func chownOther(t *testing.T, p string) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("changing a file's owner needs root")
	}
	if err := os.Chown(p, 65534, 65534); err != nil {
		t.Skipf("chown: %v", err)
	}
}

func TestRepoIndexFile(t *testing.T) {
	r := Repo{TopLevel: "/top", GitDir: "/top/.git/worktrees/wt", CommonDir: "/top/.git"}
	tests := []struct {
		env, dir, want string
	}{
		{"", "/wt", "/top/.git/worktrees/wt/index"},
		{".git/index", "/top", "/top/.git/index"},
		{"/elsewhere/next-index-1.lock", "/top", "/elsewhere/next-index-1.lock"},
		{"../tmp/index", "/top/sub", "/top/tmp/index"},
	}
	for _, tt := range tests {
		got := r.IndexFile(tt.dir, func(k string) string {
			if k == "GIT_INDEX_FILE" {
				return tt.env
			}
			return ""
		})
		if got != tt.want {
			t.Errorf("IndexFile(%s) with GIT_INDEX_FILE=%q = %s, want %s", tt.dir, tt.env, got, tt.want)
		}
	}
}

// hookCapture is what a pre-commit hook saw: its directory, environment,
// a copy of the index git gave it and git's answers on that index.
type hookCapture struct {
	cwd       string
	env       []string
	indexCopy string
	diff, ls  []byte
}

// captureHook runs a git commit whose pre-commit hook records what it sees
// and fails, so the commit is aborted and HEAD stays.
func captureHook(t *testing.T, commonDir, dir string, env []string, args ...string) hookCapture {
	t.Helper()
	out := t.TempDir()
	hook := "#!/bin/sh\n" +
		"out='" + out + "'\n" +
		"pwd -P > \"$out/cwd\"\n" +
		"env -0 > \"$out/env\"\n" +
		"cp \"${GIT_INDEX_FILE:-.git/index}\" \"$out/index\"\n" +
		"git diff --cached --name-status --no-renames -z -- .yoi/ > \"$out/diff\"\n" +
		"git ls-files --stage -z -- .yoi/ > \"$out/ls\"\n" +
		"exit 1\n"
	writeFile(t, commonDir, "hooks/pre-commit", []byte(hook), 0o755)
	if _, err := runGitErr(dir, env, args...); err == nil {
		t.Fatalf("git %s succeeded; the hook should have stopped it", strings.Join(args, " "))
	}
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatalf("the hook did not run or failed early: %v", err)
		}
		return b
	}
	c := hookCapture{cwd: strings.TrimSpace(string(read("cwd"))), indexCopy: filepath.Join(out, "index"), diff: read("diff"), ls: read("ls")}
	for _, kv := range strings.Split(string(read("env")), "\x00") {
		if kv != "" {
			c.env = append(c.env, kv)
		}
	}
	return c
}

// TestDiscoverInHooks runs real commits whose pre-commit hook records its
// environment and index, and checks that Discover, IndexFile and
// StagedFast, given what the hook was given, agree with git.
func TestDiscoverInHooks(t *testing.T) {
	tests := []struct {
		name   string
		linked bool
		args   []string
		vars   []string // for the git commit
		// indexBase is the base name of the index git gives the hook.
		indexBase   string
		wantChanged []string
		wantDeleted []string
	}{
		{name: "commit", args: []string{"commit", "-q", "-m", "x"}, indexBase: "index",
			wantChanged: []string{"knowledge/a.md"}, wantDeleted: []string{"top.md"}},
		{name: "commit -a", args: []string{"commit", "-q", "-a", "-m", "x"}, indexBase: "index.lock",
			wantChanged: []string{"knowledge/a.md", "knowledge/b.md"}, wantDeleted: []string{"top.md"}},
		{name: "partial commit", args: []string{"commit", "-q", "-m", "x", "--", ".yoi/knowledge/b.md"}, indexBase: "next-index-",
			wantChanged: []string{"knowledge/b.md"}},
		{name: "commit with GIT_DIR", args: []string{"commit", "-q", "-m", "x"}, vars: []string{"GIT_DIR=.git"}, indexBase: "index",
			wantChanged: []string{"knowledge/a.md"}, wantDeleted: []string{"top.md"}},
		{name: "commit from a subdirectory", args: []string{"-C", ".yoi/knowledge", "commit", "-q", "-m", "x"}, indexBase: "index",
			wantChanged: []string{"knowledge/a.md"}, wantDeleted: []string{"top.md"}},
		{name: "linked worktree: commit", linked: true, args: []string{"commit", "-q", "-m", "x"}, indexBase: "index",
			wantChanged: []string{"knowledge/a.md"}, wantDeleted: []string{"top.md"}},
		{name: "linked worktree: commit -a", linked: true, args: []string{"commit", "-q", "-a", "-m", "x"}, indexBase: "index.lock",
			wantChanged: []string{"knowledge/a.md", "knowledge/b.md"}, wantDeleted: []string{"top.md"}},
		{name: "linked worktree: partial commit", linked: true, args: []string{"commit", "-q", "-m", "x", "--", ".yoi/knowledge/b.md"}, indexBase: "next-index-",
			wantChanged: []string{"knowledge/b.md"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, env := stagedRepo(t, false)
			work := dir
			if tt.linked {
				work = filepath.Join(filepath.Dir(dir), "wt")
				runGit(t, dir, env, "worktree", "add", "-q", work)
			}
			// Staged: a.md changed, top.md deleted; b.md changed, not staged.
			writeFile(t, work, ".yoi/knowledge/a.md", []byte("a, staged\n"), 0o644)
			runGit(t, work, env, "add", ".yoi/knowledge/a.md")
			runGit(t, work, env, "rm", "-q", ".yoi/top.md")
			writeFile(t, work, ".yoi/knowledge/b.md", []byte("b, not staged\n"), 0o644)

			c := captureHook(t, filepath.Join(dir, ".git"), work, append(env[:len(env):len(env)], tt.vars...), tt.args...)
			checkHook(t, c, work, locate(t, work, env), env, tt.indexBase, tt.wantChanged, tt.wantDeleted)
		})
	}
}

// checkHook checks Discover, IndexFile and StagedFast with what a hook saw
// against git's answers (want is Locate's; work the worktree).
func checkHook(t *testing.T, c hookCapture, work string, want Repo, env []string, indexBase string, wantChanged, wantDeleted []string) {
	t.Helper()
	if c.cwd != work {
		t.Fatalf("the hook ran in %s, want %s", c.cwd, work)
	}
	getenv := envMap(c.env)
	repo, ok := Discover(c.cwd, getenv, Git{})
	if !ok {
		t.Fatalf("Discover declined in the hook (GIT_DIR=%q, GIT_INDEX_FILE=%q)", getenv("GIT_DIR"), getenv("GIT_INDEX_FILE"))
	}
	if repo.TopLevel != want.TopLevel || repo.GitDir != want.GitDir || repo.CommonDir != want.CommonDir {
		t.Errorf("Discover in the hook = %+v, want %+v", repo, want)
	}
	gitIndex := getenv("GIT_INDEX_FILE")
	if gitIndex == "" {
		gitIndex = filepath.Join(want.GitDir, "index")
	} else if !filepath.IsAbs(gitIndex) {
		gitIndex = filepath.Join(c.cwd, gitIndex)
	}
	idxFile := repo.IndexFile(c.cwd, getenv)
	if idxFile != gitIndex || !strings.HasPrefix(filepath.Base(idxFile), indexBase) || filepath.Dir(idxFile) != want.GitDir {
		t.Errorf("IndexFile = %s; git used %s (want %s*, in %s)", idxFile, gitIndex, indexBase, want.GitDir)
	}

	objs, err := OpenObjects(repo)
	if err != nil {
		t.Fatal(err)
	}
	changed, deleted, snap, err := StagedFast(objs, c.indexCopy, ".yoi")
	if err != nil {
		t.Fatalf("StagedFast on the hook's index: %v", err)
	}
	wantC, wantD := parseNameStatus(t, c.diff, ".yoi")
	if !slices.Equal(changed, wantC) || !slices.Equal(deleted, wantD) {
		t.Errorf("StagedFast = %q, %q; git in the hook said %q, %q", changed, deleted, wantC, wantD)
	}
	if !slices.Equal(changed, wantChanged) || !slices.Equal(deleted, wantDeleted) {
		t.Errorf("StagedFast = %q, %q; the case expects %q, %q", changed, deleted, wantChanged, wantDeleted)
	}
	gitEnv := append(env[:len(env):len(env)], "GIT_DIR="+want.GitDir, "GIT_WORK_TREE="+work)
	checkSnapshotLikeGit(t, work, gitEnv, snap(0), parseLsStage(t, c.ls, ".yoi"))
}

// TestDiscoverInHookCoreWorktree: with core.worktree, git runs the hook in
// the worktree and exports GIT_DIR.
func TestDiscoverInHookCoreWorktree(t *testing.T) {
	root, env := newGitEnv(t)
	g, work := filepath.Join(root, "g"), mkdirAll(t, root, "work")
	runGit(t, root, env, "init", "-q", g)
	runGit(t, g, env, "config", "core.worktree", work)
	writeFile(t, work, ".yoi/knowledge/a.md", []byte("a\n"), 0o644)
	writeFile(t, work, ".yoi/top.md", []byte("top\n"), 0o644)
	runGit(t, g, env, "add", "-A")
	runGit(t, g, env, "commit", "-q", "-m", "base")
	writeFile(t, work, ".yoi/knowledge/a.md", []byte("a, staged\n"), 0o644)
	runGit(t, g, env, "add", "-A")
	c := captureHook(t, filepath.Join(g, ".git"), g, env, "commit", "-q", "-m", "x")
	want := locate(t, work, append(env[:len(env):len(env)], "GIT_DIR="+filepath.Join(g, ".git")))
	if want.TopLevel != work {
		t.Fatalf("git locates the worktree at %s, want %s", want.TopLevel, work)
	}
	checkHook(t, c, work, want, env, "index", []string{"knowledge/a.md"}, nil)
}
