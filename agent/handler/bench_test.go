package handler

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/agent"
	"github.com/yoimem/git-yoimem/bench/gentranscript/transcript"
	"github.com/yoimem/git-yoimem/internal/fixture"
	"github.com/yoimem/git-yoimem/workspace"
)

// The hooks' benchmarks (issue 12, "Benchmarks"): each handler on a
// generated 10,000-record repository (bench/gencorpus) with a 50 MB
// Claude Code transcript (bench/gentranscript), as a hook runs it: the
// workspace opened, the event answered, the answer fitted to Claude
// Code's cap. Process start is not in it: bench/agent-hooks.sh measures
// the real binary. Run them with
//
//	go test ./agent/handler -run '^$' -bench . -benchtime 20x

// benchFixture is the generated repository and transcript, made once.
type benchFixture struct {
	dir, transcript string
	env             []string
	err             error
}

var (
	benchOnce sync.Once
	benchFix  benchFixture
)

func benchSetup(b *testing.B) benchFixture {
	b.Helper()
	benchOnce.Do(func() { benchFix = makeBenchFixture() })
	if benchFix.err != nil {
		b.Skip(benchFix.err)
	}
	return benchFix
}

func makeBenchFixture() (f benchFixture) {
	goTool, err := exec.LookPath("go")
	if err != nil {
		f.err = err
		return f
	}
	root, err := os.MkdirTemp("", "yoimem-hook-bench")
	if err != nil {
		f.err = err
		return f
	}
	f.dir, f.transcript = filepath.Join(root, "repo"), filepath.Join(root, "transcript.jsonl")
	f.env = fixture.Env(filepath.Join(root, "home"))
	for _, args := range [][]string{{"git", "init", "-q", f.dir}, {goTool, "run", "../../bench/gencorpus", "-out", f.dir, "-n", "10000", "-seed", "1"}} {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Env = append(f.env, "GOFLAGS=-mod=readonly", "GOPROXY=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			f.err = &os.PathError{Op: strings.Join(args, " "), Path: string(out), Err: err}
			return f
		}
	}
	tf, err := os.Create(f.transcript)
	if err != nil {
		f.err = err
		return f
	}
	defer tf.Close()
	_, f.err = transcript.Write(tf, transcript.Config{Bytes: 50 << 20, ToolHeavy: true, Seed: 1})
	return f
}

func (f benchFixture) open(b *testing.B) *workspace.Workspace {
	getenv := func(k string) string {
		for _, kv := range f.env {
			if v, ok := strings.CutPrefix(kv, k+"="); ok {
				return v
			}
		}
		return ""
	}
	w, err := workspace.Open(context.Background(), workspace.Env{Dir: f.dir, Getenv: getenv, Environ: func() []string { return f.env }, Now: time.Now}, workspace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	return w
}

// benchHandle runs one event per iteration, with spawn as the background
// start (the real Spawner of a program that exits at once: the run itself
// is not on the hook's path).
func benchHandle(b *testing.B, ev agent.Event) {
	f := benchSetup(b)
	ev.Session, ev.LogPath, ev.Cwd = "00893aaf-19fa-41d2-8238-13269b9b3ca0", f.transcript, f.dir
	exe, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true(1) to spawn")
	}
	runtime.GC()
	b.ReportAllocs()
	for b.Loop() {
		w := f.open(b)
		sp := Spawner{Exe: exe, Dir: w.Root, Log: LogFile(StateDir(w), "claude-code")}
		resp, err := Handle(context.Background(), w, ev, Options{Agent: "claude-code", Cap: 10000, Spawn: sp.Spawn})
		if err != nil {
			b.Fatal(err)
		}
		resp.Context.Fit(10000)
	}
}

func BenchmarkSessionStart(b *testing.B) {
	benchHandle(b, agent.Event{Kind: agent.SessionStart, Name: "SessionStart", Source: "startup"})
}

func BenchmarkUserPromptSubmit(b *testing.B) {
	benchHandle(b, agent.Event{Kind: agent.UserPrompt, Name: "UserPromptSubmit", Prompt: "fix the retries, see #missing-slug and the notes"})
}

func BenchmarkUserPromptSubmitPlain(b *testing.B) {
	benchHandle(b, agent.Event{Kind: agent.UserPrompt, Name: "UserPromptSubmit", Prompt: "fix the retries in the webhook sender"})
}

func BenchmarkPreToolUse(b *testing.B) {
	benchHandle(b, agent.Event{Kind: agent.PreTool, Name: "PreToolUse", Tool: "Bash", ToolInput: []byte(`{"command":"cat .yoi/memory/summary.md | tee .yoi/memory/x.md"}`)})
}

func BenchmarkStop(b *testing.B) {
	benchHandle(b, agent.Event{Kind: agent.Stop, Name: "Stop"})
}

func BenchmarkPreCompact(b *testing.B) {
	benchHandle(b, agent.Event{Kind: agent.PreCompact, Name: "PreCompact", Source: "auto"})
}

func BenchmarkSessionEnd(b *testing.B) {
	benchHandle(b, agent.Event{Kind: agent.SessionEnd, Name: "SessionEnd", Source: "prompt_input_exit"})
}
