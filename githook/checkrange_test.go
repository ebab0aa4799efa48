package githook

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/lint"
)

// TestCheckRange: the pre-push checks on a range of commits, as CI runs
// them: records changed by the range linted at its tip, memory commits'
// trailers checked (by name, by --as, or because they carry trailers),
// commits before the range left alone, a bad range an error.
func TestCheckRange(t *testing.T) {
	r := newRepo(t)
	base := r.git("rev-parse", "HEAD")
	// a bad record committed before the range: not the range's to judge
	r.write(".yoi/knowledge/old.md", "---\nkind: rule\n---\nSee #nowhere.\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "old bad record")
	old := r.git("rev-parse", "HEAD")
	r.git("checkout", "-q", "-b", "yoimem/memory")
	r.write(".yoi/knowledge/backoff.md", "---\nkind: rule\n---\nSee #elsewhere.\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "memory commit without trailers")
	r.git("checkout", "-q", "-b", "feature", old)
	r.write("src/other.go", "package main\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "code")
	r.git("tag", "v1")
	r.git("checkout", "-q", "-b", "trailers", old)
	r.write(".yoi/knowledge/backoff.md", goodRecord)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "yoimem: 1 added\n\nadd knowledge/backoff.md: x\n\nYoimem-Run: \n")
	r.git("update-ref", "refs/remotes/origin/yoimem/memory", "yoimem/memory")
	settings := func() (PushSettings, error) {
		return PushSettings{Branch: "yoimem/memory", Lint: lint.DefaultOptions()}, nil
	}
	for _, tc := range []struct {
		name     string
		rng, as  string
		trailers int
		errors   bool
		err      string
	}{
		{"code only", old + "..feature", "", 0, false, ""},
		{"a tag as the tip", "main..v1", "", 0, false, ""},
		{"three dots", "main...feature", "", 0, false, ""},
		{"everything to the tip", "feature", "", 0, true, ""}, // old.md is in the range now
		{"the memory branch by name", "main..yoimem/memory", "", 1, true, ""},
		{"a remote's memory branch", "main..origin/yoimem/memory", "", 1, true, ""},
		{"the memory branch by commit, judged as it with --as", old + ".." + "origin/yoimem/memory^{commit}", "refs/heads/yoimem/memory", 1, true, ""},
		{"the memory branch by commit, not said", old + ".." + "origin/yoimem/memory^{commit}", "", 0, true, ""},
		{"bad trailers anywhere", "main..trailers", "", 1, false, ""},
		{"the empty range", "feature..feature", "", 0, false, ""},
		{"a missing revision", "main..nope", "", 0, false, `"nope"`},
		{"a missing base", "nope..main", "", 0, false, `"nope"`},
		{"no tip", "", "", 0, false, "empty range"},
		{"an option", "--all", "", 0, false, "not a revision"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := CheckRange(context.Background(), RangeOptions{Repo: r.r, Prefix: ".yoi", Range: tc.rng, As: tc.as, Configure: settings})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v; want one with %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Trailers) != tc.trailers {
				t.Errorf("trailer failures %q; want %d", res.Trailers, tc.trailers)
			}
			if res.Report.HasErrors() != tc.errors {
				t.Errorf("findings %+v; want errors %v", res.Report.Findings, tc.errors)
			}
		})
	}
	_ = base
}

// TestCheckRangeConfig: a bad configuration fails the check only when the
// range has memory to judge.
func TestCheckRangeConfig(t *testing.T) {
	r := newRepo(t)
	base := r.git("rev-parse", "HEAD")
	r.write("src/other.go", "package main\n")
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "code")
	bad := errors.New("bad config")
	conf := func() (PushSettings, error) { return PushSettings{}, bad }
	if _, err := CheckRange(context.Background(), RangeOptions{Repo: r.r, Prefix: ".yoi", Range: base + "..HEAD", Configure: conf}); err != nil {
		t.Errorf("code only, bad configuration: %v", err)
	}
	r.write(".yoi/knowledge/backoff.md", goodRecord)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "a record")
	if _, err := CheckRange(context.Background(), RangeOptions{Repo: r.r, Prefix: ".yoi", Range: base + "..HEAD", Configure: conf}); !errors.Is(err, bad) {
		t.Errorf("a record, bad configuration: %v; want %v", err, bad)
	}
}
