package setup

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/yoimem/git-yoimem/internal/sharedperm"
)

// TestCreatedRecordShared: in a repository shared with its group
// (core.sharedRepository), the record of created files kept in its git
// directory, and the directories made for it, are the group's, so that
// another member's uninstall can update it.
func TestCreatedRecordShared(t *testing.T) {
	tr := newTree(t)
	a, _ := Lookup(ClaudeCode)
	loc := tr.loc()
	loc.CreatedShared = sharedperm.Fixed(sharedperm.Group)
	p, err := PlanInstall(a, Project, loc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Dir(tr.created), tr.created} {
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&0o060 != 0o060 || fi.IsDir() && runtime.GOOS == "linux" && fi.Mode()&fs.ModeSetgid == 0 {
			t.Errorf("%s is %v, not the group's", path, fi.Mode())
		}
	}
}
