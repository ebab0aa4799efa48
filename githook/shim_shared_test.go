package githook

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/yoimem/git-yoimem/internal/sharedperm"
)

// TestInstallShared: in a repository shared with its group
// (core.sharedRepository), the shims in its git directory get git's
// bits for hooks there (the group may run them: git skips a hook it
// cannot execute), and a hooks directory made for them is the group's.
func TestInstallShared(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "git", "hooks")
	results, err := Install(dir, Options{Shared: sharedperm.Fixed(sharedperm.Group)})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range results {
		fi, err := os.Stat(r.Path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&0o070 != 0o070 {
			t.Errorf("%s is %v: the group cannot run it", r.Path, fi.Mode())
		}
	}
	fi, err := os.Stat(dir)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode()&0o070 != 0o070 || runtime.GOOS == "linux" && fi.Mode()&fs.ModeSetgid == 0 {
		t.Errorf("%s is %v, not the group's", dir, fi.Mode())
	}
}
