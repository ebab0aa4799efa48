package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/yoimem/git-yoimem/agent"
	"github.com/yoimem/git-yoimem/agent/claudecode"
	"github.com/yoimem/git-yoimem/agent/codex"
	"github.com/yoimem/git-yoimem/agent/handler"
	"github.com/yoimem/git-yoimem/consolidate/agentcli"
	"github.com/yoimem/git-yoimem/consolidate/setup"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/workspace"
)

// `git yoimem hook <agent> <event>`: an agent's hook. It reads the hook's
// input on stdin, answers through agent/handler and writes the agent's
// output shape. It never fails the agent: whatever goes wrong (no
// repository, no .yoi/, a malformed or huge input) is an empty answer
// with exit 0, and the reason goes to the agent's log (stderr when there
// is no repository to hold one). `git yoimem hook <agent> background …`
// is the detached run the turn-ending events start.

// agentHook is how one agent's hooks are read and answered.
type agentHook struct {
	decode func(r io.Reader, limit int64) (agent.Event, error)
	encode func(agent.Event, agent.Response) (stdout []byte, exitCode int)
	cap    int    // the agent's cap on a hook's text output
	format string // its transcripts' format, for extract
	// notify reads an event from the command line rather than stdin (the
	// arguments after "notify"), for an agent with a notify command;
	// getenv is the environment's.
	notify func(args []string, getenv func(string) string) (agent.Event, error)
	// locate fills in what the agent's input may leave out (Codex: a
	// null transcript_path, found by the session id); getenv is the
	// environment's.
	locate func(ev agent.Event, getenv func(string) string) agent.Event
}

// agentHookFor is the agent named on the command line; ok is false for
// one this build does not answer yet.
func agentHookFor(name string) (agentHook, bool) {
	switch name {
	case "claude-code":
		return agentHook{decode: claudecode.Decode, encode: claudecode.Encode, cap: claudecode.OutputCap, format: "claude-code"}, true
	case "codex":
		return agentHook{decode: codex.Decode, encode: codex.Encode, cap: codex.OutputCap, format: "codex", notify: codexNotify, locate: codexRollout}, true
	}
	return agentHook{}, false
}

func runAgentHook(ctx context.Context, env Env, g *globalOptions, name string, args []string) error {
	h, ok := agentHookFor(name)
	if !ok {
		warnf(env.Stderr, "hook %s: this build has no %s integration; nothing done", name, name)
		return nil
	}
	if len(args) == 0 {
		return usageError("hook %s needs an event, e.g. git yoimem hook %s session-start", name, name)
	}
	if args[0] == handler.BackgroundArg {
		return runAgentBackground(ctx, env, g, name, h, args[1:])
	}
	ev, derr := readHookEvent(env, h, args)
	// The workspace is opened when needed: a tool call's guard is pure,
	// and opening (git config) is most of what a PreToolUse hook costs.
	var (
		w      *workspace.Workspace
		werr   error
		opened bool
	)
	open := func() (*workspace.Workspace, error) {
		if !opened {
			opened = true
			w, werr = hookWorkspace(ctx, env, g, ev.Cwd)
		}
		return w, werr
	}
	logf := func(format string, a ...any) {
		if w, _ := open(); w != nil {
			handler.Logf(handler.LogFile(handler.StateDir(w), name), 0, w.SharedPerm, env.Now(), quote.Value(ev.Session), "%s: %s", args[0], fmt.Sprintf(format, a...))
			return
		}
		warnf(env.Stderr, "hook %s %s: %s", name, args[0], fmt.Sprintf(format, a...))
	}
	switch {
	case derr != nil && ev.Kind == agent.PreTool:
		// a tool call over the limit: the guard judges what came before
		// the cut (a write it cannot check is denied)
		logf("%v; the tool call is judged from what was read", derr)
	case derr != nil:
		logf("%v; answered with nothing", derr)
		return nil
	case ev.Kind == agent.PreTool:
		// memory is guarded without a workspace, even where none opens
	default:
		if _, err := open(); err != nil {
			logf("%v; answered with nothing", err)
			return nil
		}
	}
	opts := handler.Options{
		Agent: name, Cap: h.cap,
		Log:              func(msg string) { logf("%s", msg) },
		ConsolidationRun: env.Getenv(agentcli.EnvRunID),
	}
	if w != nil {
		opts.Spawn = spawner(env, w, name).Spawn
	}
	resp, err := handler.Handle(ctx, w, ev, opts)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return err
		}
		logf("%v; answered with nothing", err)
	}
	out, code := h.encode(ev, resp)
	if _, err := env.Stdout.Write(out); err != nil {
		// The agent stopped reading: nobody to answer, and no exit code
		// of ours may read as a block.
		logf("write the answer: %v", err)
		return nil
	}
	if code != 0 {
		return &exitError{code: code, err: errors.New(resp.Reason)}
	}
	return nil
}

