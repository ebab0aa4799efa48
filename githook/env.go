package githook

import (
	"path/filepath"
	"strings"
)

// AbsIndexFile returns vars (a process environment) with a relative
// GIT_INDEX_FILE made absolute against dir: git passes it to a hook
// relative to the worktree's top level (git commit -a, git commit PATH),
// and every git command the hook runs, wherever it runs, must read that
// same index. vars is not modified.
func AbsIndexFile(vars []string, dir string) []string {
	out := vars
	for i, kv := range vars {
		if v, ok := strings.CutPrefix(kv, "GIT_INDEX_FILE="); ok && v != "" && !filepath.IsAbs(v) {
			if &out[0] == &vars[0] {
				out = append([]string(nil), vars...)
			}
			out[i] = "GIT_INDEX_FILE=" + filepath.Join(dir, v)
		}
	}
	return out
}
