package gitstore

import (
	"context"
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/memlog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/internal/lockfile"
	"github.com/yoimem/git-yoimem/record"
)

// when is an hour after the fixed date of the test's git commits: the
// merged-or-not walk trusts committer times to within a day.
var when = time.Unix(1112911993+3600, 0).UTC()

// memRepo is a repository with code on main and a memory branch writer.
func memRepo(t testing.TB) (*MemoryBranch, string, []string) {
	t.Helper()
	dir, env := newRepo(t)
	writeFile(t, dir, "src/main.go", []byte("package main\n"), 0o644)
	writeFile(t, dir, "docs/a.md", []byte("a\n"), 0o644)
	writeFile(t, dir, ".yoi/knowledge/keep.md", []byte("keep\n"), 0o644)
	runGit(t, dir, env, "add", "-A")
	runGit(t, dir, env, "commit", "-q", "-m", "code")
	return openBranch(t, dir, env), dir, env
}

func openBranch(t testing.TB, dir string, env []string) *MemoryBranch {
	t.Helper()
	repo, err := Locate(context.Background(), Git{Dir: dir, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	objs, err := OpenObjects(repo)
	if err != nil {
		t.Fatal(err)
	}
	return &MemoryBranch{Repo: repo, Objects: objs, Branch: "yoimem/memory", Base: "refs/heads/main", Prefix: ".yoi", LockTimeout: 20 * time.Second}
}

func changes(t testing.TB, kv ...string) *record.ChangeSet {
	t.Helper()
	var cs record.ChangeSet
	for i := 0; i+1 < len(kv); i += 2 {
		c := record.Change{Path: kv[i], Content: []byte(kv[i+1])}
		if kv[i+1] == "" {
			c = record.Change{Op: record.OpDelete, Path: kv[i]}
		}
		if err := cs.Put(c); err != nil {
			t.Fatal(err)
		}
	}
	return &cs
}

func msg(n int) string {
	m := &memlog.Message{RunID: fmt.Sprintf("run-%d", n), Engine: "rules", Ops: []memlog.Op{{Kind: memlog.OpAdd, Path: "x.md", Reason: "test"}}}
	s, err := m.Format()
	if err != nil {
		panic(err)
	}
	return s
}

func commit(t testing.TB, m *MemoryBranch, cs *record.ChangeSet, n int) CommitResult {
	t.Helper()
	res, err := m.Commit(context.Background(), CommitRequest{Changes: cs, Message: msg(n), Author: Signature{Name: "git-yoimem", Email: "yoimem@localhost", When: when}})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

func TestCommitBuildsOnBaseAndTouchesNothingElse(t *testing.T) {
	m, dir, env := memRepo(t)
	head := runGit(t, dir, env, "rev-parse", "HEAD")
	mainTip := head
	srcTree := runGit(t, dir, env, "rev-parse", "HEAD:src")
	writeFile(t, dir, "src/main.go", []byte("package main // edited, not staged\n"), 0o644)
	statusBefore := runGit(t, dir, env, "status", "--porcelain")

	res := commit(t, m, changes(t, "memory/decisions/a.md", "A\n", "knowledge/k.md", "K\n"), 1)
	if res.Parent != mainTip || res.Previous != "" {
		t.Fatalf("first commit: parent %s previous %q, want main %s", res.Parent, res.Previous, mainTip)
	}
	if got := runGit(t, dir, env, "show", "yoimem/memory:.yoi/memory/decisions/a.md"); got != "A" {
		t.Fatalf("a.md = %q", got)
	}
	if got := runGit(t, dir, env, "show", "yoimem/memory:.yoi/knowledge/keep.md"); got != "keep" {
		t.Fatalf("keep.md = %q", got)
	}
	// Untouched subtrees keep their hashes: only changed paths are rewritten.
	if got := runGit(t, dir, env, "rev-parse", "yoimem/memory:src"); got != srcTree {
		t.Fatalf("src tree rewritten: %s != %s", got, srcTree)
	}
	if got := runGit(t, dir, env, "diff", "--name-only", "main", "yoimem/memory"); got != ".yoi/knowledge/k.md\n.yoi/memory/decisions/a.md" {
		t.Fatalf("diff main..memory:\n%s", got)
	}
	// HEAD, index and working tree as they were.
	if got := runGit(t, dir, env, "rev-parse", "HEAD"); got != head {
		t.Fatal("HEAD moved")
	}
	if got := runGit(t, dir, env, "symbolic-ref", "HEAD"); got != "refs/heads/main" {
		t.Fatalf("HEAD is %s", got)
	}
	if got := runGit(t, dir, env, "status", "--porcelain"); got != statusBefore {
		t.Fatalf("status changed:\n%s\nwas\n%s", got, statusBefore)
	}
	// The reflog has the update with our subject.
	if got := runGit(t, dir, env, "reflog", "show", "--format=%gs", "yoimem/memory"); !strings.Contains(got, "yoimem: 1 added") {
		t.Fatalf("reflog: %q", got)
	}

	// The second commit builds on the memory tip.
	res2 := commit(t, m, changes(t, "memory/decisions/a.md", "A2\n", "knowledge/keep.md", ""), 2)
	if res2.Parent != res.Commit || res2.Previous != res.Commit {
		t.Fatalf("second commit parent %s, want %s", res2.Parent, res.Commit)
	}
	if out, err := runGitErr(dir, env, "cat-file", "-e", "yoimem/memory:.yoi/knowledge/keep.md"); err == nil {
		t.Fatalf("deleted file still there: %s", out)
	}

	// Merged into main: the next commit starts from main's tip.
	runGit(t, dir, env, "merge", "-q", "--no-edit", "yoimem/memory")
	writeFile(t, dir, "src/more.go", []byte("package main\n"), 0o644)
	runGit(t, dir, env, "add", "src/more.go")
	runGit(t, dir, env, "commit", "-q", "-m", "more code")
	newMain := runGit(t, dir, env, "rev-parse", "main")
	res3 := commit(t, m, changes(t, "memory/requests/r.md", "R\n"), 3)
	if res3.Parent != newMain {
		t.Fatalf("after merge: parent %s, want main %s", res3.Parent, newMain)
	}
	if out := runGit(t, dir, env, "fsck", "--strict"); strings.Contains(out, "error") {
		t.Fatalf("fsck: %s", out)
	}
}

func runGitErr(dir string, env []string, args ...string) (string, error) {
	g := Git{Dir: dir, Env: env}
	out, err := g.Run(context.Background(), args...)
	return string(out), err
}

func TestCommitNoChange(t *testing.T) {
	m, _, _ := memRepo(t)
	first := commit(t, m, changes(t, "knowledge/k.md", "K\n"), 1)
	_, err := m.Commit(context.Background(), CommitRequest{Changes: changes(t, "knowledge/k.md", "K\n"), Message: msg(2), Author: Signature{Name: "a", Email: "b", When: when}})
	if !errors.Is(err, ErrNoChange) {
		t.Fatalf("err = %v, want ErrNoChange", err)
	}
	if tip, _, _ := m.tips(context.Background()); tip != first.Commit {
		t.Fatal("branch moved on a no-op")
	}
}

// A change set that leaves the base as it is makes no commit, even when the
// memory branch does not exist yet.
func TestCommitNoChangeOnNewBranch(t *testing.T) {
	m, dir, env := memRepo(t)
	_, err := m.Commit(context.Background(), CommitRequest{Changes: changes(t, "knowledge/keep.md", "keep\n"), Message: msg(1), Author: Signature{Name: "a", Email: "b", When: when}})
	if !errors.Is(err, ErrNoChange) {
		t.Fatalf("err = %v, want ErrNoChange", err)
	}
	if _, err := runGitErr(dir, env, "rev-parse", "--verify", "-q", "yoimem/memory"); err == nil {
		t.Fatal("an empty memory commit was made")
	}
}

func TestCommitRetriesWhenTheRefMoves(t *testing.T) {
	m, dir, env := memRepo(t)
	first := commit(t, m, changes(t, "knowledge/a.md", "A\n"), 1)
	other := openBranch(t, dir, env)
	m.beforeSwap = func(attempt int) {
		if attempt == 1 { // another writer (without our lock) moves the branch
			other.beforeSwap = nil
			if _, err := other.try(context.Background(), CommitRequest{Changes: changes(t, "knowledge/b.md", "B\n"), Message: msg(9), Author: Signature{Name: "x", Email: "y", When: when}}, mustEdits(t, other, "knowledge/b.md", "B\n"), 1); err != nil {
				t.Fatal(err)
			}
		}
	}
	res := commit(t, m, changes(t, "knowledge/c.md", "C\n"), 2)
	if res.Attempts != 2 {
		t.Fatalf("attempts = %d, want 2", res.Attempts)
	}
	// Nothing lost: both b and c are on the branch, first is an ancestor.
	for _, f := range []string{"a", "b", "c"} {
		runGit(t, dir, env, "cat-file", "-e", "yoimem/memory:.yoi/knowledge/"+f+".md")
	}
	runGit(t, dir, env, "merge-base", "--is-ancestor", first.Commit, "yoimem/memory")
}

func mustEdits(t testing.TB, m *MemoryBranch, kv ...string) []treeEdit {
	t.Helper()
	e, err := m.Objects.editsFor(changes(t, kv...), m.Prefix)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestConcurrentWriters: writers with their own object stores commit at
// once; every commit lands, none is lost, the reflog has them all.
func TestConcurrentWriters(t *testing.T) {
	_, dir, env := memRepo(t)
	const writers, each = 4, 5
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func(w int) {
			defer wg.Done()
			m := openBranch(t, dir, env)
			for i := 0; i < each; i++ {
				p := fmt.Sprintf("knowledge/w%d-%d.md", w, i)
				_, err := m.Commit(context.Background(), CommitRequest{Changes: changes(t, p, p+"\n"), Message: msg(w*100 + i), Author: Signature{Name: "a", Email: "b", When: when}})
				errs <- err
			}
		}(w)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	files := runGit(t, dir, env, "ls-tree", "-r", "--name-only", "yoimem/memory", "--", ".yoi/knowledge/")
	if n := strings.Count(files, "\n") + 1; n != writers*each+1 {
		t.Fatalf("%d files on the branch, want %d:\n%s", n, writers*each+1, files)
	}
	if n := strings.Count(runGit(t, dir, env, "reflog", "show", "--format=%H", "yoimem/memory"), "\n") + 1; n != writers*each {
		t.Fatalf("reflog has %d entries, want %d", n, writers*each)
	}
	if n := strings.Count(runGit(t, dir, env, "rev-list", "main..yoimem/memory"), "\n") + 1; n != writers*each {
		t.Fatalf("%d memory commits, want %d", n, writers*each)
	}
}

func TestHundredCommitsFsckClean(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	m, dir, env := memRepo(t)
	for i := 0; i < 100; i++ {
		commit(t, m, changes(t, fmt.Sprintf("memory/decisions/d%03d.md", i%17), fmt.Sprintf("v%d\n", i)), i)
	}
	out, err := runGitErr(dir, env, "fsck", "--strict", "--no-dangling")
	if err != nil || strings.TrimSpace(out) != "" {
		t.Fatalf("fsck: %v\n%s", err, out)
	}
	if n := strings.Count(runGit(t, dir, env, "rev-list", "main..yoimem/memory"), "\n") + 1; n != 100 {
		t.Fatalf("%d commits", n)
	}
	// Every message parses with git's own trailer parser.
	out = runGit(t, dir, env, "log", "--format=%(trailers:key=Yoimem-Run,valueonly)", "main..yoimem/memory")
	if strings.Count(out, "run-") != 100 {
		t.Fatalf("trailers seen by git: %q", out)
	}
}

func TestCommitInOddRepositories(t *testing.T) {
	t.Run("worktreeConfig", func(t *testing.T) {
		_, dir, env := memRepo(t)
		runGit(t, dir, env, "config", "core.repositoryformatversion", "1")
		runGit(t, dir, env, "config", "extensions.worktreeConfig", "true")
		commit(t, openBranch(t, dir, env), changes(t, "knowledge/x.md", "X\n"), 1)
		runGit(t, dir, env, "cat-file", "-e", "yoimem/memory:.yoi/knowledge/x.md")
	})
	t.Run("linked worktree", func(t *testing.T) {
		_, dir, env := memRepo(t)
		wt := dir + "-wt"
		runGit(t, dir, env, "worktree", "add", "-q", "-b", "feature", wt)
		commit(t, openBranch(t, wt, env), changes(t, "knowledge/x.md", "X\n"), 1)
		runGit(t, dir, env, "cat-file", "-e", "yoimem/memory:.yoi/knowledge/x.md")
		if got := runGit(t, wt, env, "status", "--porcelain"); got != "" {
			t.Fatalf("worktree status: %q", got)
		}
	})
	t.Run("packed refs", func(t *testing.T) {
		m, dir, env := memRepo(t)
		commit(t, m, changes(t, "knowledge/x.md", "X\n"), 1)
		runGit(t, dir, env, "pack-refs", "--all")
		commit(t, m, changes(t, "knowledge/y.md", "Y\n"), 2)
		runGit(t, dir, env, "cat-file", "-e", "yoimem/memory:.yoi/knowledge/x.md")
		runGit(t, dir, env, "cat-file", "-e", "yoimem/memory:.yoi/knowledge/y.md")
	})
	t.Run("sha256 refused", func(t *testing.T) {
		root, env := newGitEnv(t)
		dir := root + "/sha"
		if _, err := runGitErr(root, env, "init", "-q", "--object-format=sha256", dir); err != nil {
			t.Skip("git cannot make SHA-256 repositories")
		}
		repo, err := Locate(context.Background(), Git{Dir: dir, Env: env})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := OpenObjects(repo); !errors.Is(err, ErrSHA256) {
			t.Fatalf("err = %v, want ErrSHA256", err)
		}
	})
}

// TestResolveBase: the same answers whether refs are read by git or
// through the object store (ResolveBaseIn), packed or loose.
func TestResolveBase(t *testing.T) {
	for _, through := range []string{"git", "objects", "objects, packed refs"} {
		t.Run(through, func(t *testing.T) {
			_, dir, env := memRepo(t)
			repo, _ := Locate(context.Background(), Git{Dir: dir, Env: env})
			ctx := context.Background()
			resolve := func(configured string) (string, error) {
				if through == "git" {
					return ResolveBase(ctx, repo, configured)
				}
				if through == "objects, packed refs" {
					runGit(t, dir, env, "pack-refs", "--all")
				}
				objs, err := OpenObjects(repo)
				if err != nil {
					t.Fatal(err)
				}
				return ResolveBaseIn(ctx, repo, objs, configured)
			}
			if ref, err := resolve(""); err != nil || ref != "refs/heads/main" {
				t.Fatalf("default: %s %v", ref, err)
			}
			runGit(t, dir, env, "branch", "trunk")
			if ref, err := resolve("trunk"); err != nil || ref != "refs/heads/trunk" {
				t.Fatalf("configured: %s %v", ref, err)
			}
			runGit(t, dir, env, "config", "init.defaultBranch", "trunk")
			if ref, err := resolve(""); err != nil || ref != "refs/heads/trunk" {
				t.Fatalf("init.defaultBranch: %s %v", ref, err)
			}
			runGit(t, dir, env, "update-ref", "refs/remotes/origin/develop", "main")
			runGit(t, dir, env, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/develop")
			if ref, err := resolve(""); err != nil || ref != "refs/remotes/origin/develop" {
				t.Fatalf("origin/HEAD: %s %v", ref, err)
			}
			runGit(t, dir, env, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/gone")
			if ref, err := resolve(""); err != nil || ref != "refs/heads/trunk" {
				t.Fatalf("origin/HEAD naming no branch: %s %v", ref, err)
			}
			if ref, err := resolve("origin/develop"); err != nil || ref != "refs/remotes/origin/develop" {
				t.Fatalf("origin/develop: %s %v", ref, err)
			}
			if _, err := resolve("nope"); !errors.Is(err, ErrNoBase) {
				t.Fatalf("missing configured base: %v", err)
			}
		})
	}
}

// TestHelperCommitProcess is not a test: TestConcurrentProcesses runs the
// test binary as several processes that each commit to the memory branch.
func TestHelperCommitProcess(t *testing.T) {
	dir := os.Getenv("YOIMEM_TEST_COMMIT_DIR")
	if dir == "" {
		t.Skip("helper process")
	}
	env := strings.Split(os.Getenv("YOIMEM_TEST_COMMIT_ENV"), "\x1f")
	m := openBranch(t, dir, env)
	for i := 0; i < 5; i++ {
		p := fmt.Sprintf("knowledge/p%s-%d.md", os.Getenv("YOIMEM_TEST_COMMIT_ID"), i)
		if _, err := m.Commit(context.Background(), CommitRequest{Changes: changes(t, p, p+"\n"), Message: msg(i), Author: Signature{Name: "a", Email: "b", When: when}}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestConcurrentProcesses: separate processes commit at once; every commit
// lands or fails cleanly, none is lost, the reflog has them all.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	_, dir, env := memRepo(t)
	const procs = 4
	cmds := make([]*exec.Cmd, procs)
	for i := range cmds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelperCommitProcess$", "-test.count=1")
		cmd.Env = append(os.Environ(), "YOIMEM_TEST_COMMIT_DIR="+dir, "YOIMEM_TEST_COMMIT_ENV="+strings.Join(env, "\x1f"), fmt.Sprintf("YOIMEM_TEST_COMMIT_ID=%d", i))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = cmd
	}
	for i, cmd := range cmds {
		if err := cmd.Wait(); err != nil {
			t.Fatalf("process %d: %v", i, err)
		}
	}
	files := runGit(t, dir, env, "ls-tree", "-r", "--name-only", "yoimem/memory", "--", ".yoi/knowledge/")
	if n := strings.Count(files, "\n") + 1; n != procs*5+1 {
		t.Fatalf("%d files on the branch, want %d", n, procs*5+1)
	}
	if n := strings.Count(runGit(t, dir, env, "reflog", "show", "--format=%H", "yoimem/memory"), "\n") + 1; n != procs*5 {
		t.Fatalf("reflog has %d entries, want %d", n, procs*5)
	}
	if out, err := runGitErr(dir, env, "fsck", "--strict", "--no-dangling"); err != nil || strings.TrimSpace(out) != "" {
		t.Fatalf("fsck: %v %s", err, out)
	}
}

// A ref git holds (its <ref>.lock exists) is not moved under it: the
// commit retries, then fails cleanly, and works once git lets go.
func TestCommitRespectsGitsRefLock(t *testing.T) {
	m, dir, env := memRepo(t)
	first := commit(t, m, changes(t, "knowledge/a.md", "A\n"), 1)
	lock := filepath.Join(m.Repo.CommonDir, "refs", "heads", "yoimem", "memory.lock")
	if err := os.WriteFile(lock, []byte("held by git\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	m.MaxAttempts = 2
	_, err := m.Commit(context.Background(), CommitRequest{Changes: changes(t, "knowledge/b.md", "B\n"), Message: msg(2), Author: Signature{Name: "a", Email: "b", When: when}})
	if err == nil || !strings.Contains(err.Error(), "locked by another git process") {
		t.Fatalf("err = %v, want a lock refusal", err)
	}
	if got := runGit(t, dir, env, "rev-parse", "yoimem/memory"); got != first.Commit {
		t.Fatal("the branch moved under git's lock")
	}
	if b, _ := os.ReadFile(lock); string(b) != "held by git\n" {
		t.Fatal("git's lock file was touched")
	}
	os.Remove(lock)
	commit(t, m, changes(t, "knowledge/b.md", "B\n"), 3)
	// git itself agrees with what we wrote: ref, reflog, objects.
	if out, err := runGitErr(dir, env, "fsck", "--strict", "--no-dangling"); err != nil || strings.TrimSpace(out) != "" {
		t.Fatalf("fsck: %v %s", err, out)
	}
	if got := runGit(t, dir, env, "reflog", "show", "--format=%gs", "yoimem/memory"); strings.Count(got, "yoimem: 1 added") != 2 {
		t.Fatalf("reflog: %q", got)
	}
	runGit(t, dir, env, "update-ref", "refs/heads/yoimem/memory", "HEAD")
}

func TestCommitRefusesBadInput(t *testing.T) {
	m, dir, env := memRepo(t)
	for _, name := range []string{"mem.lock", "a..b", "x y", "a~1", "mem:x", "../heads/main", ".hidden", "a/", "@"} {
		b := *m
		b.Branch = name
		if _, err := b.Commit(context.Background(), CommitRequest{Changes: changes(t, "knowledge/a.md", "A\n"), Message: msg(1), Author: Signature{Name: "a", Email: "b", When: when}}); err == nil {
			t.Errorf("branch %q accepted", name)
		}
	}
	// a file and a directory of the same name in one change set
	if _, err := m.Commit(context.Background(), CommitRequest{Changes: changes(t, "knowledge/x.md", "A\n", "knowledge/x.md/y", "B\n"), Message: msg(2), Author: Signature{Name: "a", Email: "b", When: when}}); err == nil {
		t.Error("a tree with duplicate entries was committed")
	}
	// an identity that would inject a header is cleaned
	res, err := m.Commit(context.Background(), CommitRequest{Changes: changes(t, "knowledge/z.md", "Z\n"), Message: msg(3), Author: Signature{Name: "Eve <x@y> 1 +0000\nencoding evil", Email: "e>v", When: when}})
	if err != nil {
		t.Fatal(err)
	}
	if out := runGit(t, dir, env, "cat-file", "-p", res.Commit); strings.Contains(out, "encoding evil\n") || strings.Count(out, "\n") < 4 {
		t.Fatalf("commit header:\n%s", out)
	}
	if out, err := runGitErr(dir, env, "fsck", "--strict", "--no-dangling"); err != nil || strings.TrimSpace(out) != "" {
		t.Fatalf("fsck: %v %s", err, out)
	}
	// a packed branch that conflicts with the memory branch's path is git's
	// to refuse, not ours to write around
	b := *m
	b.Branch = "yoimem/memory/old"
	if _, err := b.Commit(context.Background(), CommitRequest{Changes: changes(t, "knowledge/w.md", "W\n"), Message: msg(4), Author: Signature{Name: "a", Email: "b", When: when}}); err == nil {
		t.Error("a branch below an existing branch was created")
	}
}

// TestCommitWaitsForTheWritersLock: another git-yoimem holding the
// memory-branch lock makes a commit wait, then fail with ErrLocked naming
// the wait; a cancelled context ends the wait with its error; once the
// lock is free the commit goes through.
func TestCommitWaitsForTheWritersLock(t *testing.T) {
	m, _, _ := memRepo(t)
	other := lockfile.New(filepath.Join(m.Repo.CommonDir, "yoimem", "memory-branch.flock"))
	if err := other.Acquire(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	req := CommitRequest{Changes: changes(t, "knowledge/a.md", "a\n"), Message: msg(1), Author: Signature{Name: "git-yoimem", Email: "yoimem@localhost", When: when}}
	m.LockTimeout = 50 * time.Millisecond
	if _, err := m.Commit(context.Background(), req); !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), "waited 50ms") {
		t.Errorf("Commit while locked = %v; want ErrLocked after 50ms", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	m.LockTimeout = time.Hour
	if _, err := m.Commit(ctx, req); !errors.Is(err, context.Canceled) {
		t.Errorf("Commit with a cancelled context = %v; want context.Canceled", err)
	}
	other.Unlock()
	if _, err := m.Commit(context.Background(), req); err != nil {
		t.Errorf("Commit once the lock is free: %v", err)
	}
}
