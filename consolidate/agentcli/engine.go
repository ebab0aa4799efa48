package agentcli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
	"io"
	"net"
	"os"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/consolidate/agent"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/memory"
)

// DefaultTimeout bounds an agent CLI's run when no timeout is set
// (SettingTimeout).
const DefaultTimeout = 30 * time.Minute

// SettingTimeout is the configuration key of the deadline.
const SettingTimeout = "yoimem.consolidate.commandTimeoutSeconds"

// ServerName is the MCP server's name in the configuration the CLI gets:
// its tools are mcp__yoimem__<tool> in Claude Code.
const ServerName = "yoimem"

// Engine runs consolidation through an agent CLI (a command: model).
// Any error of Run means the run's changes must not be committed.
type Engine struct {
	// Spec is the model string, command:<argv>; argv may hold the
	// placeholders {mcp_config}, {prompt_file} and {run_id}.
	Spec string
	// RunsDir holds the runs' sockets, address files, briefs and logs
	// (<git-common-dir>/yoimem/runs).
	RunsDir string
	// Shared is the repository's core.sharedRepository: RunsDir, in its
	// git directory, is made as git makes its directories there (a run's
	// own files stay private).
	Shared sharedperm.Source
	// Dir is the CLI's working directory: the workspace root.
	Dir string
	// Server is the MCP server's command before "mcp --run <run-id>";
	// nil: git -C <Dir> yoimem.
	Server []string
	// Timeout bounds the CLI's run; 0: DefaultTimeout.
	Timeout time.Duration
	// Serve serves MCP over one connection of the CLI's server until it
	// ends (the command wires package mcp's).
	Serve func(ctx context.Context, rw io.ReadWriteCloser, v *agent.Served) error
	Brief agent.BriefOptions
	// Search are the searches' limits (yoimem.search.*).
	Search memory.Options
	// Env is the CLI's environment, without the run's variables; nil:
	// this process's.
	Env []string
	// MaxOutput bounds the CLI's stdout kept; 0: llm.DefaultMaxReplyBytes.
	MaxOutput int64
	// Progress, if set, is told when the CLI starts (EventTurn, Target
	// the command and its timeout), about each tool call and the report
	// (Turn and MaxTurns are 0: the CLI counts its own turns).
	Progress func(agent.Event)
}

// Name is the engine's name in the Yoimem-Engine trailer: the llm
// engine's, with the CLI as the model.
func (e Engine) Name() string { return "llm" }

// Model is the model string.
func (e Engine) Model() string { return e.Spec }

// CLIError is an agent CLI's run that did not end with a report: the
// command, what went wrong and the log that holds its output.
type CLIError struct {
	Command string // argv[0]
	Log     string // the run's log
	Err     error
}

func (e *CLIError) Error() string {
	s := fmt.Sprintf("agent CLI %s: %v", e.Command, e.Err)
	if e.Log != "" {
		s += "; its output is in " + e.Log
	}
	return s
}

func (e *CLIError) Unwrap() error { return e.Err }

// ErrExit: the CLI exited with a nonzero status.
var ErrExit = errors.New("exited with a nonzero status")

// ErrTimeout: the CLI was killed at the deadline.
var ErrTimeout = errors.New("killed at the timeout")

// Run gives the CLI the brief and the run's MCP server, waits for it and
// checks that it reported.
func (e Engine) Run(ctx context.Context, s *consolidate.Session) error {
	argv, err := llm.SplitArgv(strings.TrimPrefix(e.Spec, "command:"))
	if err != nil {
		return fmt.Errorf("model %s: %w", e.Spec, err)
	}
	if e.Serve == nil {
		return errors.New("agent CLI: no MCP server to serve the run")
	}
	v, err := agent.Serve(s, e.Brief, e.Search)
	if err != nil {
		return err
	}
	runID := s.Input().RunID
	files, err := e.writeFiles(runID, v)
	if err != nil {
		return err
	}
	defer files.remove()
	log, err := openLog(files.log)
	if err != nil {
		return err
	}
	defer log.Close()
	pruneLogs(e.RunsDir, KeepLogs)
	v.Observe = func(name string, _ json.RawMessage, r agent.CallResult) {
		log.call(name, r)
		e.observe(name, r, v)
	}
	l, err := listen(e.RunsDir, runID)
	if err != nil {
		return err
	}
	defer l.close()
	if err := files.writeConfig(e.server(runID), l.token); err != nil {
		return err
	}
	runCtx, cancel := context.WithTimeout(ctx, e.timeout())
	defer cancel()
	go l.serve(runCtx, func(ctx context.Context, c net.Conn) {
		if err := e.Serve(ctx, c, v); err != nil && ctx.Err() == nil {
			log.note("MCP connection: %v", err)
		}
	})
	argv = expand(argv, files, runID)
	log.start(argv)
	if e.Progress != nil {
		e.Progress(agent.Event{Kind: agent.EventTurn, Target: argv[0] + " (timeout " + e.timeout().String() + ")"})
	}
	ex := llm.OSExec{Dir: e.Dir, Env: e.env(files, runID, l.token)}
	res, err := ex.Exec(runCtx, argv, []byte(v.Prompt(ServerName)), e.maxOutput())
	l.close()
	v.Stop()
	log.output(res)
	return e.outcome(ctx, runCtx, argv[0], files.log, res, err, v)
}