// readHookEvent decodes the hook's input: stdin, or for notify the
// command line (an agent's notify command may leave stdin open: it is
// not read then).
func readHookEvent(env Env, h agentHook, args []string) (agent.Event, error) {
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	if args[0] == "notify" && h.notify != nil {
		return h.notify(args[1:], getenv)
	}
	ev, err := h.decode(env.Stdin, 0)
	if err == nil && h.locate != nil {
		ev = h.locate(ev, getenv)
	}
	return ev, err
}

// codexRollout gives a Stop or PreCompact whose transcript_path is null
// the session's rollout under $CODEX_HOME.
func codexRollout(ev agent.Event, getenv func(string) string) agent.Event {
	return codex.WithRollout(ev, codex.Home(getenv("CODEX_HOME"), getenv("HOME")))
}

// codexNotify is Codex's legacy notify: its rollout is found under
// $CODEX_HOME (~/.codex by default).
func codexNotify(args []string, getenv func(string) string) (agent.Event, error) {
	return codex.NotifyEvent(args, codex.Home(getenv("CODEX_HOME"), getenv("HOME")))
}

// hookWorkspace opens the workspace of the agent's working directory
// (the hook's own when the input names none).
func hookWorkspace(ctx context.Context, env Env, g *globalOptions, cwd string) (*workspace.Workspace, error) {
	e := workspaceEnv(env)
	if cwd != "" && filepath.IsAbs(cwd) {
		if fi, err := os.Stat(cwd); err == nil && fi.IsDir() {
			e.Dir = cwd
		}
	}
	e.Warn = nil // a hook's stderr is the agent's; config warnings are for commands
	return workspace.Open(ctx, e, workspaceOptions(g))
}

// spawner starts background runs of this program from w's root.
func spawner(env Env, w *workspace.Workspace, name string) handler.Spawner {
	exe, err := os.Executable()
	if err != nil {
		exe = os.Args[0]
	}
	s := handler.Spawner{Exe: exe, Dir: w.Root, Log: handler.LogFile(handler.StateDir(w), name), Shared: w.SharedPerm}
	if env.Environ != nil {
		s.Env = env.Environ()
	}
	return s
}

// runAgentBackground is the detached run a hook started: its output is
// the agent's log. It answers nobody, so it fails only on a bad command
// line.
func runAgentBackground(ctx context.Context, env Env, g *globalOptions, name string, h agentHook, args []string) error {
	if len(args) > 0 && args[0] == "--" {
		args = args[1:]
	}
	job, err := handler.ParseJob(name, args)
	if err != nil {
		return usageError("%v", err)
	}
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	limitMemory(env)
	log := func(msg string) {
		fmt.Fprintf(env.Stderr, "%s session %s: %s\n", env.Now().UTC().Format(time.RFC3339), quote.Value(job.Session), msg)
	}
	if err := handler.Run(ctx, w, job, handler.RunOptions{Format: h.format, MaxRuns: defaultMaxRuns, Now: env.Now, Log: log,
		// a command: model runs its agent CLI with git yoimem mcp --run
		Engine: setup.EngineOptions{Serve: serveRun(env.Stderr)}}); err != nil {
		log(err.Error())
		return cannotRun(err)
	}
	return nil
}
