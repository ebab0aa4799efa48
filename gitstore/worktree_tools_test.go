package gitstore_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memory"
)

// TestWorktreeToolsConcurrentEdits: N editors make M edits each of one
// record in the working tree at once, through stores of their own (as
// separate processes have) and through a shared one (as an MCP server's
// concurrent calls do). Every edit is kept.
func TestWorktreeToolsConcurrentEdits(t *testing.T) {
	root := t.TempDir()
	lockFile := filepath.Join(t.TempDir(), "records.lock")
	const rec = "---\nkind: rule\ndescription: d\nmodel_invokation: false\nuser_invocable: true\ncreated_at: 2026-01-05T09:30:00Z\nupdated_at: 2026-01-05T09:30:00Z\nlast_sources: []\n---\nEND\n"
	if err := os.MkdirAll(filepath.Join(root, ".yoi", "knowledge"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".yoi", "knowledge", "r.md"), []byte(rec), 0o644); err != nil {
		t.Fatal(err)
	}
	shared := &memory.Tools{Store: &gitstore.WorktreeStore{Root: root, LockFile: lockFile}, Lint: lint.DefaultOptions()}
	const n, m = 6, 20
	var wg sync.WaitGroup
	errs := make(chan error, 2*n*m)
	for i := 0; i < 2*n; i++ {
		tools := shared
		if i%2 == 0 {
			tools = &memory.Tools{Store: &gitstore.WorktreeStore{Root: root, LockFile: lockFile}, Lint: lint.DefaultOptions()}
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < m; j++ {
				_, err := tools.Edit(context.Background(), "knowledge/r.md", "END\n", fmt.Sprintf("w%d-%d\nEND\n", i, j), "")
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	b, err := os.ReadFile(filepath.Join(root, ".yoi", "knowledge", "r.md"))
	if err != nil {
		t.Fatal(err)
	}
	lost := 0
	for i := 0; i < 2*n; i++ {
		for j := 0; j < m; j++ {
			if !strings.Contains(string(b), fmt.Sprintf("\nw%d-%d\n", i, j)) {
				lost++
			}
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d edits lost", lost, 2*n*m)
	}
}
