package catcache

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/yoimem/git-yoimem/internal/sharedperm"
)

// TestCacheShared: in a repository shared with its group
// (core.sharedRepository), the cache file and its directory are the
// group's, so that every member's searches read it.
func TestCacheShared(t *testing.T) {
	path := filepath.Join(t.TempDir(), "yoimem", "cache", "catalog")
	files := newFiles()
	snap := files.snapshot()
	c := mustLoad(t, path)
	c.SetShared(sharedperm.Fixed(sharedperm.Group))
	examineAll(t, c, snap)
	if err := c.Save(snap); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Dir(filepath.Dir(path)), filepath.Dir(path), path} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&0o060 != 0o060 || fi.IsDir() && runtime.GOOS == "linux" && fi.Mode()&fs.ModeSetgid == 0 {
			t.Errorf("%s is %v, not the group's", p, fi.Mode())
		}
	}
}
