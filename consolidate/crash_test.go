//go:build unix

package consolidate

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/memlog"
)

// fileMetrics is pending usage kept in files, so that it outlives a
// killed process: pending.jsonl is what is pending, moved.log the marks
// said moved.
type fileMetrics struct{ dir string }

func (m fileMetrics) Pending(runID string) ([]byte, json.RawMessage, error) {
	b, err := os.ReadFile(filepath.Join(m.dir, "pending.jsonl"))
	if errors.Is(err, os.ErrNotExist) || len(b) == 0 {
		return nil, nil, nil
	}
	return b, json.RawMessage(fmt.Sprintf(`{"bytes":%d}`, len(b))), err
}

func (m fileMetrics) Moved(runID string, mark json.RawMessage) error {
	f, err := os.OpenFile(filepath.Join(m.dir, "moved.log"), os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.Write([]byte(runID + " " + string(mark) + "\n"))
	return err
}

// TestHelperConsolidateProcess is not a test: the crash and concurrency
// tests run the test binary as a consolidation process. It exits 3 when
// the lock is busy; YOIMEM_TEST_KILL names a stage (or "applied": after
// the engine's first change) at which it kills itself with SIGKILL;
// YOIMEM_TEST_WAIT names a file it waits for once it holds the lock.
func TestHelperConsolidateProcess(t *testing.T) {
	dir := os.Getenv("YOIMEM_TEST_REPO")
	if dir == "" {
		t.Skip("helper process")
	}
	r := &testRepo{dir: dir, env: strings.Split(os.Getenv("YOIMEM_TEST_ENV"), "\x1f")}
	run := r.runner(t, topicEngine{})
	run.NewRunID = nil // a real UUIDv7 per process
	run.Metrics = fileMetrics{dir: os.Getenv("YOIMEM_TEST_METRICS")}
	kill, wait := os.Getenv("YOIMEM_TEST_KILL"), os.Getenv("YOIMEM_TEST_WAIT")
	die := func() {
		_ = syscall.Kill(os.Getpid(), syscall.SIGKILL)
		select {}
	}
	run.Hooks.Stage = func(s Stage) {
		if string(s) == kill {
			die()
		}
		if s == StageLocked && wait != "" {
			for {
				if _, err := os.Stat(wait); err == nil {
					return
				}
				time.Sleep(10 * time.Millisecond)
			}
		}
	}
	run.Hooks.Applied = func(memlog.Op) {
		if kill == "applied" {
			die()
		}
	}
	if _, err := run.Once(context.Background()); err != nil {
		if errors.Is(err, ErrBusy) {
			os.Exit(3)
		}
		t.Fatal(err)
	}
}

func (r *testRepo) helper(t *testing.T, metrics string, env ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHelperConsolidateProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), "YOIMEM_TEST_REPO="+r.dir, "YOIMEM_TEST_ENV="+strings.Join(r.env, "\x1f"), "YOIMEM_TEST_METRICS="+metrics)
	cmd.Env = append(cmd.Env, env...)
	return cmd
}

// memoryCommits lists the runs of the memory commits on the branch.
func (r *testRepo) memoryCommits(t *testing.T) []string {
	t.Helper()
	if out, _ := r.gitErr("rev-parse", "--verify", "-q", "yoimem/memory"); out == "" {
		return nil
	}
	out := r.git(t, "log", "--format=%(trailers:key=Yoimem-Run,valueonly)", "main..yoimem/memory")
	return strings.Fields(out)
}

// TestCrashAtEveryStage: a run killed at any stage loses no staging
// entry and leaves no partial commit; the next run takes its lock over,
// finishes or redoes it, and the memory converges: one commit, one
// record per topic with every source, the note, the usage moved, no
// staging left.
func TestCrashAtEveryStage(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	stages := []string{string(StageLocked), string(StageInput), "applied", string(StageLinted), string(StagePrepared), string(StageCommitted), string(StageNoted), string(StageCleaned)}
	for _, stage := range stages {
		t.Run(stage, func(t *testing.T) {
			r := workspaceRepo(t, nil)
			r.stage(t, id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))
			r.stage(t, id2, "s2", 1, 5, decide("Use SQLite", "sqlite"))
			r.stage(t, id3, "s3", 2, 4, ask("CSV export", "export the ledger"))
			metrics := t.TempDir()
			if err := os.WriteFile(filepath.Join(metrics, "pending.jsonl"), []byte(`{"id":"ev1"}`+"\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			err := r.helper(t, metrics, "YOIMEM_TEST_KILL="+stage).Run()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || !ee.Sys().(syscall.WaitStatus).Signaled() {
				t.Fatalf("the run was not killed at %s: %v", stage, err)
			}
			killed := readHolder(t, r.stagingDir())
			committed := slices.Contains([]string{string(StageCommitted), string(StageNoted), string(StageCleaned)}, stage)
			runs := r.memoryCommits(t)
			if committed && !slices.Equal(runs, []string{killed.RunID}) || !committed && len(runs) != 0 {
				t.Fatalf("after a kill at %s the branch has runs %v", stage, runs)
			}
			if left := r.staged(t); stage != string(StageCleaned) && len(left) != 3 || stage == string(StageCleaned) && len(left) != 0 {
				t.Fatalf("after a kill at %s staging holds %v", stage, left)
			}
			if out, err := r.gitErr("fsck", "--strict", "--no-dangling"); err != nil || out != "" {
				t.Fatalf("fsck after a kill at %s: %v %s", stage, err, out)
			}

			if out, err := r.helper(t, metrics).CombinedOutput(); err != nil {
				t.Fatalf("the run after a kill at %s: %v\n%s", stage, err, out)
			}
			r.checkConverged(t, killed.RunID, metrics)

			// Nothing left to do; the same entries staged again change nothing.
			r.stage(t, id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))
			if out, err := r.helper(t, metrics).CombinedOutput(); err != nil {
				t.Fatalf("a run over consolidated entries: %v\n%s", err, out)
			}
			if runs := r.memoryCommits(t); len(runs) != 1 || len(r.staged(t)) != 0 {
				t.Errorf("redoing did not converge: runs %v, staging %v", runs, r.staged(t))
			}
		})
	}
}

