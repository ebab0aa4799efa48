package gitstore

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAutoMerge: the memory branch is merged into the current branch only
// when .yoi/ is clean and bringing it to the memory tip loses nothing;
// otherwise nothing changes and the reason is given.
func TestAutoMerge(t *testing.T) {
	for _, tc := range []struct {
		name   string
		setup  func(t *testing.T, dir string, env []string) // after the memory commit, on main
		merged bool
		reason string // a part of it
	}{
		{"clean and in step", nil, true, ""},
		{"code committed meanwhile", func(t *testing.T, dir string, env []string) {
			writeFile(t, dir, "src/b.go", []byte("package b\n"), 0o644)
			runGit(t, dir, env, "add", "-A")
			runGit(t, dir, env, "commit", "-q", "-m", "code")
		}, true, ""},
		{"untracked code", func(t *testing.T, dir string, env []string) {
			writeFile(t, dir, "src/c.go", []byte("package c\n"), 0o644)
		}, true, ""},
		{"staging only (ignored)", func(t *testing.T, dir string, env []string) {
			writeFile(t, dir, ".yoi/memory/_staging/0190.json", []byte("{}"), 0o644)
		}, true, ""},
		{"unstaged .yoi/ change", func(t *testing.T, dir string, env []string) {
			writeFile(t, dir, ".yoi/knowledge/a.md", []byte("edited\n"), 0o644)
		}, false, "uncommitted changes"},
		{"untracked .yoi/ file", func(t *testing.T, dir string, env []string) {
			writeFile(t, dir, ".yoi/knowledge/new.md", []byte("new\n"), 0o644)
		}, false, "uncommitted changes"},
		{"staged .yoi/ change", func(t *testing.T, dir string, env []string) {
			writeFile(t, dir, ".yoi/knowledge/a.md", []byte("edited\n"), 0o644)
			runGit(t, dir, env, "add", "-A")
		}, false, "uncommitted changes"},
		{".yoi/ diverged", func(t *testing.T, dir string, env []string) {
			writeFile(t, dir, ".yoi/knowledge/a.md", []byte("edited on main\n"), 0o644)
			runGit(t, dir, env, "commit", "-q", "-am", "edit memory by hand")
		}, false, "differs from"},
		{"detached HEAD", func(t *testing.T, dir string, env []string) {
			runGit(t, dir, env, "checkout", "-q", "--detach")
		}, false, "detached"},
		{"on the memory branch", func(t *testing.T, dir string, env []string) {
			runGit(t, dir, env, "checkout", "-q", "yoimem/memory")
		}, false, "is the memory branch"},
		{"merge in progress", func(t *testing.T, dir string, env []string) {
			head := runGit(t, dir, env, "rev-parse", "HEAD")
			writeFile(t, dir, ".git/MERGE_HEAD", []byte(head+"\n"), 0o644)
		}, false, "merge is in progress"},
		{"rebase in progress", func(t *testing.T, dir string, env []string) {
			mkdirAll(t, dir, ".git/rebase-merge")
		}, false, "rebase is in progress"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, env := newRepo(t)
			writeFile(t, dir, ".yoi/.gitignore", []byte("memory/_staging/\n"), 0o644)
			writeFile(t, dir, ".yoi/knowledge/a.md", []byte("a\n"), 0o644)
			writeFile(t, dir, "src/a.go", []byte("package a\n"), 0o644)
			runGit(t, dir, env, "add", "-A")
			runGit(t, dir, env, "commit", "-q", "-m", "start")
			runGit(t, dir, env, "checkout", "-q", "-b", "yoimem/memory")
			writeFile(t, dir, ".yoi/knowledge/a.md", []byte("a, consolidated\n"), 0o644)
			writeFile(t, dir, ".yoi/knowledge/b.md", []byte("b\n"), 0o644)
			runGit(t, dir, env, "add", "-A")
			runGit(t, dir, env, "commit", "-q", "-m", "yoimem: 1 updated, 1 added")
			tip := runGit(t, dir, env, "rev-parse", "HEAD")
			runGit(t, dir, env, "checkout", "-q", "main")
			if tc.setup != nil {
				tc.setup(t, dir, env)
			}
			r := Repo{TopLevel: dir, GitDir: filepath.Join(dir, ".git"), CommonDir: filepath.Join(dir, ".git"), Git: Git{Dir: dir, Env: env}}
			headBefore := runGit(t, dir, env, "rev-parse", "HEAD")
			statusBefore := runGit(t, dir, env, "status", "--porcelain", "--untracked-files=all")
			res, err := AutoMerge(context.Background(), r, AutoMergeRequest{Branch: "yoimem/memory", Prefix: ".yoi", Tip: tip, First: tip})
			if err != nil {
				t.Fatal(err)
			}
			if res.Merged != tc.merged || !strings.Contains(res.Reason, tc.reason) || (!tc.merged && tc.reason == "") {
				t.Fatalf("AutoMerge = %+v; want merged %v, reason with %q", res, tc.merged, tc.reason)
			}
			if !tc.merged {
				if h := runGit(t, dir, env, "rev-parse", "HEAD"); h != headBefore {
					t.Errorf("HEAD moved from %s to %s", headBefore, h)
				}
				if s := runGit(t, dir, env, "status", "--porcelain", "--untracked-files=all"); s != statusBefore {
					t.Errorf("status changed from\n%s\nto\n%s", statusBefore, s)
				}
				return
			}
			if got := runGit(t, dir, env, "rev-parse", "HEAD:.yoi"); got != runGit(t, dir, env, "rev-parse", tip+":.yoi") {
				t.Errorf("HEAD's .yoi/ is not the memory tip's")
			}
			if s := runGit(t, dir, env, "status", "--porcelain", "--", ".yoi/"); s != "" {
				t.Errorf(".yoi/ not clean after the merge:\n%s", s)
			}
			if b, _ := os.ReadFile(filepath.Join(dir, ".yoi/knowledge/b.md")); string(b) != "b\n" {
				t.Errorf("working tree not updated: b.md = %q", b)
			}
			if runGit(t, dir, env, "merge-base", "--is-ancestor", tip, "HEAD") != "" {
				t.Errorf("the memory tip is not in the current branch")
			}
			if s := runGit(t, dir, env, "symbolic-ref", "--short", "HEAD"); s != "main" {
				t.Errorf("HEAD is %s; want main", s)
			}
		})
	}
}

