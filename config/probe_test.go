package config

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestMayHaveGitSettings: each case puts a yoimem key (or an include) in
// exactly one place git reads, and must answer true, or in a place git
// does not read, and must answer false. Where git can tell, it is asked
// too: when git finds a yoimem.* key, the probe must not have said false.
func TestMayHaveGitSettings(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	const key = "[yoimem \"search\"]\n\tmaxResults = 3\n"
	const other = "[user]\n\tname = Yoi Test\n[core]\n\teditor = vi\n"
	tests := []struct {
		name string
		// files are written under the test's temporary directory $T
		// (appended to when they exist, as the repository's config).
		// The repository is $T/repo; $T/inc.cfg holds a yoimem key.
		files map[string]string
		// env overrides the base environment (HOME=$T/home,
		// GIT_CONFIG_NOSYSTEM=1); "-" unsets a variable.
		env []string
		// dirs are made directories (unreadable as config files).
		dirs   []string
		linked bool // discover from a linked worktree $T/wt
		want   bool
		// unsure marks true cases where git need not find a key (the
		// probe cannot tell); in the others git must find one, which
		// proves the case puts it where git reads.
		unsure bool
	}{
		// Nothing anywhere, or only where git does not look.
		{name: "no yoimem anywhere",
			files: map[string]string{"home/.gitconfig": other, "repo/.git/config": other}},
		{name: "every file git reads, none with yoimem",
			files: map[string]string{"system": other, "global": other, "repo/.git/config": other, "repo/.git/config.worktree": other},
			env:   []string{"GIT_CONFIG_NOSYSTEM=-", "GIT_CONFIG_SYSTEM=$T/system", "GIT_CONFIG_GLOBAL=$T/global"}},
		{name: "no config files at all",
			env: []string{"HOME=$T/nowhere"}},
		{name: "GIT_CONFIG_GLOBAL=/dev/null hides ~/.gitconfig",
			files: map[string]string{"home/.gitconfig": key, "home/.config/git/config": key},
			env:   []string{"GIT_CONFIG_GLOBAL=/dev/null"}},
		{name: "GIT_CONFIG_GLOBAL hides ~/.gitconfig and the XDG file",
			files: map[string]string{"global": other, "home/.gitconfig": key, "xdg/git/config": key},
			env:   []string{"GIT_CONFIG_GLOBAL=$T/global", "XDG_CONFIG_HOME=$T/xdg"}},
		{name: "XDG_CONFIG_HOME hides ~/.config/git/config",
			files: map[string]string{"home/.config/git/config": key},
			env:   []string{"XDG_CONFIG_HOME=$T/xdg"}},
		{name: "GIT_CONFIG_NOSYSTEM=1 hides the system file",
			files: map[string]string{"system": key},
			env:   []string{"GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_SYSTEM=$T/system"}},
		{name: "GIT_CONFIG_NOSYSTEM=true hides the system file",
			files: map[string]string{"system": key},
			env:   []string{"GIT_CONFIG_NOSYSTEM=true", "GIT_CONFIG_SYSTEM=$T/system"}},
		{name: "GIT_CONFIG_PARAMETERS with other keys",
			env: []string{"GIT_CONFIG_PARAMETERS='core.pager'='less' 'user.name'='Yoi'"}},
		{name: "GIT_CONFIG_COUNT=0 ignores KEY_0",
			env: []string{"GIT_CONFIG_COUNT=0", "GIT_CONFIG_KEY_0=yoimem.x", "GIT_CONFIG_VALUE_0=1"}},
		{name: "GIT_CONFIG_COUNT=1 ignores KEY_1",
			env: []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.x", "GIT_CONFIG_VALUE_0=1", "GIT_CONFIG_KEY_1=yoimem.x", "GIT_CONFIG_VALUE_1=1"}},
		{name: "yoimem only in a command-line value",
			env: []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=core.editor", "GIT_CONFIG_VALUE_0=yoimem"}},
		{name: "the merge driver's section and value name yoimem, no yoimem key",
			files: map[string]string{"repo/.git/config": other + "[merge \"yoimem\"]\n\tname = git-yoimem record merge\n\tdriver = git yoimem merge-driver %O %A %B %P\n"}},
		{name: "a section whose name begins with yoimem",
			files: map[string]string{"repo/.git/config": "[yoimemx]\n\tk = 1\n"}},
		{name: "linked worktree: a config file in its git dir is not read",
			linked: true,
			files:  map[string]string{"repo/.git/worktrees/wt/config": key}},

		// A yoimem key, or an include, in one place git reads.
		{name: "GIT_CONFIG_GLOBAL file", want: true,
			files: map[string]string{"global": key, "home/.gitconfig": other},
			env:   []string{"GIT_CONFIG_GLOBAL=$T/global"}},
		{name: "~/.gitconfig", want: true,
			files: map[string]string{"home/.gitconfig": key}},
		{name: "$XDG_CONFIG_HOME/git/config", want: true,
			files: map[string]string{"xdg/git/config": key, "home/.gitconfig": other},
			env:   []string{"XDG_CONFIG_HOME=$T/xdg"}},
		{name: "~/.config/git/config without XDG_CONFIG_HOME", want: true,
			files: map[string]string{"home/.config/git/config": key}},
		{name: "system file (GIT_CONFIG_SYSTEM)", want: true,
			files: map[string]string{"system": key},
			env:   []string{"GIT_CONFIG_NOSYSTEM=-", "GIT_CONFIG_SYSTEM=$T/system"}},
		{name: "system file, GIT_CONFIG_NOSYSTEM=0", want: true,
			files: map[string]string{"system": key},
			env:   []string{"GIT_CONFIG_NOSYSTEM=0", "GIT_CONFIG_SYSTEM=$T/system"}},
		{name: "system file, GIT_CONFIG_NOSYSTEM=false", want: true,
			files: map[string]string{"system": key},
			env:   []string{"GIT_CONFIG_NOSYSTEM=false", "GIT_CONFIG_SYSTEM=$T/system"}},
		{name: "system file, GIT_CONFIG_NOSYSTEM=off", want: true,
			files: map[string]string{"system": key},
			env:   []string{"GIT_CONFIG_NOSYSTEM=off", "GIT_CONFIG_SYSTEM=$T/system"}},
		{name: "repository config", want: true,
			files: map[string]string{"repo/.git/config": key}},
		{name: "repository config, section in capitals", want: true,
			files: map[string]string{"repo/.git/config": "[YoiMem]\n\tbranch = x\n"}},
		{name: "repository config, an indented header", want: true,
			files: map[string]string{"repo/.git/config": other + "  [yoimem]\n\tbranch = x\n"}},
		{name: "repository config, a key on the header's line", want: true,
			files: map[string]string{"repo/.git/config": "[yoimem] branch = x\n"}},
		{name: "repository config, old-style subsection", want: true,
			files: map[string]string{"repo/.git/config": "[yoimem.search]\n\tmaxResults = 3\n"}},
		{name: "worktree config", want: true,
			files: map[string]string{"repo/.git/config": "[core]\n\trepositoryFormatVersion = 1\n[extensions]\n\tworktreeConfig = true\n", "repo/.git/config.worktree": key}},
		{name: "linked worktree: common config", want: true, linked: true,
			files: map[string]string{"repo/.git/config": key}},
		{name: "linked worktree: its config.worktree", want: true, linked: true,
			files: map[string]string{"repo/.git/config": "[core]\n\trepositoryFormatVersion = 1\n[extensions]\n\tworktreeConfig = true\n", "repo/.git/worktrees/wt/config.worktree": key}},
		{name: "include in the repository config", want: true,
			files: map[string]string{"repo/.git/config": "[include]\n\tpath = $T/inc.cfg\n"}},
		{name: "includeIf in the global config", want: true,
			files: map[string]string{"home/.gitconfig": "[includeIf \"gitdir:$T/\"]\n\tpath = $T/inc.cfg\n"}},
		{name: "include in capitals", want: true,
			files: map[string]string{"home/.gitconfig": "[Include]\n\tpath = $T/inc.cfg\n"}},
		{name: "include of a file without yoimem (cannot tell)", want: true, unsure: true,
			files: map[string]string{"home/.gitconfig": "[include]\n\tpath = $T/home/other.cfg\n", "home/other.cfg": other}},
		{name: "GIT_CONFIG_PARAMETERS", want: true,
			env: []string{"GIT_CONFIG_PARAMETERS='yoimem.search.maxresults'='3'"}},
		{name: "GIT_CONFIG_PARAMETERS among others, in capitals", want: true,
			env: []string{"GIT_CONFIG_PARAMETERS='core.pager'='less' 'YOIMEM.Branch'='x'"}},
		{name: "GIT_CONFIG_PARAMETERS include.path", want: true,
			env: []string{"GIT_CONFIG_PARAMETERS='include.path'='$T/inc.cfg'"}},
		{name: "GIT_CONFIG_PARAMETERS includeIf", want: true,
			env: []string{"GIT_CONFIG_PARAMETERS='includeif.gitdir:$T/.path'='$T/inc.cfg'"}},
		{name: "GIT_CONFIG_COUNT KEY_0", want: true,
			env: []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=yoimem.x", "GIT_CONFIG_VALUE_0=1"}},
		{name: "GIT_CONFIG_COUNT KEY_1, in capitals", want: true,
			env: []string{"GIT_CONFIG_COUNT=2", "GIT_CONFIG_KEY_0=core.x", "GIT_CONFIG_VALUE_0=1", "GIT_CONFIG_KEY_1=YoiMem.X", "GIT_CONFIG_VALUE_1=1"}},
		{name: "GIT_CONFIG_COUNT include.path", want: true,
			env: []string{"GIT_CONFIG_COUNT=1", "GIT_CONFIG_KEY_0=include.path", "GIT_CONFIG_VALUE_0=$T/inc.cfg"}},
		{name: "GIT_CONFIG set", want: true, unsure: true,
			env: []string{"GIT_CONFIG=$T/some.cfg"}},
		{name: "unreadable global file", want: true, unsure: true,
			env:  []string{"GIT_CONFIG_GLOBAL=$T/global"},
			dirs: []string{"global"}},
		{name: "unreadable ~/.gitconfig", want: true, unsure: true,
			dirs: []string{"home/.gitconfig"}},
		{name: "unreadable worktree config", want: true, unsure: true,
			dirs: []string{"repo/.git/config.worktree"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			expand := func(s string) string { return strings.ReplaceAll(s, "$T", root) }
			bare := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + root, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "LC_ALL=C"}
			git := func(dir string, env []string, args ...string) ([]byte, error) {
				cmd := exec.Command("git", args...)
				cmd.Dir, cmd.Env = dir, env
				return cmd.Output()
			}
			repo := filepath.Join(root, "repo")
			if out, err := git(root, bare, "init", "-q", repo); err != nil {
				t.Fatalf("git init: %v %s", err, out)
			}
			gitDir, commonDir, workDir := filepath.Join(repo, ".git"), filepath.Join(repo, ".git"), repo
			if tt.linked {
				workDir = filepath.Join(root, "wt")
				if out, err := git(repo, append(bare, "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t"),
					"commit", "-q", "--allow-empty", "-m", "init"); err != nil {
					t.Fatalf("git commit: %v %s", err, out)
				}
				if out, err := git(repo, bare, "worktree", "add", "-q", workDir); err != nil {
					t.Fatalf("git worktree add: %v %s", err, out)
				}
				gitDir = filepath.Join(commonDir, "worktrees", "wt")
			}
			write := func(rel, content string) {
				p := filepath.Join(root, filepath.FromSlash(rel))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				f, err := os.OpenFile(p, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
				if err != nil {
					t.Fatal(err)
				}
				if _, err := f.WriteString(expand(content)); err != nil {
					t.Fatal(err)
				}
				if err := f.Close(); err != nil {
					t.Fatal(err)
				}
			}
			write("inc.cfg", key)
			for rel, content := range tt.files {
				write(rel, content)
			}
			for _, d := range tt.dirs {
				if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
					t.Fatal(err)
				}
			}

			vars := map[string]string{"HOME": filepath.Join(root, "home"), "GIT_CONFIG_NOSYSTEM": "1"}
			for _, kv := range tt.env {
				k, v, _ := strings.Cut(kv, "=")
				if v == "-" {
					delete(vars, k)
				} else {
					vars[k] = expand(v)
				}
			}
			got := MayHaveGitSettings(gitDir, commonDir, func(k string) string { return vars[k] })
			if got != tt.want {
				t.Errorf("MayHaveGitSettings = %v, want %v", got, tt.want)
			}

			// git's own answer, in the same environment.
			env := []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C"}
			for k, v := range vars {
				env = append(env, k+"="+v)
			}
			out, err := git(workDir, env, "config", "--get-regexp", `^yoimem\.`)
			var ee *exec.ExitError
			found := err == nil
			switch {
			case found:
				if !got {
					t.Errorf("git finds %q, yet MayHaveGitSettings says no", out)
				}
			case errors.As(err, &ee) && ee.ExitCode() == 1:
				// No key: true is allowed all the same (the probe may be unsure).
			case errors.As(err, &ee):
				t.Logf("git config fails here (and says so itself): %v %s", err, ee.Stderr)
			default:
				t.Fatal(err)
			}
			if tt.want && !tt.unsure && !found {
				t.Errorf("git finds no yoimem key: the case does not put one where git reads (%v)", err)
			}
		})
	}
}
