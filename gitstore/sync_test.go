package gitstore

import (
	"bytes"
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
)

// testMerge merges as the record merge would for these tests: two sides
// whose text says CONFLICT conflict, else the remote's text then ours.
// It notes whether it saw a base.
func testMerge(sawBase *[]bool) MergeFunc {
	return func(path string, base, ours, theirs []byte) ([]byte, bool, error) {
		*sawBase = append(*sawBase, base != nil)
		if bytes.Contains(ours, []byte("CONFLICT")) && bytes.Contains(theirs, []byte("CONFLICT")) {
			return nil, true, nil
		}
		return append(append([]byte{}, ours...), theirs...), false, nil
	}
}

// syncCase builds the local tip ("" for none) and the remote's from the
// shared commit s (on main, which is base).
type syncCase struct {
	name  string
	build func(t *testing.T, dir string, env []string, base, s string) (ours, theirs string)
	check func(ctx context.Context, tip string, changed, deleted []string) ([]Conflict, error)
	want  Integration
	// moved: the branch ends elsewhere than where it was; files are
	// what the branch then holds ("" : absent).
	moved          bool
	files          map[string]string
	merged, kept   []string
	replayed       int
	conflict       string // in a Conflict's reason
	mergeSawNoBase bool
}

func TestIntegrateOutcomes(t *testing.T) {
	const a, b, c, n = ".yoi/knowledge/a.md", ".yoi/knowledge/b.md", ".yoi/knowledge/c.md", ".yoi/knowledge/n.md"
	on := func(t *testing.T, dir string, env []string, parent string, kv ...string) string {
		return treeCommit(t, dir, env, "yoimem: test", []string{parent}, kv...)
	}
	tests := []syncCase{
		{name: "no remote branch", want: NoRemoteBranch,
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) { return s, "" }},
		{name: "up to date", want: UpToDate,
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) { return s, s }},
		{name: "ahead", want: Ahead,
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				return on(t, dir, env, s, b, "b\n"), s
			}},
		{name: "remote rewound by a force-push: ours is ahead, nothing dropped", want: Ahead,
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				return on(t, dir, env, on(t, dir, env, s, b, "b\n"), c, "c\n"), base
			}},
		{name: "created", want: Created, moved: true, files: map[string]string{a: "a1\n"},
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) { return "", s }},
		{name: "fast-forward", want: FastForward, moved: true, files: map[string]string{a: "a1\n", c: "c\n"},
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				return s, on(t, dir, env, s, c, "c\n")
			}},
		{name: "diverged on different records", want: Replayed, moved: true, replayed: 1,
			files: map[string]string{a: "a1\n", b: "b\n", c: "c\n"},
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				return on(t, dir, env, s, b, "b\n"), on(t, dir, env, s, c, "c\n")
			}},
		{name: "theirs deleted a record we changed: ours comes back", want: Replayed, moved: true, replayed: 1,
			files: map[string]string{a: "a2\n", c: "c\n"}, kept: []string{a},
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				return on(t, dir, env, s, a, "a2\n"), on(t, dir, env, s, a, "", c, "c\n")
			}},
		{name: "we deleted a record they changed: theirs stays", want: Replayed, moved: true, replayed: 1,
			files: map[string]string{a: "a3\n", b: "b\n"}, kept: []string{a},
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				return on(t, dir, env, s, a, "", b, "b\n"), on(t, dir, env, s, a, "a3\n")
			}},
		{name: "both added the same path: merged with no base", want: Replayed, moved: true, replayed: 1,
			files: map[string]string{n: "theirs\nours\n"}, merged: []string{n}, mergeSawNoBase: true,
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				return on(t, dir, env, s, n, "ours\n"), on(t, dir, env, s, n, "theirs\n")
			}},
		{name: "both changed a record: merged", want: Replayed, moved: true, replayed: 1,
			files: map[string]string{a: "a3\na2\n"}, merged: []string{a},
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				return on(t, dir, env, s, a, "a2\n"), on(t, dir, env, s, a, "a3\n")
			}},
		{name: "both added the same path differently: a conflict that says so", want: Conflicted, conflict: "added on both sides with different text", mergeSawNoBase: true,
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				return on(t, dir, env, s, n, "CONFLICT ours\n"), on(t, dir, env, s, n, "CONFLICT theirs\n")
			}},
		{name: "both changed the same lines: conflict, nothing moves", want: Conflicted, conflict: "same lines",
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				return on(t, dir, env, s, a, "CONFLICT ours\n"), on(t, dir, env, s, a, "CONFLICT theirs\n")
			}},
		{name: "the second of our commits conflicts: nothing moves, nothing reported replayed", want: Conflicted, conflict: "same lines",
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				first := on(t, dir, env, s, b, "b\n")
				return on(t, dir, env, first, a, "CONFLICT ours\n"), on(t, dir, env, s, a, "CONFLICT theirs\n")
			}},
		{name: "a symbolic link changed on our side: conflict", want: Conflicted, conflict: "not a regular file",
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				return on(t, dir, env, s, ".yoi/knowledge/l.md", "symlink:a.md"), on(t, dir, env, s, c, "c\n")
			}},
		{name: "a file outside .yoi/ changed by us: replayed", want: Replayed, moved: true, replayed: 1,
			files: map[string]string{"src/main.go": "package main // ours\n", c: "c\n"},
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				return on(t, dir, env, s, "src/main.go", "package main // ours\n"), on(t, dir, env, s, c, "c\n")
			}},
		{name: "our branch holds a merge commit: both its sides replayed", want: Replayed, moved: true, replayed: 2,
			files: map[string]string{b: "b\n", n: "n\n", c: "c\n"},
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				left, right := on(t, dir, env, s, b, "b\n"), on(t, dir, env, s, n, "n\n")
				merge := treeCommit(t, dir, env, "merge", []string{left, right}, n, "n\n")
				return merge, on(t, dir, env, s, c, "c\n")
			}},
		{name: "remote history rewritten: our pushed and unpushed commits replayed", want: Replayed, moved: true, replayed: 2,
			files: map[string]string{a: "a1\n", b: "b\n", c: "c\n"},
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				return on(t, dir, env, s, b, "b\n"), on(t, dir, env, base, c, "c\n")
			}},
		{name: "the check finds a problem: nothing moves", want: Conflicted, conflict: "lint says no",
			check: func(ctx context.Context, tip string, changed, deleted []string) ([]Conflict, error) {
				if !slices.Equal(changed, []string{b}) || len(deleted) != 0 {
					return nil, errors.New("check got changed " + strings.Join(changed, ",") + " deleted " + strings.Join(deleted, ","))
				}
				return []Conflict{{Path: b, Reason: "lint says no"}}, nil
			},
			build: func(t *testing.T, dir string, env []string, base, s string) (string, string) {
				return on(t, dir, env, s, b, "b\n"), on(t, dir, env, s, c, "c\n")
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, dir, env := memRepo(t)
			ctx := context.Background()
			base := runGit(t, dir, env, "rev-parse", "main")
			s := on(t, dir, env, base, a, "a1\n")
			ours, theirs := tt.build(t, dir, env, base, s)
			if ours != "" {
				runGit(t, dir, env, "update-ref", m.Ref(), ours)
			}
			var sawBase []bool
			res, err := m.Integrate(ctx, IntegrateRequest{Theirs: theirs, From: "origin/yoimem/memory",
				Merge: testMerge(&sawBase), Check: tt.check, Who: Signature{Name: "t", Email: "t@x", When: when}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != tt.want {
				t.Fatalf("outcome %s, want %s (%+v)", res.Outcome, tt.want, res)
			}
			now, _ := m.Objects.RefHash(m.Ref())
			if res.Before != ours || res.After != now {
				t.Fatalf("before %s after %s, want %s and the ref %s", res.Before, res.After, ours, now)
			}
			if moved := now != ours; moved != tt.moved {
				t.Fatalf("branch moved %v, want %v", moved, tt.moved)
			}
			if tt.moved && tt.want != Created && tt.want != FastForward {
				if in, err := isAncestorIn(ctx, m.Repo, m.Objects, theirs, now); err != nil || !in {
					t.Fatalf("the remote's tip is not in the new tip (%v)", err)
				}
			}
			for p, want := range tt.files {
				if got := showAt(t, dir, env, now, p); got != strings.TrimSuffix(want, "\n") {
					t.Errorf("%s = %q, want %q", p, got, want)
				}
			}
			if len(res.Replayed) != tt.replayed {
				t.Errorf("replayed %d, want %d", len(res.Replayed), tt.replayed)
			}
			if !slices.Equal(res.Merged, tt.merged) || !slices.Equal(res.Kept, tt.kept) {
				t.Errorf("merged %v kept %v, want %v and %v", res.Merged, res.Kept, tt.merged, tt.kept)
			}
			if tt.mergeSawNoBase != slices.Contains(sawBase, false) {
				t.Errorf("merge saw bases %v", sawBase)
			}
			if tt.conflict != "" && (len(res.Conflicts) == 0 || !strings.Contains(res.Conflicts[0].Reason, tt.conflict)) {
				t.Errorf("conflicts %+v, want one saying %q", res.Conflicts, tt.conflict)
			}
			if tt.conflict == "" && len(res.Conflicts) > 0 {
				t.Errorf("unexpected conflicts %+v", res.Conflicts)
			}
		})
	}
}
