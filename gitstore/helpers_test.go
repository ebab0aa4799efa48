package gitstore

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Fixed identity and dates of the isolated test environment, so that commits
// made by tests have the same hashes on every run.
const (
	testName  = "Yoi Test"
	testEmail = "yoi@example.com"
	testDate  = "2005-04-07T22:13:13+0000" // 1112911993
)

// newGitEnv makes an isolated git environment under a fresh temporary
// directory and returns that directory (symlinks resolved, so that it
// compares equal to what git prints) and the full environment for git.
//
// Nothing is inherited from the user's environment but PATH: HOME is a
// temporary directory, system and global config are replaced by a temporary
// file (user.name/email, init.defaultBranch=main), dates are fixed, messages
// are untranslated, and GIT_CEILING_DIRECTORIES stops repository discovery
// at the returned directory, so a test directory never finds a repository
// the temporary directory happens to be inside.
func newGitEnv(t testing.TB) (root string, env []string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found in PATH")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(root, "home")
	if err := os.Mkdir(home, 0o755); err != nil {
		t.Fatal(err)
	}
	global := filepath.Join(home, "gitconfig")
	cfg := "[user]\n\tname = " + testName + "\n\temail = " + testEmail + "\n" +
		"[init]\n\tdefaultBranch = main\n" +
		"[core]\n\tautocrlf = false\n" +
		"[gc]\n\tauto = 0\n" +
		"[commit]\n\tgpgSign = false\n"
	if err := os.WriteFile(global, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	env = []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + global,
		"GIT_AUTHOR_DATE=" + testDate,
		"GIT_COMMITTER_DATE=" + testDate,
		"GIT_CEILING_DIRECTORIES=" + root,
		"GIT_TERMINAL_PROMPT=0",
		"LC_ALL=C",
		"LANGUAGE=",
		"TZ=UTC",
	}
	if v, ok := os.LookupEnv("SYSTEMROOT"); ok { // Windows needs it to start processes
		env = append(env, "SYSTEMROOT="+v)
	}
	return root, env
}

// newRepo makes an isolated repository with one empty commit on main and
// returns its working tree root (an absolute path without symlinks) and the
// environment to run git in it. See newGitEnv.
func newRepo(t testing.TB) (dir string, env []string) {
	t.Helper()
	root, env := newGitEnv(t)
	dir = filepath.Join(root, "repo")
	runGit(t, root, env, "init", "-q", dir)
	runGit(t, dir, env, "commit", "-q", "--allow-empty", "-m", "init")
	return dir, env
}

// runGit runs git in dir with exactly env (not through the Git seam under
// test) and returns its stdout with trailing newlines removed; it fails the
// test if git fails.
func runGit(t testing.TB, dir string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %s in %s: %v\n%s", strings.Join(args, " "), dir, err, stderr.String())
	}
	return strings.TrimRight(stdout.String(), "\n")
}

// writeFile writes data to root/rel (rel slash-separated), creating parent
// directories, and sets perm exactly (umask does not apply).
func writeFile(t testing.TB, root, rel string, data []byte, perm os.FileMode) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, data, perm); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(p, perm); err != nil {
		t.Fatal(err)
	}
	return p
}

// mkdirAll creates root/rel (rel slash-separated) and returns its path.
func mkdirAll(t testing.TB, root, rel string) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}
