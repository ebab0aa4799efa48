package handler

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
	"time"
)

// TestRunSharedRepository: in a repository shared with its group
// (core.sharedRepository), a background run's state directories, status
// file and lock, and the agent's log, are the group's, as git makes its
// own files in the git directory.
func TestRunSharedRepository(t *testing.T) {
	w := newWorkspace(t, map[string]string{})
	cmd := exec.Command("git", "config", "core.sharedRepository", "group")
	cmd.Dir, cmd.Env = w.Root, w.Repo.Git.Env
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git config: %v\n%s", err, out)
	}
	dir := StateDir(w)
	o := RunOptions{Format: "claude-code", MaxRuns: 1, Now: func() time.Time { return now }, Log: func(string) {}}
	job := Job{Agent: "claude-code", Event: "Stop", Session: session, Transcript: filepath.Join(w.Root, "missing.jsonl")}
	if err := Run(context.Background(), w, job, o); err != nil {
		t.Fatal(err)
	}
	Logf(LogFile(dir, "claude-code"), 0, w.SharedPerm, now, session, "a line")
	for _, p := range []string{
		w.LocalDir(), dir, filepath.Join(dir, "runs"), runsDir(dir, "claude-code"),
		StatusFile(dir, "claude-code", session), filepath.Join(runsDir(dir, "claude-code"), session+".lock"),
		LogFile(dir, "claude-code"),
	} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode()&0o060 != 0o060 || fi.IsDir() && runtime.GOOS == "linux" && fi.Mode()&fs.ModeSetgid == 0 {
			t.Errorf("%s is %v, not the group's", p, fi.Mode())
		}
	}
}
