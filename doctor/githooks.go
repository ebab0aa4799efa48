package doctor

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/yoimem/git-yoimem/githook"
	"github.com/yoimem/git-yoimem/gitstore"
)

// maxHookBytes bounds a hook read; a shim is a few hundred bytes.
const maxHookBytes = 64 << 10

func checkGitHooks(ctx context.Context, in Input, r *Report) error {
	top := in.W.Repo.TopLevel
	dir, err := gitstore.HooksDir(ctx, in.W.Repo)
	if err != nil {
		return fmt.Errorf("find the hooks directory: %w", err)
	}
	r.GitHooks.Dir = show(top, dir)
	if m, ok := githook.DetectManager(top, dir); ok {
		r.GitHooks.ManagedBy = m.Name
		r.GitHooks.Hooks = []HookFile{}
		r.ok("git hooks", fmt.Sprintf("%s manages the hooks (%s): its configuration must run 'git yoimem hook pre-commit' and 'pre-push'", m.Name, m.Evidence))
		return nil
	}
	var bad []string
	fix := "git yoimem install"
	for _, name := range githook.Names() {
		st, err := hookState(filepath.Join(dir, name), name)
		if err != nil {
			return err
		}
		r.GitHooks.Hooks = append(r.GitHooks.Hooks, HookFile{Name: name, State: st})
		if st != "current" {
			bad = append(bad, name+" "+st)
			if st == "foreign" {
				fix = "git yoimem install --chain (keeps the other hook and runs it first)"
			}
		}
	}
	if len(bad) > 0 {
		r.problem("git hooks", fmt.Sprintf("%s in %s", strings.Join(bad, ", "), r.GitHooks.Dir), fix)
		return nil
	}
	r.ok("git hooks", "pre-commit and pre-push installed and current in "+r.GitHooks.Dir)
	return nil
}

// hookState: absent, current (the shim this git-yoimem writes, executable),
// outdated (an older or edited shim, or not executable) or foreign.
func hookState(path, name string) (string, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "absent", nil
	}
	if err != nil {
		return "", fmt.Errorf("inspect hook %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxHookBytes {
		return "foreign", nil
	}
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("inspect hook %s: %w", path, err)
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxHookBytes))
	if err != nil {
		return "", fmt.Errorf("inspect hook %s: %w", path, err)
	}
	_, rest, _ := bytes.Cut(b, []byte("\n"))
	switch {
	case !bytes.HasPrefix(b, []byte("#!")) || !bytes.HasPrefix(rest, []byte(githook.Marker)):
		return "foreign", nil
	case string(b) != githook.Shim(name) || fi.Mode().Perm()&0o100 == 0:
		return "outdated", nil
	}
	return "current", nil
}
