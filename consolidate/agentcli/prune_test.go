package agentcli

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPruneLogs: the runs directory keeps the newest KeepLogs logs; the
// other files in it are left alone.
func TestPruneLogs(t *testing.T) {
	dir := t.TempDir()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < KeepLogs+5; i++ {
		p := filepath.Join(dir, fmt.Sprintf("run-%02d.log", i))
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
		// names and times disagree: the times decide
		mt := base.Add(time.Duration(KeepLogs+5-i) * time.Hour)
		if err := os.Chtimes(p, mt, mt); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "other.addr"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	pruneLogs(dir, KeepLogs)
	for i := 0; i < KeepLogs+5; i++ {
		_, err := os.Stat(filepath.Join(dir, fmt.Sprintf("run-%02d.log", i)))
		if gone := err != nil; gone != (i >= KeepLogs) {
			t.Errorf("run-%02d.log: gone %v", i, gone)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "other.addr")); err != nil {
		t.Error("pruning removed another file")
	}
}