// outcome judges the CLI's run once it exited.
func (e Engine) outcome(ctx, runCtx context.Context, cmd, logPath string, res llm.ExecResult, err error, v *agent.Served) error {
	fail := func(err error) error { return &CLIError{Command: cmd, Log: logPath, Err: err} }
	switch {
	case ctx.Err() != nil:
		return ctx.Err() // interrupted: the CLI's group was killed
	case errors.Is(runCtx.Err(), context.DeadlineExceeded):
		return fail(fmt.Errorf("%w of %s (%s)", ErrTimeout, e.timeout(), SettingTimeout))
	case errors.Is(err, llm.ErrStdoutLimit):
		return fail(fmt.Errorf("printed more than %d bytes on stdout (%s)", e.maxOutput(), "yoimem.llm.maxReplyBytes"))
	case err != nil:
		return fail(err)
	case v.Err() != nil:
		return fail(v.Err())
	case res.ExitCode != 0:
		return fail(fmt.Errorf("%w (%d): %s", ErrExit, res.ExitCode, llm.FirstLines(string(res.Stderr), 5)))
	}
	if _, ok := v.Reported(); !ok {
		why := "it exited without calling report"
		if unseen := v.Unseen(); len(unseen) > 0 {
			why += "; staging entries not read whole nor drawn on: " + strings.Join(limitList(unseen, 20), ", ")
		}
		return fail(fmt.Errorf("%w: %s", agent.ErrNoReport, why))
	}
	return nil
}

func limitList(l []string, n int) []string {
	if len(l) <= n {
		return l
	}
	return append(l[:n:n], fmt.Sprintf("and %d more", len(l)-n))
}

func (e Engine) observe(name string, r agent.CallResult, v *agent.Served) {
	if e.Progress == nil {
		return
	}
	e.Progress(agent.Event{Kind: agent.EventTool, Tool: name, Target: r.Target, Refused: r.IsError})
	if name == agent.ToolReport && !r.IsError {
		e.Progress(agent.Event{Kind: agent.EventReport})
	}
}

func (e Engine) server(runID string) []string {
	srv := e.Server
	if len(srv) == 0 {
		// -C: the server finds the run wherever the CLI starts it
		srv = []string{"git", "-C", e.Dir, "yoimem"}
	}
	return append(append([]string(nil), srv...), "mcp", "--run", runID)
}

func (e Engine) timeout() time.Duration {
	if e.Timeout <= 0 {
		return DefaultTimeout
	}
	return e.Timeout
}

func (e Engine) maxOutput() int64 {
	if e.MaxOutput <= 0 {
		return llm.DefaultMaxReplyBytes
	}
	return e.MaxOutput
}

// The variables a run sets in its CLI's environment.
const (
	EnvRunID      = "YOIMEM_RUN_ID"
	EnvMCPConfig  = "YOIMEM_MCP_CONFIG"
	EnvPromptFile = "YOIMEM_PROMPT_FILE"
)

// env is the CLI's environment: the base, without any run variables of
// an outer run, and this run's.
func (e Engine) env(f runFiles, runID, token string) []string {
	base := e.Env
	if base == nil {
		base = os.Environ()
	}
	var out []string
	for _, kv := range base {
		k, _, _ := strings.Cut(kv, "=")
		if k == EnvRunID || k == EnvToken || k == EnvMCPConfig || k == EnvPromptFile {
			continue
		}
		out = append(out, kv)
	}
	return append(out, EnvRunID+"="+runID, EnvToken+"="+token, EnvMCPConfig+"="+f.config, EnvPromptFile+"="+f.prompt)
}
