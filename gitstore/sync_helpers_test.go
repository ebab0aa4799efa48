package gitstore

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// treeCommit writes a commit whose tree is the first parent's (none: the
// empty tree) with the files of kv changed: "path", "content" pairs, ""
// deleting the path, "symlink:target" making it a symbolic link. It goes
// through a private index, so the work tree and HEAD stay as they are.
func treeCommit(t testing.TB, dir string, env []string, message string, parents []string, kv ...string) string {
	t.Helper()
	scratch := t.TempDir()
	ienv := append(env[:len(env):len(env)], "GIT_INDEX_FILE="+filepath.Join(scratch, "index"))
	if len(parents) > 0 {
		runGit(t, dir, ienv, "read-tree", parents[0])
	} else {
		runGit(t, dir, ienv, "read-tree", "--empty")
	}
	for i := 0; i+1 < len(kv); i += 2 {
		path, content := kv[i], kv[i+1]
		if content == "" {
			runGit(t, dir, ienv, "update-index", "--force-remove", "--", path)
			continue
		}
		mode := "100644"
		if target, ok := strings.CutPrefix(content, "symlink:"); ok {
			mode, content = "120000", target
		}
		f := filepath.Join(scratch, "blob")
		if err := os.WriteFile(f, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		blob := runGit(t, dir, ienv, "hash-object", "-w", "--", f)
		runGit(t, dir, ienv, "update-index", "--add", "--cacheinfo", mode+","+blob+","+path)
	}
	tree := runGit(t, dir, ienv, "write-tree")
	args := []string{"commit-tree", tree, "-m", message}
	for _, p := range parents {
		args = append(args, "-p", p)
	}
	return runGit(t, dir, env, args...)
}

// showAt is the content of path at rev ("" when it has none).
func showAt(t testing.TB, dir string, env []string, rev, path string) string {
	t.Helper()
	out := runGit(t, dir, env, "ls-tree", rev, "--", path)
	if out == "" {
		return ""
	}
	return runGit(t, dir, env, "cat-file", "-p", rev+":"+path)
}
