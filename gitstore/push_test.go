package gitstore

import (
	"context"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// pushRepo builds a random history: commits on a few branches, merges,
// files in and out of .yoi/, odd names and messages. It returns the
// commits made, and the one every branch starts from (on "the remote").
func pushRepo(t *testing.T, seed int64) (dir string, env []string, commits []string, have string) {
	t.Helper()
	dir, env = newRepo(t)
	have = runGit(t, dir, env, "rev-parse", "HEAD")
	rng := rand.New(rand.NewSource(seed))
	branches := []string{"main"}
	files := []string{".yoi/knowledge/a.md", ".yoi/knowledge/b.md", ".yoi/memory/summary.md", "src/x.go", "\x01odd", ".yoi/knowledge/\x01odd.md", "README"}
	for i := 0; i < 40; i++ {
		switch r := rng.Intn(10); {
		case r == 0 && len(branches) < 4:
			name := fmt.Sprintf("b%d", i)
			runGit(t, dir, env, "checkout", "-q", "-b", name)
			branches = append(branches, name)
			continue
		case r == 1 && len(branches) > 1:
			other := branches[rng.Intn(len(branches))]
			if _, err := runGitErr(dir, env, "merge", "-q", "--no-edit", "--no-ff", other); err != nil {
				runGit(t, dir, env, "merge", "--abort")
			}
		case r == 2:
			runGit(t, dir, env, "checkout", "-q", branches[rng.Intn(len(branches))])
			continue
		default:
			n := 1 + rng.Intn(3)
			for k := 0; k < n; k++ {
				writeFile(t, dir, files[rng.Intn(len(files))], []byte(fmt.Sprintf("v%d-%d\n", i, k)), 0o644)
			}
			runGit(t, dir, env, "add", "-A")
			msg := fmt.Sprintf("commit %d\n\nbody with \x01 in it", i)
			if rng.Intn(4) == 0 {
				msg += "\n\nYoimem-Run: 0193a1b2-7c00-7d11-8e22-33445566aabb"
			}
			runGit(t, dir, env, "commit", "-q", "--allow-empty", "-m", msg)
		}
		commits = append(commits, runGit(t, dir, env, "rev-parse", "HEAD"))
	}
	return dir, env, commits, have
}

// TestPushLogLikeGit: for every commit of random histories, the paths the
// push log says the new commits it reaches change are git's own answer,
// and the commits it lists are those git lists.
func TestPushLogLikeGit(t *testing.T) {
	for seed := int64(1); seed <= 4; seed++ {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			dir, env, commits, have := pushRepo(t, seed)
			r := Repo{TopLevel: dir, Git: Git{Dir: dir, Env: env}}
			tips := slices.Compact(slices.Sorted(slices.Values(commits)))
			l, err := ReadPushLog(context.Background(), r, objectsOf(t, dir, env), PushQuery{Tips: tips, Have: []string{have, strings.Repeat("f", 40)}, Prefix: ".yoi"})
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Fields(runGit(t, dir, env, append(append([]string{"rev-list"}, tips...), "^"+have)...))
			if len(l.Commits) != len(all) {
				t.Fatalf("%d commits, git lists %d", len(l.Commits), len(all))
			}
			touched := l.Touched()
			for _, tip := range tips {
				i, ok := l.Index(plumbing.NewHash(tip))
				if !ok {
					t.Fatalf("tip %s is not among the new commits", tip)
				}
				out := runGit(t, dir, env, "-c", "core.quotePath=false", "log", "-z", "--no-renames", "--format=", "--name-only", tip, "^"+have, "--", ".yoi/")
				var want []string
				for _, p := range strings.Split(out, "\x00") {
					if p = strings.TrimSpace(p); p != "" {
						want = append(want, strings.TrimPrefix(p, ".yoi/"))
					}
				}
				want = slices.Compact(slices.Sorted(slices.Values(want)))
				if got := touched[i].Sorted(); !slices.Equal(got, want) {
					t.Errorf("tip %.12s: touched %q, git says %q", tip, got, want)
				}
			}
			for _, c := range l.Commits {
				msg := runGit(t, dir, env, "log", "-1", "--format=%B", c.Hash.String())
				if c.Trailers != strings.Contains(msg, "Yoimem-Run:") {
					t.Errorf("%s: trailers %v for %q", c.Hash, c.Trailers, msg)
				}
				if c.Trailers && c.TrailerErr == nil {
					t.Errorf("%s: a bare Yoimem-Run trailer should not check out: %v", c.Hash, c.TrailerErr)
				}
			}
		})
	}
}

// TestPushLogReach: Reach marks each commit with the first start that
// reaches it.
func TestPushLogReach(t *testing.T) {
	dir, env := newRepo(t)
	base := runGit(t, dir, env, "rev-parse", "HEAD")
	runGit(t, dir, env, "commit", "-q", "--allow-empty", "-m", "a")
	a := runGit(t, dir, env, "rev-parse", "HEAD")
	runGit(t, dir, env, "commit", "-q", "--allow-empty", "-m", "b")
	b := runGit(t, dir, env, "rev-parse", "HEAD")
	r := Repo{TopLevel: dir, Git: Git{Dir: dir, Env: env}}
	l, err := ReadPushLog(context.Background(), r, objectsOf(t, dir, env), PushQuery{Tips: []string{a, b}, Have: []string{base}, Prefix: ".yoi"})
	if err != nil {
		t.Fatal(err)
	}
	ia, _ := l.Index(plumbing.NewHash(a))
	ib, _ := l.Index(plumbing.NewHash(b))
	mark := l.Reach([]int{ia, ib, -1})
	if mark[ia] != 0 || mark[ib] != 1 {
		t.Errorf("marks %v", mark)
	}
	mark = l.Reach([]int{ib, ia})
	if mark[ia] != 0 || mark[ib] != 0 {
		t.Errorf("marks %v", mark)
	}
}
