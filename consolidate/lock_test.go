package consolidate

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

const (
	id1 = "0194d29f-0c00-7000-8000-000000000001"
	id2 = "0194d29f-0c00-7000-8000-000000000002"
	id3 = "0194d29f-0c00-7000-8000-000000000003"
	id4 = "0194d29f-0c00-7000-8000-000000000009"
)

func stagingDir(t *testing.T, ids ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, id := range ids {
		writeTestFile(t, dir, id+".json", 10)
	}
	return dir
}

func readHolder(t *testing.T, dir string) Holder {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, LockName))
	if err != nil {
		t.Fatal(err)
	}
	var h Holder
	if err := json.Unmarshal(b, &h); err != nil {
		t.Fatalf("lock file: %v\n%s", err, b)
	}
	return h
}

func writeHolder(t *testing.T, dir string, h Holder) {
	t.Helper()
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, dir, LockName, 0)
	if err := os.WriteFile(filepath.Join(dir, LockName), b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestLockHoldsTheConsumedList: the lock names its holder and fixes the
// consumed IDs at the start; entries staged afterwards are not in it;
// releasing removes it.
func TestLockHoldsTheConsumedList(t *testing.T) {
	dir := stagingDir(t, id2, id1)
	l, err := AcquireLock(context.Background(), dir, "run-1", now)
	if err != nil {
		t.Fatal(err)
	}
	if l.Recovered() != nil {
		t.Errorf("a fresh lock recovered %+v", l.Recovered())
	}
	writeTestFile(t, dir, id3+".json", 10) // staged during the run
	h := readHolder(t, dir)
	host, _ := os.Hostname()
	if h.RunID != "run-1" || h.PID != os.Getpid() || h.Host != host || !h.Since.Equal(now) || !slices.Equal(h.Consumed, []string{id1, id2}) {
		t.Fatalf("holder = %+v", h)
	}
	if runtime.GOOS == "linux" && h.Start == "" {
		t.Error("no process start time on Linux")
	}
	if !slices.Equal(l.Holder().Consumed, []string{id1, id2}) {
		t.Errorf("Holder().Consumed = %v", l.Holder().Consumed)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, LockName)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("lock left after release: %v", err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(dir, ".*tmp*")); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// TestLockBusy: a live holder (here this very process) makes another run
// fail with a *BusyError that names it; a holder on another host cannot
// be checked and counts as live.
func TestLockBusy(t *testing.T) {
	dir := stagingDir(t, id1)
	l, err := AcquireLock(context.Background(), dir, "run-1", now)
	if err != nil {
		t.Fatal(err)
	}
	_, err = AcquireLock(context.Background(), dir, "run-2", now)
	var busy *BusyError
	if !errors.As(err, &busy) || !errors.Is(err, ErrBusy) || busy.Holder.RunID != "run-1" || busy.Holder.PID != os.Getpid() {
		t.Fatalf("second AcquireLock = %v, want a *BusyError naming run-1", err)
	}
	for _, want := range []string{"already running", "run-1", "pid", "(.yoi/memory/_staging/consolidate.lock)"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("busy message lacks %q: %v", want, err)
		}
	}
	if busy.Path != ".yoi/memory/_staging/consolidate.lock" || strings.Contains(err.Error(), dir) {
		t.Errorf("the lock is named %q, not as commands print paths: %v", busy.Path, err)
	}
	if err := l.Release(); err != nil {
		t.Fatal(err)
	}

	writeHolder(t, dir, Holder{Version: holderVersion, Host: "elsewhere.example", PID: 1, RunID: "run-far", Since: now, Consumed: []string{id1}})
	_, err = AcquireLock(context.Background(), dir, "run-3", now)
	if !errors.As(err, &busy) || busy.Holder.RunID != "run-far" || !strings.Contains(err.Error(), "elsewhere.example") || !busy.OtherHost {
		t.Fatalf("AcquireLock with a holder on another host = %v", err)
	}
	if h := readHolder(t, dir); h.RunID != "run-far" {
		t.Errorf("the lock of another host was changed: %+v", h)
	}
}

// TestLockTakeOver: a dead holder (its process gone, or its pid reused by
// another process) is taken over; the run keeps its run ID, consumed
// list and recovery data, and the caller learns what it takes over.
func TestLockTakeOver(t *testing.T) {
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip("no true(1):", err)
	}
	gone := cmd.Process.Pid
	host, _ := os.Hostname()
	tests := []struct {
		name  string
		pid   int
		start string
	}{
		{"process gone", gone, ""},
		{"pid reused", os.Getpid(), "linux:another-boot:1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.start != "" && runtime.GOOS != "linux" {
				t.Skip("start times are read on Linux")
			}
			dir := stagingDir(t, id1, id2, id3)
			dead := Holder{Version: holderVersion, Host: host, PID: tt.pid, Start: tt.start, RunID: "run-dead", Since: now.Add(-time.Hour), Consumed: []string{id1, id2}, Note: "abc", Metrics: json.RawMessage(`{"x":1}`)}
			writeHolder(t, dir, dead)
			l, err := AcquireLock(context.Background(), dir, "run-new", now)
			if err != nil {
				t.Fatal(err)
			}
			rec := l.Recovered()
			if rec == nil || rec.RunID != "run-dead" || rec.PID != tt.pid {
				t.Fatalf("Recovered = %+v", rec)
			}
			h := readHolder(t, dir)
			if h.RunID != "run-dead" || h.PID != os.Getpid() || !slices.Equal(h.Consumed, []string{id1, id2}) || h.Note != "abc" || string(h.Metrics) != `{"x":1}` || !h.Since.Equal(now) {
				t.Fatalf("taken-over holder = %+v", h)
			}
			if err := l.Release(); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestLockDamaged: a lock file that does not parse is not taken over
// nor removed: the error names it and says what to do.
func TestLockDamaged(t *testing.T) {
	dir := stagingDir(t, id1)
	writeTestFile(t, dir, LockName, 0)
	if err := os.WriteFile(filepath.Join(dir, LockName), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := AcquireLock(context.Background(), dir, "run-1", now)
	if err == nil || errors.Is(err, ErrBusy) || !strings.Contains(err.Error(), ".yoi/memory/_staging/"+LockName) || strings.Contains(err.Error(), dir) || !strings.Contains(err.Error(), "remove it") {
		t.Fatalf("AcquireLock over a damaged lock = %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, LockName)); string(b) != "{not json" {
		t.Errorf("damaged lock changed: %q", b)
	}
}

// TestLockUpdateAndRelease: the holder may record what a crash must
// finish (the note and the metrics mark) before it commits; a lock that
// is no longer its own is neither updated nor removed.
func TestLockUpdateAndRelease(t *testing.T) {
	dir := stagingDir(t, id1)
	l, err := AcquireLock(context.Background(), dir, "run-1", now)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.Update(func(h *Holder) { h.Note = "blob"; h.Metrics = json.RawMessage(`[1]`) }); err != nil {
		t.Fatal(err)
	}
	if h := readHolder(t, dir); h.Note != "blob" || string(h.Metrics) != `[1]` || h.RunID != "run-1" {
		t.Fatalf("updated holder = %+v", h)
	}
	writeHolder(t, dir, Holder{Version: holderVersion, Host: "other", PID: 1, RunID: "run-x"})
	if err := l.Update(func(h *Holder) { h.Note = "y" }); err == nil {
		t.Error("Update of a lock another run holds: no error")
	}
	if err := l.Release(); err == nil || !strings.Contains(err.Error(), "run-x") {
		t.Errorf("Release of a lock another run holds = %v", err)
	}
	if h := readHolder(t, dir); h.RunID != "run-x" {
		t.Errorf("another run's lock was changed: %+v", h)
	}
}

// TestLockOneWinner: of many acquirers at once, one holds the lock and
// every other is busy.
func TestLockOneWinner(t *testing.T) {
	dir := stagingDir(t, id1)
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	locks := make([]*Lock, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			locks[i], errs[i] = AcquireLock(context.Background(), dir, "run", now)
		}()
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
			defer locks[i].Release()
		case !errors.Is(err, ErrBusy):
			t.Errorf("acquirer %d: %v", i, err)
		}
	}
	if won != 1 {
		t.Fatalf("%d acquirers hold the lock", won)
	}
}
