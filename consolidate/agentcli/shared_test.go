package agentcli

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/yoimem/git-yoimem/consolidate/agent"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
)

// TestRunsDirShared: in a repository shared with its group
// (core.sharedRepository), the runs directory (and yoimem/, made for it)
// are the group's, so that another member's runs can be written there;
// a run's own files stay its owner's.
func TestRunsDirShared(t *testing.T) {
	local := filepath.Join(t.TempDir(), "yoimem")
	e := Engine{RunsDir: filepath.Join(local, "runs"), Shared: sharedperm.Fixed(sharedperm.Group)}
	files, err := e.writeFiles(runID, &agent.Served{})
	if err != nil {
		t.Fatal(err)
	}
	defer files.remove()
	for _, p := range []string{local, e.RunsDir} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&0o070 != 0o070 || runtime.GOOS == "linux" && fi.Mode()&fs.ModeSetgid == 0 {
			t.Errorf("%s is %v, not the group's", p, fi.Mode())
		}
	}
	for _, p := range []string{files.dir, files.prompt} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("the run's %s is %v: want it private", p, fi.Mode())
		}
	}
}
