package hooks

import (
	"io/fs"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestScripts: every hook Names lists is a file here, executable in the
// source tree (people run them by hand), that runs git-yoimem's hook of
// its own name; no other file is embedded.
func TestScripts(t *testing.T) {
	var embedded []string
	fs.WalkDir(scripts, ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			embedded = append(embedded, p)
		}
		return err
	})
	if !slices.Equal(embedded, Names()) {
		t.Errorf("embedded %v; want %v", embedded, Names())
	}
	for _, name := range Names() {
		s := Script(name)
		if !strings.HasPrefix(s, "#!/bin/sh\n") || !strings.HasSuffix(s, "\nexec git-yoimem hook "+name+" \"$@\"\n") {
			t.Errorf("%s:\n%s", name, s)
		}
		if fi, err := os.Stat(name); err != nil || fi.Mode().Perm()&0o111 == 0 {
			t.Errorf("%s is not executable in the source tree: %v", name, err)
		}
	}
}

func TestScriptUnknown(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Error("Script(post-merge) did not panic")
		}
	}()
	Script("post-merge")
}
