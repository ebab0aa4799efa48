package gitstore

import (
	"context"
	"maps"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestTreeDiffIsDiffTree: the in-process tree diff the replay uses finds
// what git diff-tree -r finds, for every pair of a set of trees: files
// added, changed, deleted, nested, a directory become a file and back, a
// symbolic link, a mode changed alone, the empty tree.
func TestTreeDiffIsDiffTree(t *testing.T) {
	m, dir, env := memRepo(t)
	base := runGit(t, dir, env, "rev-parse", "main")
	c1 := treeCommit(t, dir, env, "c1", []string{base}, ".yoi/knowledge/a.md", "a\n", ".yoi/memory/decisions/d.md", "d\n")
	c2 := treeCommit(t, dir, env, "c2", []string{c1}, ".yoi/knowledge/a.md", "a2\n", ".yoi/memory/decisions/d.md", "", "src/deep/er/x.go", "x\n")
	c3 := treeCommit(t, dir, env, "c3", []string{c2}, "src/deep/er/x.go", "", "src/deep/er", "now a file\n", ".yoi/knowledge/l.md", "symlink:a.md")
	c4 := treeCommit(t, dir, env, "c4", []string{c3}, "src/deep/er", "", "src/deep/er/y.go", "y\n", "docs/a.md", "")
	// the same blob, now a link: only the mode changed
	c5 := treeCommit(t, dir, env, "c5", []string{c4}, ".yoi/knowledge/a.md", "symlink:a2\n")
	empty := treeCommit(t, dir, env, "empty", nil)
	commits := []string{base, c1, c2, c3, c4, c5, empty}
	for _, from := range commits {
		for _, to := range commits {
			want, err := m.changedPaths(context.Background(), from, to)
			if err != nil {
				t.Fatal(err)
			}
			ft, err := m.Objects.commitTree(plumbing.NewHash(from))
			if err != nil {
				t.Fatal(err)
			}
			tt, err := m.Objects.commitTree(plumbing.NewHash(to))
			if err != nil {
				t.Fatal(err)
			}
			got, err := m.Objects.treeDiff(ft, tt)
			if err != nil {
				t.Fatal(err)
			}
			if !maps.Equal(got, want) {
				t.Errorf("%s..%s: treeDiff %v, diff-tree %v", from[:7], to[:7], got, want)
			}
		}
	}
}
