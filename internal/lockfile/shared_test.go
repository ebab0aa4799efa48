package lockfile

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/internal/sharedperm"
)

// TestShared: under a shared repository's setting the directories a lock
// creates and its file (and a holder file) are open to the group, as git
// makes its own; a file that exists keeps its bits.
func TestShared(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "a", "b", "x.flock")
	holder := filepath.Join(root, "a", "b", "x.holder")
	l := New(path, Shared(sharedperm.Fixed(sharedperm.Group)), HolderFile(holder))
	if err := l.Acquire(context.Background(), time.Second); err != nil {
		t.Fatal(err)
	}
	if err := l.SetHolder(Me(time.Now())); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(root, "a"), filepath.Join(root, "a", "b"), path, holder} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		m := fi.Mode()
		if m&0o060 != 0o060 {
			t.Errorf("%s is %v: the group cannot read and write it", p, m)
		}
		if fi.IsDir() && runtime.GOOS == "linux" && (m&fs.ModeSetgid == 0 || m&0o010 == 0) {
			t.Errorf("directory %s is %v: want group search and setgid", p, m)
		}
	}
	if err := l.Unlock(); err != nil {
		t.Fatal(err)
	}

	// An existing lock file is not changed (another user's may not be).
	if err := os.Chmod(path, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := l.Acquire(context.Background(), time.Second); err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("an existing lock file became %v", fi.Mode())
	}
}
