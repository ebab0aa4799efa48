package gitstore

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// childShared names the environment variable that makes
// TestSharedModesChild run: the value of core.sharedRepository to set
// ("-" for none).
const childShared = "GITSTORE_TEST_SHARED_REPOSITORY"

// childUmask is the child's umask, in octal.
const childUmask = "GITSTORE_TEST_UMASK"

// TestSharedRepositoryModes: under core.sharedRepository (and without
// it), the objects, fan-out directories, refs, reflogs, notes and the
// yoimem/ directory and lock a memory commit and a note write have the
// bits git gives the same kind of file in the same repository. The work
// runs in a child process with a umask of 077 (the umask is the whole
// process's; this one's stays as it is), and with 022 and 002.
func TestSharedRepositoryModes(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found in PATH")
	}
	for _, c := range []struct{ value, umask string }{
		{"-", "077"}, {"umask", "077"}, {"group", "077"}, {"true", "077"}, {"all", "077"}, {"0640", "077"}, {"0604", "077"},
		{"-", "022"}, {"group", "022"}, {"everybody", "002"}, {"0660", "002"},
	} {
		t.Run(c.value+"/umask-"+c.umask, func(t *testing.T) {
			value := c.value
			cmd := exec.Command(os.Args[0], "-test.run=^TestSharedModesChild$", "-test.v", "-test.count=1")
			cmd.Env = append(os.Environ(), childShared+"="+value, childUmask+"="+c.umask)
			out, err := cmd.CombinedOutput()
			if err != nil || !strings.Contains(string(out), "--- PASS: TestSharedModesChild") {
				t.Fatalf("child with core.sharedRepository=%s: %v\n%s", value, err, out)
			}
		})
	}
}

func TestSharedModesChild(t *testing.T) {
	value, ok := os.LookupEnv(childShared)
	if !ok {
		t.Skip("run by TestSharedRepositoryModes in a process of its own")
	}
	umask, err := strconv.ParseUint(os.Getenv(childUmask), 8, 32)
	if err != nil {
		t.Fatalf("%s: %v", childUmask, err)
	}
	syscall.Umask(int(umask))
	m, dir, env := memRepo(t)
	gitDir := filepath.Join(dir, ".git")
	if value != "-" {
		runGit(t, dir, env, "config", "core.sharedRepository", value)
	}

	// What git gives: a commit (objects in new fan-out directories, the
	// branch's ref and reflog), a new branch in a new directory, a note.
	before := listTree(t, gitDir)
	writeFile(t, dir, "code.txt", []byte("git's own\n"), 0o644)
	runGit(t, dir, env, "add", "code.txt")
	runGit(t, dir, env, "commit", "-q", "-m", "git's commit")
	runGit(t, dir, env, "update-ref", "--create-reflog", "refs/heads/gitside/x", "HEAD")
	runGit(t, dir, env, "notes", "add", "-m", "git's note", "HEAD")
	gitNew := newEntries(t, gitDir, before)
	want := map[string]fs.FileMode{
		"object":  gitNew.one(t, "objects/??/*"),
		"fan-out": gitNew.one(t, "objects/??"),
		"ref":     gitNew.one(t, "refs/heads/gitside/x", "refs/notes/commits"),
		"ref dir": gitNew.one(t, "refs/heads/gitside", "refs/notes"),
		"log":     gitNew.one(t, "logs/refs/heads/gitside/x", "logs/refs/notes/commits"),
		"log dir": gitNew.one(t, "logs/refs/heads/gitside", "logs/refs/notes"),
	}

	// What git-yoimem gives: a memory commit and a note, in a process
	// that opens the repository anew.
	before = listTree(t, gitDir)
	m = openBranch(t, dir, env)
	res := commit(t, m, changes(t, "knowledge/one.md", "one\n", "knowledge/two.md", "two\n", "memory/summary.md", "summary\n"), 1)
	if err := openNotes(t, m).Add(context.Background(), res.Commit, []byte("evidence\n"), "run 1", Signature{Name: "a", Email: "b", When: when}); err != nil {
		t.Fatal(err)
	}
	ours := newEntries(t, gitDir, before)
	checks := []struct {
		kind     string
		patterns []string
	}{
		{"object", []string{"objects/??/*"}},
		{"fan-out", []string{"objects/??"}},
		{"ref", []string{"refs/heads/yoimem/memory", "refs/notes/yoimem"}},
		{"ref dir", []string{"refs/heads/yoimem", "yoimem"}},
		{"log", []string{"logs/refs/heads/yoimem/memory", "logs/refs/notes/yoimem"}},
		{"log dir", []string{"logs/refs/heads/yoimem"}},
		{"lock", []string{"yoimem/memory-branch.flock"}},
	}
	// The lock is born as git's ref locks are (0666, then the shared
	// bits); unshared, it stays private to its owner, as before.
	want["lock"] = want["ref"]
	if value == "-" || value == "umask" {
		want["lock"] = 0o600 &^ fs.FileMode(umask)
	}
	for _, c := range checks {
		got := ours.match(c.patterns...)
		if len(got) == 0 {
			t.Errorf("git-yoimem wrote no %s (%s)", c.kind, strings.Join(c.patterns, ", "))
		}
		for path, mode := range got {
			if mode != want[c.kind] {
				t.Errorf("%s %s is %v; git gives a %s %v", c.kind, path, mode, c.kind, want[c.kind])
			}
		}
	}
}

// modes maps paths (slash-separated, relative to the git directory) to
// their mode bits (permissions, setgid and the like, and the directory
// bit).
type modes map[string]fs.FileMode

func listTree(t *testing.T, root string) modes {
	t.Helper()
	out := modes{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		out[filepath.ToSlash(rel)] = fi.Mode() & (fs.ModeDir | fs.ModePerm | fs.ModeSetgid | fs.ModeSetuid | fs.ModeSticky)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// newEntries are the entries of root that were not in before, and the
// ones whose file was replaced (a ref moved by renaming a lock over it)
// or changed (a reflog): every path that exists and is listed in
// before as well is kept when its inode or size changed. Simpler: refs
// and reflogs are named by the caller, so those are kept whatever.
func newEntries(t *testing.T, root string, before modes) modes {
	t.Helper()
	out := modes{}
	for p, m := range listTree(t, root) {
		if _, old := before[p]; !old || strings.HasPrefix(p, "refs/") || strings.HasPrefix(p, "logs/") {
			out[p] = m
		}
	}
	return out
}

// match returns the entries matching any of the patterns (path.Match).
func (ms modes) match(patterns ...string) modes {
	out := modes{}
	for p, m := range ms {
		for _, pat := range patterns {
			if ok, _ := filepath.Match(pat, p); ok {
				out[p] = m
			}
		}
	}
	return out
}

// one is the single mode of the entries matching patterns; the test
// fails if there are none, or if they differ.
func (ms modes) one(t *testing.T, patterns ...string) fs.FileMode {
	t.Helper()
	got := ms.match(patterns...)
	var mode fs.FileMode
	first := ""
	for p, m := range got {
		if first != "" && m != mode {
			t.Fatalf("git gave %s %v and %s %v", first, mode, p, m)
		}
		first, mode = p, m
	}
	if first == "" {
		t.Fatalf("git wrote nothing matching %s", strings.Join(patterns, ", "))
	}
	return mode
}
