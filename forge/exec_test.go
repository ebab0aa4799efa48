package forge

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// LookPath searches the PATH of the given environment, and only its
// absolute directories: a relative one would find a gh planted in the
// repository the command runs in.
func TestSystemLookPath(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "bin")
	if err := os.Mkdir(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, mode := range map[string]os.FileMode{"gh": 0o755, "glab": 0o644} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	tests := []struct {
		path, name, want string
	}{
		{bin, "gh", filepath.Join(bin, "gh")},
		{"/nonexistent" + string(os.PathListSeparator) + bin, "gh", filepath.Join(bin, "gh")},
		{bin, "glab", ""}, // not executable
		{"bin", "gh", ""}, // relative
		{"", "gh", ""},
	}
	for _, tt := range tests {
		got, err := System{}.LookPath(tt.name, []string{"PATH=" + tt.path})
		if tt.want == "" {
			if !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("LookPath(%s) on PATH=%s = %q, %v; want not found", tt.name, tt.path, got, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("LookPath(%s) on PATH=%s = %q, %v; want %s", tt.name, tt.path, got, err, tt.want)
		}
	}
}
