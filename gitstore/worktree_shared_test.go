package gitstore

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/yoimem/git-yoimem/internal/sharedperm"
)

// TestWorktreeStoreSharedLock: in a repository shared with its group,
// the writers' lock of the records (and yoimem/, made for it) are the
// group's, so that every member's memory tools can take it.
func TestWorktreeStoreSharedLock(t *testing.T) {
	s, _ := newStore(t)
	s.Shared = sharedperm.Fixed(sharedperm.Group)
	unlock, err := s.Lock(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	unlock()
	for _, p := range []string{filepath.Dir(s.LockFile), s.LockFile} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&0o060 != 0o060 || fi.IsDir() && runtime.GOOS == "linux" && fi.Mode()&fs.ModeSetgid == 0 {
			t.Errorf("%s is %v, not the group's", p, fi.Mode())
		}
	}
}
