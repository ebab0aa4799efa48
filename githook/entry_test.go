package githook

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/lint"
)

// TestPrePush: the entry point reads git's ref lines (or the pre-commit
// framework's variables), reads the configuration only for a push that
// pushes something, and returns its error only when the push has memory
// to judge.
func TestPrePush(t *testing.T) {
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
	memLine := "refs/heads/yoimem/memory " + memTip + " refs/heads/yoimem/memory " + ZeroSHA + "\n"
	codeLine := "refs/heads/main " + codeTip + " refs/heads/main " + base + "\n"
	bad := errors.New("bad config")
	for _, tc := range []struct {
		name     string
		stdin    string
		env      map[string]string
		cfgErr   error
		calls    int
		trailers int
		errors   bool
		err      error
	}{
		{"nothing pushed", "", nil, nil, 0, 0, false, nil},
		{"a delete", "(delete) " + ZeroSHA + " refs/heads/x " + base + "\n", nil, bad, 0, 0, false, nil},
		{"memory branch", memLine, nil, nil, 1, 1, true, nil},
		{"memory branch, bad configuration", memLine, nil, bad, 1, 0, false, bad},
		{"code, bad configuration", codeLine, nil, bad, 1, 0, false, nil},
		{"pre-commit framework", "", map[string]string{"PRE_COMMIT_TO_REF": memTip, "PRE_COMMIT_REMOTE_BRANCH": "refs/heads/yoimem/memory"}, nil, 1, 1, true, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			calls := 0
			o := PushOptions{Repo: r.r, Prefix: ".yoi", Getenv: func(k string) string { return tc.env[k] },
				Configure: func() (PushSettings, error) {
					calls++
					return PushSettings{Branch: "yoimem/memory", Lint: lint.DefaultOptions()}, tc.cfgErr
				}}
			res, err := PrePush(context.Background(), o, strings.NewReader(tc.stdin))
			if !errors.Is(err, tc.err) {
				t.Fatalf("error %v; want %v", err, tc.err)
			}
			if calls != tc.calls {
				t.Errorf("configuration read %d times; want %d", calls, tc.calls)
			}
			if len(res.Trailers) != tc.trailers || res.Report.HasErrors() != tc.errors || res.Refused() != (tc.trailers > 0 || tc.errors) {
				t.Errorf("result %+v; want %d trailer failures, errors %v", res, tc.trailers, tc.errors)
			}
			for _, f := range res.Report.Findings {
				if got := res.Path(f); !strings.HasPrefix(got, ".yoi/knowledge/") {
					t.Errorf("finding path %s; want it from the top level", got)
				}
			}
		})
	}
	if _, err := PrePush(context.Background(), PushOptions{Repo: r.r, Prefix: ".yoi"}, strings.NewReader("refs/heads/main abc\n")); err == nil || !strings.Contains(err.Error(), "unexpected line") {
		t.Errorf("a malformed ref line: %v", err)
	}
}

func TestPreCommit(t *testing.T) {
	r := newRepo(t)
	r.write(".yoi/memory/_staging/0190.json", "{}")
	r.git("add", "-f", "--", ".yoi/memory/_staging/0190.json")
	res, err := PreCommit(context.Background(), Commit{Repo: r.r, Prefix: ".yoi", Index: filepath.Join(r.dir, ".git", "index"),
		Lint: func() (lint.Options, error) { return lint.DefaultOptions(), nil }})
	if err != nil || !res.Refused() || !reflect.DeepEqual(res.Staging, []string{".yoi/memory/_staging/0190.json"}) || res.Prefix != ".yoi" {
		t.Errorf("PreCommit = %+v, %v; want the staging file refused", res, err)
	}
}

func TestAbsIndexFile(t *testing.T) {
	dir := filepath.FromSlash("/work/repo")
	for _, tc := range []struct{ in, want []string }{
		{[]string{"HOME=/h", "GIT_INDEX_FILE=.git/next-index-1.lock"}, []string{"HOME=/h", "GIT_INDEX_FILE=" + filepath.Join(dir, ".git/next-index-1.lock")}},
		{[]string{"GIT_INDEX_FILE=/abs/index"}, []string{"GIT_INDEX_FILE=/abs/index"}},
		{[]string{"GIT_INDEX_FILE="}, []string{"GIT_INDEX_FILE="}},
		{[]string{"XGIT_INDEX_FILE=rel"}, []string{"XGIT_INDEX_FILE=rel"}},
		{nil, nil},
	} {
		in := append([]string(nil), tc.in...)
		if got := AbsIndexFile(in, dir); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("AbsIndexFile(%q) = %q; want %q", tc.in, got, tc.want)
		}
		if !reflect.DeepEqual(in, tc.in) {
			t.Errorf("AbsIndexFile changed its input %q to %q", tc.in, in)
		}
	}
}
