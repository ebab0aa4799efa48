//go:build unix

package setup

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestNotARegularFile: a FIFO or a directory where a settings file
// belongs is refused, naming it, without blocking on it.
func TestNotARegularFile(t *testing.T) {
	for _, kind := range []string{"fifo", "dir"} {
		t.Run(kind, func(t *testing.T) {
			tr := newTree(t)
			p := filepath.Join(tr.top, ".mcp.json")
			var err error
			if kind == "fifo" {
				err = syscall.Mkfifo(p, 0o644)
			} else {
				err = os.Mkdir(p, 0o755)
			}
			if err != nil {
				t.Skip(err)
			}
			a, _ := Lookup(ClaudeCode)
			done := make(chan error, 1)
			go func() {
				_, err := PlanInstall(a, Project, tr.loc(), Options{})
				done <- err
			}()
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("PlanInstall blocked on the FIFO")
			}
			var fe *FileError
			if !errors.As(err, &fe) || fe.File.Show != ".mcp.json" || !strings.Contains(err.Error(), "not a regular file") {
				t.Errorf("err = %v, want .mcp.json: not a regular file", err)
			}
		})
	}
}

// TestSymlinks: a link to a missing file is refused, not replaced by a
// file; uninstall never removes a link's target, even when it is left
// holding nothing.
func TestSymlinks(t *testing.T) {
	a, _ := Lookup(ClaudeCode)
	t.Run("dangling", func(t *testing.T) {
		tr := newTree(t)
		link := filepath.Join(tr.top, ".mcp.json")
		if err := os.Symlink(filepath.Join(tr.top, "gone.json"), link); err != nil {
			t.Fatal(err)
		}
		_, err := PlanInstall(a, Project, tr.loc(), Options{})
		var fe *FileError
		if !errors.As(err, &fe) || fe.File.Show != ".mcp.json" || !strings.Contains(err.Error(), "a symbolic link to a file that does not exist") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("uninstall keeps the target", func(t *testing.T) {
		tr := newTree(t)
		target := tr.write("dotfiles/mcp.json", "{}\n", 0o644)
		link := filepath.Join(tr.top, ".mcp.json")
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
		tr.install(Project, Options{})
		p := tr.uninstall(Project)
		if p.Changes[1].Action != Update {
			t.Errorf(".mcp.json: %s, want update", p.Changes[1].Action)
		}
		if b, err := os.ReadFile(target); err != nil || string(b) != "{}\n" {
			t.Errorf("target: %q, %v", b, err)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
			t.Errorf("the link is gone: %v", err)
		}
	})
}

// TestApprovalFilesBounded: the approval's settings files are read like
// the files install edits: a FIFO is refused without blocking, a file
// over MaxFileBytes is refused with its size, never read whole.
func TestApprovalFilesBounded(t *testing.T) {
	for _, kind := range []string{"fifo", "large"} {
		t.Run(kind, func(t *testing.T) {
			root := t.TempDir()
			home := filepath.Join(root, "home")
			if err := os.MkdirAll(home, 0o755); err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(home, ".claude.json")
			want := "not a regular file"
			if kind == "fifo" {
				if err := syscall.Mkfifo(p, 0o644); err != nil {
					t.Skip(err)
				}
			} else {
				want = "over the limit of 16,777,216"
				if err := os.WriteFile(p, nil, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := os.Truncate(p, MaxFileBytes+1); err != nil { // sparse
					t.Fatal(err)
				}
			}
			done := make(chan error, 1)
			go func() {
				_, err := ClaudeMCPApproval(Locations{Top: filepath.Join(root, "repo"), Home: home})
				done <- err
			}()
			var err error
			select {
			case err = <-done:
			case <-time.After(20 * time.Second):
				t.Fatal("ClaudeMCPApproval blocked on the FIFO")
			}
			if err == nil || !strings.Contains(err.Error(), "~/.claude.json") || !strings.Contains(err.Error(), want) {
				t.Errorf("err = %v; want ~/.claude.json ... %s", err, want)
			}
		})
	}
}
