package gitstore

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/internal/sharedperm"
)

// TestReadSharedPerm reads core.sharedRepository from where git reads it:
// every scope, the last setting winning, config.worktree only under
// extensions.worktreeConfig, includes and -c through git itself.
func TestReadSharedPerm(t *testing.T) {
	tests := []struct {
		name    string
		local   string // appended to .git/config
		global  string // appended to the global config
		wtFile  string // .git/config.worktree
		extra   []string
		want    sharedperm.Perm
		wantErr string
	}{
		{name: "unset", want: sharedperm.Umask},
		{name: "group", local: "[core]\n\tsharedRepository = group\n", want: sharedperm.Group},
		{name: "case of the key", local: "[Core]\n\tSHAREDREPOSITORY = all\n", want: sharedperm.Everybody},
		{name: "no value", local: "[core]\n\tsharedRepository\n", want: sharedperm.Group},
		{name: "octal", local: "[core]\n\tsharedRepository = 0640\n", want: -0o640},
		{name: "global", global: "[core]\n\tsharedRepository = world\n", want: sharedperm.Everybody},
		{name: "local over global", global: "[core]\n\tsharedRepository = world\n", local: "[core]\n\tsharedRepository = false\n", want: sharedperm.Umask},
		{name: "worktree without the extension", wtFile: "[core]\n\tsharedRepository = group\n", want: sharedperm.Umask},
		{name: "worktree under the extension", local: "[extensions]\n\tworktreeConfig = true\n", wtFile: "[core]\n\tsharedRepository = group\n", want: sharedperm.Group},
		{name: "include", global: "[include]\n\tpath = included\n", want: sharedperm.Everybody},
		{name: "command line", extra: []string{"GIT_CONFIG_PARAMETERS='core.sharedrepository'='0660'"}, want: -0o660},
		{name: "command line count", extra: []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.sharedRepository", "GIT_CONFIG_VALUE_0=group"}, want: sharedperm.Group},
		{name: "bad value", local: "[core]\n\tsharedRepository = sometimes\n", wantErr: ".git/config: core.sharedRepository"},
		{name: "the extension only in the repository", global: "[extensions]\n\tworktreeConfig = true\n", wtFile: "[core]\n\tsharedRepository = group\n", want: sharedperm.Umask},
		{name: "owner without write", local: "[core]\n\tsharedRepository = 0440\n", wantErr: "owner of files"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir, env := newRepo(t)
			home := filepath.Dir(envValue(env, "GIT_CONFIG_GLOBAL"))
			appendConfig(t, filepath.Join(dir, ".git", "config"), tt.local)
			appendConfig(t, envValue(env, "GIT_CONFIG_GLOBAL"), tt.global)
			if err := os.WriteFile(filepath.Join(home, "included"), []byte("[core]\n\tsharedRepository = all\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			if tt.wtFile != "" {
				if err := os.WriteFile(filepath.Join(dir, ".git", "config.worktree"), []byte(tt.wtFile), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			env = append(env, tt.extra...)
			r := Repo{TopLevel: dir, GitDir: filepath.Join(dir, ".git"), CommonDir: filepath.Join(dir, ".git"), Git: Git{Dir: dir, Env: env}}
			got, err := readSharedPerm(r)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("readSharedPerm = %#o, %v; want an error containing %q", got, err, tt.wantErr)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Fatalf("readSharedPerm = %#o, %v; want %#o", got, err, tt.want)
			}
		})
	}
}

func envValue(env []string, key string) string {
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, key+"="); ok {
			return v
		}
	}
	return ""
}

func appendConfig(t *testing.T, path, text string) {
	t.Helper()
	if text == "" {
		return
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// TestCommitRefusesBadSharedRepository: a core.sharedRepository git would
// refuse stops a memory commit before anything is written, with an
// error naming the setting.
func TestCommitRefusesBadSharedRepository(t *testing.T) {
	m, dir, env := memRepo(t)
	runGit(t, dir, env, "config", "core.sharedRepository", "0400")
	m = openBranch(t, dir, env)
	objects := countObjects(t, dir)
	_, err := m.Commit(context.Background(), CommitRequest{Changes: changes(t, "knowledge/a.md", "A\n"), Message: msg(1), Author: Signature{Name: "a", Email: "b", When: when}})
	if err == nil || !strings.Contains(err.Error(), "core.sharedRepository") || !strings.Contains(err.Error(), "0400") {
		t.Fatalf("Commit = %v; want an error naming core.sharedRepository and its value", err)
	}
	if got := countObjects(t, dir); got != objects {
		t.Errorf("%d objects written", got-objects)
	}
	if _, err := os.Stat(filepath.Join(dir, ".git", "refs", "heads", "yoimem")); err == nil {
		t.Error("the memory branch was created")
	}
}

func countObjects(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(filepath.Join(dir, ".git", "objects"), func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

// BenchmarkReadSharedPerm: the cost of reading the setting, once per
// repository a process writes to (the config files git reads, no git).
func BenchmarkReadSharedPerm(b *testing.B) {
	dir, env := newRepo(b)
	r := Repo{TopLevel: dir, GitDir: filepath.Join(dir, ".git"), CommonDir: filepath.Join(dir, ".git"), Git: Git{Dir: dir, Env: env}}
	for i := 0; i < b.N; i++ {
		if _, err := readSharedPerm(r); err != nil {
			b.Fatal(err)
		}
	}
}

// TestSharedIn: a directory in the git directory gets the repository's
// setting; one outside (core.hooksPath in the working tree) the umask's.
func TestSharedIn(t *testing.T) {
	dir, env := newRepo(t)
	runGit(t, dir, env, "config", "core.sharedRepository", "group")
	r := Repo{TopLevel: dir, GitDir: filepath.Join(dir, ".git"), CommonDir: filepath.Join(dir, ".git"), Git: Git{Dir: dir, Env: env}}
	for _, tc := range []struct {
		dir  string
		want sharedperm.Perm
	}{
		{filepath.Join(dir, ".git", "hooks"), sharedperm.Group},
		{filepath.Join(dir, ".git", "custom", "hooks"), sharedperm.Group},
		{filepath.Join(dir, ".githooks"), sharedperm.Umask},
		{filepath.Join(filepath.Dir(dir), "elsewhere"), sharedperm.Umask},
	} {
		if got, err := SharedIn(r, tc.dir).Get(); got != tc.want || err != nil {
			t.Errorf("SharedIn(%s) = %#o, %v; want %#o", tc.dir, got, err, tc.want)
		}
	}
}
