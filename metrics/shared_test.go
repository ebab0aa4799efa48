package metrics

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/internal/sharedperm"
)

// TestSharedRepository: in a repository shared with its group
// (core.sharedRepository), the journals, the ledger, moved.json and the
// directories made for them are the group's, as git makes its own files
// there.
func TestSharedRepository(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "yoimem")
	l := Local{Dir: dir, Shared: sharedperm.Fixed(sharedperm.Group)}
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := l.Append("s", Event{ID: "e1", Time: when, Session: "s", Record: ".yoi/knowledge/k.md", How: HowInject, Tokens: 1}); err != nil {
		t.Fatal(err)
	}
	if err := l.Tick(Tick{Time: when, Session: "s", From: 0, To: 9, Tokens: 10}); err != nil {
		t.Fatal(err)
	}
	p, err := l.Pending()
	if err != nil {
		t.Fatal(err)
	}
	if err := l.MarkMoved("run-1", p); err != nil {
		t.Fatal(err)
	}
	for _, rel := range []string{".", "events", "events/s.jsonl", "ledger.jsonl", movedName} {
		fi, err := os.Stat(filepath.Join(dir, rel))
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&0o060 != 0o060 || fi.IsDir() && runtime.GOOS == "linux" && fi.Mode()&fs.ModeSetgid == 0 {
			t.Errorf("%s is %v, not the group's", rel, fi.Mode())
		}
	}
}
