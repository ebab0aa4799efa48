package handler

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/internal/fixture"
)

// staging is a staging file the rules engine consolidates into a decision.
const staging = `{
  "version": 1,
  "id": "0194d29f-0c00-7000-8000-000000000001",
  "created_at": "2026-12-01T09:00:00Z",
  "source": {"session_id": "` + session + `", "range": [1, 9]},
  "agent": "claude-code",
  "model": "recorded",
  "activity": {
    "decisions": [{"topic": "cache strategy", "options": ["invalidate on read", "rebuild nightly"], "chosen": "invalidate on read", "rationale": "few writes"}],
    "discussions": [], "attempts": [], "requests": []
  }
}
`

// TestRunAutoMerge: a background run's consolidation that commits is
// followed by yoimem.autoMerge, as `git yoimem consolidate` does: on, the
// memory branch is merged into the current branch and the status file
// says so (consolidation.auto_merge); off, nothing is merged or said; a
// merge refused (.yoi/ not clean) is said with its reason.
func TestRunAutoMerge(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cfg    []string
		dirty  bool
		merged bool
		reason string // in auto_merge.reason; "" with merged false: no auto_merge
	}{
		{"on", []string{"yoimem.autoMerge=true"}, false, true, ""},
		{"off", nil, false, false, ""},
		{"refused", []string{"yoimem.autoMerge=true"}, true, false, ".yoi/"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorkspaceConfig(t, map[string]string{}, append([]string{"yoimem.consolidate.stagingFiles=1"}, tc.cfg...))
			git(t, w.Root, "add", "-A")
			git(t, w.Root, "commit", "-q", "-m", "memory layout")
			if tc.dirty {
				if err := os.WriteFile(filepath.Join(w.Root, ".yoi", "knowledge", "draft.md"), []byte("draft\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.MkdirAll(w.StagingDir(), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(w.StagingDir(), "0194d29f-0c00-7000-8000-000000000001.json"), []byte(staging), 0o644); err != nil {
				t.Fatal(err)
			}
			job := Job{Agent: "claude-code", Event: "Stop", Session: session, Transcript: filepath.Join(w.Root, "missing.jsonl")}
			if err := Run(context.Background(), w, job, RunOptions{Format: "claude-code", MaxRuns: 1, Now: func() time.Time { return now }}); err != nil {
				t.Fatal(err)
			}
			s, err := ReadStatus(StatusFile(StateDir(w), "claude-code", session))
			if err != nil || s.Consolidation.Result != ConsolidationCommitted {
				t.Fatalf("status %+v, %v; want a consolidation committed", s.Consolidation, err)
			}
			am := s.Consolidation.AutoMerge
			switch {
			case tc.merged && (am == nil || !am.Merged):
				t.Errorf("auto_merge %+v; want merged", am)
			case !tc.merged && tc.reason == "" && am != nil:
				t.Errorf("auto_merge %+v with yoimem.autoMerge off", am)
			case tc.reason != "" && (am == nil || am.Merged || !strings.Contains(am.Reason, tc.reason)):
				t.Errorf("auto_merge %+v; want refused naming %q", am, tc.reason)
			}
			head, memory := git(t, w.Root, "rev-parse", "HEAD:.yoi"), git(t, w.Root, "rev-parse", "yoimem/memory:.yoi")
			if (head == memory) != tc.merged {
				t.Errorf("HEAD:.yoi %s, memory branch's %s; merged %v", head, memory, tc.merged)
			}
		})
	}
}

// git runs git in dir, in the tests' isolated environment.
func git(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = fixture.Env(t.TempDir())
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out))
}