// TestAutoMergeRefusals: a memory branch that changes files outside
// .yoi/ is not merged; an interrupted run merges nothing and says so as
// an error (the command exits 130).
func TestAutoMergeRefusals(t *testing.T) {
	dir, env := newRepo(t)
	writeFile(t, dir, ".yoi/knowledge/a.md", []byte("a\n"), 0o644)
	runGit(t, dir, env, "add", "-A")
	runGit(t, dir, env, "commit", "-q", "-m", "start")
	runGit(t, dir, env, "checkout", "-q", "-b", "yoimem/memory")
	writeFile(t, dir, ".yoi/knowledge/a.md", []byte("a, consolidated\n"), 0o644)
	runGit(t, dir, env, "commit", "-q", "-am", "yoimem: 1 updated")
	first := runGit(t, dir, env, "rev-parse", "HEAD")
	writeFile(t, dir, "src/x.go", []byte("package x\n"), 0o644)
	runGit(t, dir, env, "add", "-A")
	runGit(t, dir, env, "commit", "-q", "-m", "not memory")
	tip := runGit(t, dir, env, "rev-parse", "HEAD")
	runGit(t, dir, env, "checkout", "-q", "main")
	r := Repo{TopLevel: dir, GitDir: filepath.Join(dir, ".git"), CommonDir: filepath.Join(dir, ".git"), Git: Git{Dir: dir, Env: env}}
	head := runGit(t, dir, env, "rev-parse", "HEAD")

	res, err := AutoMerge(context.Background(), r, AutoMergeRequest{Branch: "yoimem/memory", Prefix: ".yoi", Tip: tip, First: first})
	if err != nil || res.Merged || !strings.Contains(res.Reason, "changes files outside .yoi/ (src/x.go)") {
		t.Errorf("outside .yoi/: %+v, %v", res, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	res, err = AutoMerge(ctx, r, AutoMergeRequest{Branch: "yoimem/memory", Prefix: ".yoi", Tip: first, First: first})
	if !errors.Is(err, context.Canceled) || res.Merged {
		t.Errorf("interrupted: %+v, %v; want context.Canceled", res, err)
	}
	if h := runGit(t, dir, env, "rev-parse", "HEAD"); h != head {
		t.Errorf("HEAD moved")
	}
	if s := runGit(t, dir, env, "status", "--porcelain"); s != "" {
		t.Errorf("status:\n%s", s)
	}
}

// TestScopeOfMergeInterrupted: an interrupt is an interrupt, not an
// unborn HEAD (which git yoimem merge refuses with exit 1).
func TestScopeOfMergeInterrupted(t *testing.T) {
	dir, env := newRepo(t)
	r := Repo{TopLevel: dir, GitDir: filepath.Join(dir, ".git"), CommonDir: filepath.Join(dir, ".git"), Git: Git{Dir: dir, Env: env}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ScopeOfMerge(ctx, r, "HEAD", "main"); !errors.Is(err, context.Canceled) || errors.Is(err, ErrUnbornHead) {
		t.Errorf("ScopeOfMerge interrupted: %v; want context.Canceled", err)
	}
}

// TestCommitOfRefInterrupted: an interrupt is not a missing or broken ref.
func TestCommitOfRefInterrupted(t *testing.T) {
	dir, env := newRepo(t)
	r := Repo{TopLevel: dir, GitDir: filepath.Join(dir, ".git"), CommonDir: filepath.Join(dir, ".git"), Git: Git{Dir: dir, Env: env}}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := CommitOfRef(ctx, r, "refs/heads/main"); !errors.Is(err, context.Canceled) {
		t.Errorf("CommitOfRef interrupted: %v; want context.Canceled", err)
	}
}
