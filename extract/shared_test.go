package extract

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/yoimem/git-yoimem/internal/sharedperm"
)

// TestRunnerSharedRepository: in a repository shared with its group
// (core.sharedRepository), the state directory, the state and pointer
// files and the in-flight lock are the group's, as git makes its own
// files there.
func TestRunnerSharedRepository(t *testing.T) {
	f := newRunnerFixture(t, decisionAnswer("idempotency key"))
	f.r.StateDir = filepath.Join(f.root, "git", "yoimem", "extract")
	f.r.Shared = sharedperm.Fixed(sharedperm.Group)
	if _, err := f.r.Run(context.Background(), RunOptions{MaxRuns: 1}); err != nil {
		t.Fatal(err)
	}
	key := f.r.Log.Key()
	for _, p := range []string{filepath.Dir(f.r.StateDir), f.r.StateDir, f.r.statePath(), f.r.pointerPath(), filepath.Join(f.r.StateDir, key+".lock")} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&0o060 != 0o060 || fi.IsDir() && runtime.GOOS == "linux" && fi.Mode()&fs.ModeSetgid == 0 {
			t.Errorf("%s is %v, not the group's", p, fi.Mode())
		}
	}
}
