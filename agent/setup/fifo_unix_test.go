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
