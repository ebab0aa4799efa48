package gitstore

import (
	"strings"
	"testing"
)

func TestParseMemoryLog(t *testing.T) {
	memory := "yoimem: 1 added\n\nadd knowledge/x.md: asked\n\nYoimem-Run: r1\nYoimem-Engine: rules\nYoimem-Categories: outdated=0 superseded=0 unused=0 noisy=0\n"
	prose := "docs: explain\n\nthe line Yoimem-Run: is a trailer\n"
	broken := "yoimem: 1 added\n\nadd knowledge/x.md: asked\n\nYoimem-Run: r2\nYoimem-Engine: rules\nYoimem-Categories: outdated=x\n"
	out := strings.Join([]string{"aaaa", "2026-01-02T03:04:05Z", memory, "bbbb", "2026-01-02T03:04:06Z", prose, "cccc", "2026-01-02T03:04:07Z", broken, ""}, "\x00")
	commits, bad := parseMemoryLog([]byte(out))
	if len(commits) != 1 || commits[0].Commit != "aaaa" || commits[0].Date != "2026-01-02T03:04:05Z" || commits[0].RunID != "r1" || len(commits[0].Ops) != 1 {
		t.Errorf("commits %+v", commits)
	}
	if len(bad) != 1 || !strings.HasPrefix(bad[0], "commit cccc: ") {
		t.Errorf("bad %q; want the commit whose message does not parse", bad)
	}
}
