package metrics

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckSession(t *testing.T) {
	for _, ok := range []string{"s1", "0193a1b2-7c00-7d11-8e22-33445566aabb", "rollout_2026-01-02T03.04.05", strings.Repeat("a", 128)} {
		if err := CheckSession(ok); err != nil {
			t.Errorf("CheckSession(%q) = %v", ok, err)
		}
	}
	for _, bad := range []string{"", ".", "..", "../x", "a/b", `a\b`, "a\nb", "a b", "-a", ".hidden", "_x", "a\x1b[2J", "日本", strings.Repeat("a", 129)} {
		if err := CheckSession(bad); !errors.Is(err, ErrBadSession) {
			t.Errorf("CheckSession(%q) = %v, want ErrBadSession", bad, err)
		}
	}
}

// TestAppendRefusesBadSession: no journal file is named by a bad id.
func TestAppendRefusesBadSession(t *testing.T) {
	l := Local{Dir: t.TempDir()}
	for _, bad := range []string{"a\nb", "..", "../escape"} {
		if err := l.Append(bad, Event{ID: "e"}); !errors.Is(err, ErrBadSession) {
			t.Errorf("Append(%q) = %v", bad, err)
		}
	}
	if _, err := os.Stat(filepath.Join(l.Dir, "events")); !os.IsNotExist(err) {
		t.Errorf("events directory: %v", err)
	}
}