func (r *testRepo) checkConverged(t *testing.T, runID, metrics string) {
	t.Helper()
	if runs := r.memoryCommits(t); !slices.Equal(runs, []string{runID}) {
		t.Fatalf("runs on the branch: %v, want only %s", runs, runID)
	}
	files := r.git(t, "ls-tree", "-r", "--name-only", "yoimem/memory", "--", ".yoi/memory/decisions", ".yoi/memory/requests", ".yoi/metrics")
	if files != ".yoi/memory/decisions/use-sqlite.md\n.yoi/memory/requests/csv-export.md\n.yoi/metrics/"+runID+".jsonl" {
		t.Errorf("records on the branch:\n%s", files)
	}
	dec := r.git(t, "show", "yoimem/memory:.yoi/memory/decisions/use-sqlite.md")
	if strings.Count(dec, "session_id: s1") != 1 || strings.Count(dec, "session_id: s2") != 1 || strings.Count(dec, "Chosen: sqlite") != 1 {
		t.Errorf("the decision:\n%s", dec)
	}
	note := r.git(t, "notes", "--ref", "yoimem", "show", "yoimem/memory")
	if ev, err := ParseEvidence("note", []byte(note)); err != nil || ev.RunID != runID || len(ev.Entries) != 3 {
		t.Errorf("note: %v %+v", err, ev)
	}
	moved, _ := os.ReadFile(filepath.Join(metrics, "moved.log"))
	if !strings.Contains(string(moved), runID+` {"bytes":13}`) {
		t.Errorf("usage not marked moved: %q", moved)
	}
	if left := r.staged(t); len(left) != 0 {
		t.Errorf("staging left: %v", left)
	}
	if _, err := os.Stat(filepath.Join(r.stagingDir(), LockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock left: %v", err)
	}
}

// TestEightProcesses: eight runs at once: one works, the seven others
// exit 3 (busy) and touch nothing; an entry staged while the one works
// stays for the next run.
func TestEightProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	r := workspaceRepo(t, nil)
	r.stage(t, id1, "s1", 3, 9, decide("Use SQLite", "sqlite"))
	r.stage(t, id2, "s2", 1, 5, ask("CSV export", "export the ledger"))
	metrics := t.TempDir()
	gate := filepath.Join(t.TempDir(), "go")
	const n = 8
	cmds := make([]*exec.Cmd, n)
	done := make(chan int, n)
	codes := make([]int, n)
	for i := range cmds {
		cmds[i] = r.helper(t, metrics, "YOIMEM_TEST_WAIT="+gate)
		if err := cmds[i].Start(); err != nil {
			t.Fatal(err)
		}
		go func() {
			err := cmds[i].Wait()
			codes[i] = 0
			var ee *exec.ExitError
			if errors.As(err, &ee) {
				codes[i] = ee.ExitCode()
			} else if err != nil {
				codes[i] = -1
			}
			done <- i
		}()
	}
	// Seven exit busy while the eighth holds the lock and waits.
	for range n - 1 {
		i := <-done
		if codes[i] != 3 {
			t.Fatalf("process %d exited %d while another held the lock, want 3", i, codes[i])
		}
	}
	r.stage(t, id3, "s3", 2, 4, decide("Late topic", "x")) // staged during the run
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if i := <-done; codes[i] != 0 {
		t.Fatalf("the process holding the lock exited %d", codes[i])
	}
	runs := r.memoryCommits(t)
	if len(runs) != 1 {
		t.Fatalf("runs: %v", runs)
	}
	if left := r.staged(t); !slices.Equal(left, []string{id3}) {
		t.Errorf("staging left %v, want the entry staged during the run", left)
	}
	msg := r.git(t, "log", "-1", "--format=%B", "yoimem/memory")
	if !strings.Contains(msg, "Yoimem-Consumed: "+id1) || !strings.Contains(msg, "Yoimem-Consumed: "+id2) || strings.Contains(msg, id3) {
		t.Errorf("message:\n%s", msg)
	}
}
