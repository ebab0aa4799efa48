// Command git-yoimem is `git yoimem`: a durable, reviewable memory for AI
// coding agents, kept as Markdown records under .yoi/ in a git repository.
//
// main is a thin adapter: the program is run(ctx, args, env) and the real
// dependencies are wired here only.
package main

import (
	"context"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"syscall"
	"time"

	"github.com/yoimem/git-yoimem/internal/lifeline"
)

func main() {
	if os.Getenv("GOGC") == "" {
		// Commands are short-lived with small live heaps: trade a little
		// memory for less GC time (measured on the 10,000-record lint, 200
		// beats 100 on time and 400 on both time and memory).
		debug.SetGCPercent(200)
	}
	if p := os.Getenv("YOIMEM_CPUPROFILE"); p != "" {
		// For profiling a slow command on a user's repository.
		if f, err := os.Create(p); err == nil && pprof.StartCPUProfile(f) == nil {
			defer pprof.StopCPUProfile()
		}
	}
	ctx, stop := interruptible()
	code := run(ctx, os.Args, realEnv())
	stop()
	pprof.StopCPUProfile()
	os.Exit(code)
}

// interruptible is the context every command runs in: cancelled by the
// signals that stop a command (exit 130, nothing partial written). The
// tests' binary runs in it too. SIGINT, SIGTERM (a hook's timeout) and
// SIGHUP (a closed terminal, a killed session) all stop it, and a model
// call's child processes are stopped with us. When git started us (`git
// yoimem …`), git's death sends SIGTERM, so that we never run on alone
// holding locks and model children.
func interruptible() (context.Context, context.CancelFunc) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	if _, gone := lifeline.TieToGit(syscall.SIGTERM); gone {
		_ = syscall.Kill(os.Getpid(), syscall.SIGTERM) // as if git's death had signalled us
	}
	return ctx, stop
}

func realEnv() Env {
	dir, err := os.Getwd()
	if err != nil {
		dir = "."
	}
	return Env{
		Stdin:   os.Stdin,
		Stdout:  os.Stdout,
		Stderr:  os.Stderr,
		Getenv:  os.Getenv,
		Environ: os.Environ,
		Dir:     dir,
		Now:     clock(os.Getenv("YOIMEM_NOW")),
	}
}

// clock returns time.Now, or a fixed time when YOIMEM_NOW holds an RFC 3339
// time: reproducible demos and tests, as GIT_COMMITTER_DATE is for git.
func clock(fixed string) func() time.Time {
	if t, err := time.Parse(time.RFC3339, fixed); err == nil {
		return func() time.Time { return t }
	}
	return time.Now
}
