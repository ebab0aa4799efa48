package consolidate

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/record"
)

// gitEnv is an isolated environment for git under root: no system or
// user configuration, a fixed identity and dates.
func gitEnv(t testing.TB, root string) []string {
	t.Helper()
	home := filepath.Join(root, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	global := filepath.Join(home, "gitconfig")
	cfg := "[user]\n\tname = Yoi Test\n\temail = yoi@example.com\n[init]\n\tdefaultBranch = main\n[core]\n\tautocrlf = false\n[gc]\n\tauto = 0\n[commit]\n\tgpgSign = false\n"
	if err := os.WriteFile(global, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + global,
		"GIT_AUTHOR_DATE=2026-01-02T03:04:05Z",
		"GIT_COMMITTER_DATE=2026-01-02T03:04:05Z",
		"GIT_CEILING_DIRECTORIES=" + root,
		"GIT_TERMINAL_PROMPT=0",
		"LC_ALL=C",
		"LANGUAGE=",
		"TZ=UTC",
	}
}

// testRepo is a repository with .yoi/ files committed on main.
type testRepo struct {
	dir string
	env []string
}

func newTestRepo(t testing.TB, files map[string]string) *testRepo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found in PATH")
	}
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	r := &testRepo{dir: filepath.Join(root, "repo"), env: gitEnv(t, root)}
	r.git(t, "init", "-q", r.dir)
	for p, c := range files {
		r.write(t, p, c)
	}
	r.write(t, "src/main.go", "package main\n")
	r.git(t, "add", "-A")
	r.git(t, "commit", "-q", "-m", "init")
	return r
}

func (r *testRepo) git(t testing.TB, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = r.dir
	if args[0] == "init" {
		cmd.Dir = filepath.Dir(r.dir)
	}
	cmd.Env = r.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	return strings.TrimRight(stdout.String(), "\n")
}

// write writes a file of the working tree (p slash-separated from the top).
func (r *testRepo) write(t testing.TB, p, content string) {
	t.Helper()
	full := filepath.Join(r.dir, filepath.FromSlash(p))
	if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (r *testRepo) branch(t testing.TB) *gitstore.MemoryBranch {
	t.Helper()
	repo, err := gitstore.Locate(context.Background(), gitstore.Git{Dir: r.dir, Env: r.env})
	if err != nil {
		t.Fatal(err)
	}
	objs, err := gitstore.OpenObjects(repo)
	if err != nil {
		t.Fatal(err)
	}
	return &gitstore.MemoryBranch{Repo: repo, Objects: objs, Branch: "yoimem/memory", Base: "refs/heads/main", Prefix: ".yoi", LockTimeout: 20 * time.Second}
}

func (r *testRepo) stagingDir() string {
	return filepath.Join(r.dir, ".yoi", "memory", "_staging")
}

func (r *testRepo) gitErr(args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	out, err := cmd.Output()
	return strings.TrimSpace(string(out)), err
}

func mustSnapshot(t testing.TB, r *testRepo) record.Snapshot {
	t.Helper()
	_, snap, err := BaseSnapshot(context.Background(), r.branch(t), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func changeSet(t testing.TB, kv ...string) *record.ChangeSet {
	t.Helper()
	var cs record.ChangeSet
	for i := 0; i+1 < len(kv); i += 2 {
		if err := cs.Put(record.Change{Path: kv[i], Content: []byte(kv[i+1])}); err != nil {
			t.Fatal(err)
		}
	}
	return &cs
}
