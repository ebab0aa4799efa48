package githook

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/fixture"
	"github.com/yoimem/git-yoimem/lint"
)

const goodRecord = "---\nkind: rule\ndescription: retries\nmodel_invokation: false\nuser_invocable: true\nlast_sources: []\ncreated_at: 2026-01-02T03:04:05Z\nupdated_at: 2026-01-02T03:04:05Z\n---\nRetry three times.\n"

// repo is a committed repository with .yoi/ and a way to run git in it.
type repo struct {
	t   *testing.T
	dir string
	env []string
	r   gitstore.Repo
}

func newRepo(t *testing.T) *repo {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir, home := filepath.Join(t.TempDir(), "repo"), t.TempDir()
	archive := "-- .yoi/knowledge/retry-policy.md --\n" + goodRecord + "-- src/main.go --\npackage main\n"
	if err := fixture.Repo([]byte(archive), dir, home); err != nil {
		t.Fatal(err)
	}
	env := fixture.Env(home)
	r, err := gitstore.Locate(context.Background(), gitstore.Git{Dir: dir, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	return &repo{t: t, dir: dir, env: env, r: r}
}

func (r *repo) git(args ...string) string {
	r.t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = r.dir, r.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		r.t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return strings.TrimSpace(string(out))
}

func (r *repo) write(rel, content string) {
	r.t.Helper()
	p := filepath.Join(r.dir, filepath.FromSlash(rel))
	os.MkdirAll(filepath.Dir(p), 0o755)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func TestCommitCheck(t *testing.T) {
	for _, tc := range []struct {
		name    string
		stage   map[string]string // path -> content ("" removes it)
		lintErr error
		calls   int // times the configuration is read
		staging []string
		errors  int
		err     error
	}{
		{"nothing under .yoi/", map[string]string{"src/main.go": "package main // changed\n"}, nil, 0, nil, 0, nil},
		{"nothing under .yoi/, bad configuration", map[string]string{"src/main.go": "package main // changed\n"}, errors.New("bad config"), 0, nil, 0, nil},
		{"a good record", map[string]string{".yoi/knowledge/backoff.md": goodRecord}, nil, 1, nil, 0, nil},
		{"a bad record", map[string]string{".yoi/knowledge/backoff.md": "---\nkind: rule\n---\nSee #nowhere.\n"}, nil, 1, nil, 2, nil},
		{"a record, bad configuration", map[string]string{".yoi/knowledge/backoff.md": goodRecord}, errors.New("bad config"), 1, nil, 0, errors.New("bad config")},
		{"a removed record", map[string]string{".yoi/knowledge/retry-policy.md": ""}, nil, 1, nil, 0, nil},
		{"a staging file", map[string]string{".yoi/memory/_staging/0190.json": "{}", ".yoi/knowledge/backoff.md": goodRecord}, nil, 0, []string{".yoi/memory/_staging/0190.json"}, 0, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			for p, content := range tc.stage {
				if content == "" {
					r.git("rm", "-q", "--", p)
					continue
				}
				r.write(p, content)
				r.git("add", "-f", "--", p)
			}
			calls := 0
			c := &Commit{Repo: r.r, Prefix: ".yoi", Index: filepath.Join(r.dir, ".git", "index"), Lint: func() (lint.Options, error) {
				calls++
				return lint.DefaultOptions(), tc.lintErr
			}}
			res, err := c.Check(context.Background())
			if tc.err != nil {
				if err == nil || err.Error() != tc.err.Error() {
					t.Errorf("error %v; want %v", err, tc.err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			if calls != tc.calls {
				t.Errorf("configuration read %d times; want %d", calls, tc.calls)
			}
			if strings.Join(res.Staging, ",") != strings.Join(tc.staging, ",") {
				t.Errorf("staging files %v; want %v", res.Staging, tc.staging)
			}
			if n := res.Report.Count(lint.Error); n < tc.errors || tc.errors == 0 && n > 0 {
				t.Errorf("%d errors; want %d: %+v", n, tc.errors, res.Report.Findings)
			}
		})
	}
}

func TestReadPushedRefs(t *testing.T) {
	refs, err := ReadPushedRefs(strings.NewReader("refs/heads/main 1111111111111111111111111111111111111111 refs/heads/main " + ZeroSHA + "\n\nrefs/heads/old " + ZeroSHA + " refs/heads/old 2222222222222222222222222222222222222222\n"))
	if err != nil || len(refs) != 2 || refs[0].LocalRef != "refs/heads/main" || refs[1].RemoteSHA != "2222222222222222222222222222222222222222" {
		t.Fatalf("refs %+v, %v", refs, err)
	}
	if p := Pushed(refs); len(p) != 1 || p[0].LocalRef != "refs/heads/main" {
		t.Errorf("Pushed %+v; want the delete left out", p)
	}
	if _, err := ReadPushedRefs(strings.NewReader("refs/heads/main abc\n")); err == nil || !strings.Contains(err.Error(), "unexpected line") {
		t.Errorf("a short line: %v", err)
	}
}

// TestPush: a push of the memory branch with a record the linter refuses
// and a memory commit with bad trailers is judged; a push of code alone is
// not.
func TestPush(t *testing.T) {
	r := newRepo(t)
	base := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "-b", "yoimem/memory")
	r.write(".yoi/knowledge/backoff.md", "---\nkind: rule\n---\nSee #nowhere.\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "yoimem: 1 added\n\nadd knowledge/backoff.md: x\n\nYoimem-Run: r1\n")
	memTip := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "main")
	r.write("src/other.go", "package main\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "code")
	codeTip := r.git("rev-parse", "HEAD")
	objs, err := gitstore.OpenObjects(r.r)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name     string
		ref      PushedRef
		judges   bool
		failures int
		errors   bool
	}{
		{"memory branch", PushedRef{"refs/heads/yoimem/memory", memTip, "refs/heads/yoimem/memory", ZeroSHA}, true, 1, true},
		{"code", PushedRef{"refs/heads/main", codeTip, "refs/heads/main", base}, false, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := &Push{Repo: r.r, Objects: objs, Prefix: ".yoi", Refs: []PushedRef{tc.ref}, Branch: "yoimem/memory"}
			if err := p.Read(context.Background(), "origin"); err != nil {
				t.Fatal(err)
			}
			if p.JudgesMemory() != tc.judges {
				t.Errorf("JudgesMemory = %v; want %v", !tc.judges, tc.judges)
			}
			if f := p.TrailerFailures(); len(f) != tc.failures {
				t.Errorf("trailer failures %q; want %d", f, tc.failures)
			}
			rep, err := p.Lint(lint.DefaultOptions())
			if err != nil || rep.HasErrors() != tc.errors {
				t.Errorf("lint %+v, %v; want errors %v", rep.Findings, err, tc.errors)
			}
		})
	}
}
