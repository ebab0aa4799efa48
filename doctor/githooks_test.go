package doctor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/githook"
)

func TestHookState(t *testing.T) {
	shim := githook.Shim("pre-commit")
	old := strings.Replace(shim, " v2 ", " v1 ", 1)
	for _, tc := range []struct {
		name    string
		content string // "" with link false: no file
		perm    os.FileMode
		link    bool
		want    string
	}{
		{"no file", "", 0, false, "absent"},
		{"the current shim", shim, 0o755, false, "current"},
		{"not executable", shim, 0o644, false, "outdated"},
		{"an older shim", old, 0o755, false, "outdated"},
		{"someone else's hook", "#!/bin/sh\nmake lint\n", 0o755, false, "foreign"},
		{"no shebang", githook.Marker + "\n", 0o755, false, "foreign"},
		{"a symlink to the shim", shim, 0o755, true, "foreign"},
		{"too large", "#!/bin/sh\n" + githook.Marker + strings.Repeat("#", maxHookBytes), 0o755, false, "foreign"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			p := filepath.Join(dir, "pre-commit")
			if tc.content != "" {
				target := p
				if tc.link {
					target = filepath.Join(dir, "real")
				}
				if err := os.WriteFile(target, []byte(tc.content), tc.perm); err != nil {
					t.Fatal(err)
				}
				if err := os.Chmod(target, tc.perm); err != nil {
					t.Fatal(err)
				}
				if tc.link {
					if err := os.Symlink(target, p); err != nil {
						t.Fatal(err)
					}
				}
			}
			got, err := hookState(p, "pre-commit")
			if err != nil || got != tc.want {
				t.Errorf("hookState = %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}
