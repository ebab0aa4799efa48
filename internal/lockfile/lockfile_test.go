package lockfile

import (
	"bufio"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A process started by TestMain with YOIMEM_LOCKFILE_HOLD=<path> takes the
// lock, records itself as holder, says "held" and waits to be killed.
func TestMain(m *testing.M) {
	if p := os.Getenv("YOIMEM_LOCKFILE_HOLD"); p != "" {
		l := New(p)
		if err := l.Acquire(context.Background(), 10*time.Second); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(2)
		}
		if err := l.SetHolder(Me(time.Now())); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(2)
		}
		os.Stdout.WriteString("held\n")
		time.Sleep(time.Hour)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

func lockPath(t *testing.T) string {
	return filepath.Join(t.TempDir(), "state", "x.lock") // the directory is made by the lock
}

func TestExcludes(t *testing.T) {
	p := lockPath(t)
	a, b := New(p), New(p)
	if ok, err := a.TryLock(); !ok || err != nil {
		t.Fatalf("first TryLock = %v, %v", ok, err)
	}
	if ok, err := b.TryLock(); ok || err != nil {
		t.Fatalf("second TryLock while held = %v, %v; want false, nil", ok, err)
	}
	if err := a.Unlock(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Errorf("the lock file is gone after Unlock (a removed lock file lets two holders in): %v", err)
	}
	if ok, err := b.TryLock(); !ok || err != nil {
		t.Fatalf("TryLock after release = %v, %v", ok, err)
	}
	b.Unlock()
}

func TestAcquire(t *testing.T) {
	p := lockPath(t)
	holder := New(p)
	if err := holder.Acquire(context.Background(), 0); err != nil {
		t.Fatalf("Acquire of a free lock: %v", err)
	}

	// wait 0: one try
	err := New(p).Acquire(context.Background(), 0)
	if !errors.Is(err, ErrHeld) || !strings.Contains(err.Error(), p) {
		t.Errorf("Acquire(0) of a held lock = %v; want ErrHeld naming %s", err, p)
	}
	// a bounded wait that passes
	err = New(p).Acquire(context.Background(), 30*time.Millisecond)
	if !errors.Is(err, ErrHeld) || !strings.Contains(err.Error(), "waited 30ms") {
		t.Errorf("Acquire(30ms) of a held lock = %v; want ErrHeld saying how long it waited", err)
	}
	// no bound: the context ends it, promptly and with its error
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- New(p).Acquire(ctx, -1) }()
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) || errors.Is(err, ErrHeld) {
			t.Errorf("Acquire cancelled = %v; want context.Canceled", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Acquire did not return when its context was cancelled")
	}
	// a context already done: not even one try
	if err := New(filepath.Join(t.TempDir(), "free.lock")).Acquire(ctx, time.Hour); !errors.Is(err, context.Canceled) {
		t.Errorf("Acquire with a done context = %v; want context.Canceled", err)
	}

	// a waiter gets the lock when the holder lets go
	got := make(chan error, 1)
	go func() { got <- New(p).Acquire(context.Background(), time.Minute) }()
	time.Sleep(20 * time.Millisecond)
	holder.Unlock()
	if err := <-got; err != nil {
		t.Errorf("a waiter did not get the released lock: %v", err)
	}
}

func TestAcquireBadDirectory(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	err := New(filepath.Join(file, "x.lock")).Acquire(context.Background(), 0)
	if err == nil || errors.Is(err, ErrHeld) || !strings.Contains(err.Error(), file) {
		t.Errorf("Acquire under a file = %v; want an error naming the path", err)
	}
}

func TestHolderInside(t *testing.T) {
	p := lockPath(t)
	l := New(p)
	var h Holder
	if err := l.Holder(&h); !errors.Is(err, ErrNoHolder) {
		t.Errorf("Holder of a lock never taken = %v; want ErrNoHolder", err)
	}
	if err := l.SetHolder(Me(time.Unix(100, 0))); err == nil {
		t.Error("SetHolder without the lock succeeded")
	}
	if err := l.Acquire(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	type record struct {
		Holder
		Run string `json:"run_id"`
	}
	long := record{Holder: Me(time.Unix(100, 0).UTC()), Run: strings.Repeat("r", 200)}
	if err := l.SetHolder(long); err != nil {
		t.Fatal(err)
	}
	short := record{Holder: Me(time.Unix(200, 0).UTC()), Run: "r1"}
	if err := l.SetHolder(short); err != nil {
		t.Fatal(err)
	}
	var got record
	if err := New(p).Holder(&got); err != nil || got != short {
		t.Errorf("another reads the holder %+v, %v; want %+v (a shorter record leaves nothing of the longer)", got, err, short)
	}
	if held, err := New(p).Held(); !held || err != nil {
		t.Errorf("Held while held = %v, %v", held, err)
	}
	if held, err := l.Held(); !held || err != nil {
		t.Errorf("Held by the holder itself = %v, %v", held, err)
	}
	l.Unlock()
	if err := New(p).Holder(&got); !errors.Is(err, ErrNoHolder) {
		t.Errorf("Holder after Unlock = %v; want ErrNoHolder (the record goes with the lock)", err)
	}
	if held, err := New(p).Held(); held || err != nil {
		t.Errorf("Held after Unlock = %v, %v", held, err)
	}
}

func TestHolderNextTo(t *testing.T) {
	p := lockPath(t)
	side := filepath.Join(filepath.Dir(p), "holder.json")
	l := New(p, HolderFile(side))
	if err := l.Acquire(context.Background(), 0); err != nil {
		t.Fatal(err)
	}
	want := Me(time.Unix(300, 0).UTC())
	if err := l.SetHolder(want); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(p); len(b) != 0 {
		t.Errorf("the lock file holds %q; the record goes to %s", b, side)
	}
	var got Holder
	if err := New(p, HolderFile(side)).Holder(&got); err != nil || got != want {
		t.Errorf("Holder = %+v, %v; want %+v", got, err, want)
	}
	l.Unlock()
	if _, err := os.Stat(side); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the holder file outlives the lock: %v", err)
	}
}

// TestReleasedWhenHolderDies: a holder killed with SIGKILL leaves no stale
// lock, and until then others read who holds it.
func TestReleasedWhenHolderDies(t *testing.T) {
	p := lockPath(t)
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "YOIMEM_LOCKFILE_HOLD="+p)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	line, err := bufio.NewReader(out).ReadString('\n')
	if line != "held\n" {
		t.Fatalf("holder process: %q, %v; stderr: %s", line, err, stderr.String())
	}
	var h Holder
	if err := New(p).Holder(&h); err != nil || h.PID != cmd.Process.Pid || h.Host == "" {
		t.Errorf("holder record %+v, %v; want pid %d and a host", h, err, cmd.Process.Pid)
	}
	if err := New(p).Acquire(context.Background(), 0); !errors.Is(err, ErrHeld) {
		t.Fatalf("Acquire while another process holds it = %v; want ErrHeld", err)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	cmd.Wait()
	l := New(p)
	if err := l.Acquire(context.Background(), 10*time.Second); err != nil {
		t.Fatalf("the lock of a killed holder was not released: %v", err)
	}
	l.Unlock()
}
