// Package agentstub is a scripted stand-in for an agent CLI (claude -p,
// codex exec) run as a command: consolidation model, for tests: it reads
// the brief on stdin, starts the MCP server its configuration names as
// Claude Code does (the command with its args and env, stdio JSON-RPC:
// initialize, tools/list, tools/call), runs a scripted sequence of tool
// calls, checks each answer, and exits as the script says.
package agentstub

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Script is what the stand-in does.
type Script struct {
	Steps []Step `json:"steps"`
	// Exit is the status it exits with once the steps are done.
	Exit int `json:"exit"`
	// SleepSeconds, if set, is slept after the steps (a CLI that hangs).
	SleepSeconds int `json:"sleep_seconds"`
	// Stderr is printed on stderr before it exits.
	Stderr string `json:"stderr"`
	// PIDFile, if set, gets the stand-in's process ID when it starts.
	PIDFile string `json:"pid_file"`
}

// Step is one tool call, or a second server started with another token.
type Step struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
	// WantError: the call must come back as a tool error; Want: the
	// answer must hold this text.
	WantError bool   `json:"want_error"`
	Want      string `json:"want"`
	// Token, if set, starts the configured server again with this token
	// instead of calling a tool: it must exit nonzero, with Want on
	// stderr.
	Token *string `json:"token"`
}

type config struct {
	MCPServers map[string]server `json:"mcpServers"`
}

// Main runs the stand-in: agentstub --mcp-config FILE --script FILE
// [--prompt-file FILE]. It returns the exit status.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("agentstub", flag.ContinueOnError)
	fs.SetOutput(stderr)
	cfgPath := fs.String("mcp-config", "", "MCP configuration (Claude Code's shape)")
	scriptPath := fs.String("script", "", "the script")
	promptFile := fs.String("prompt-file", "", "the brief's file, compared with stdin")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	code, err := run(*cfgPath, *scriptPath, *promptFile, stdin, stdout, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "agentstub:", err)
		return 3
	}
	return code
}

func run(cfgPath, scriptPath, promptFile string, stdin io.Reader, stdout, stderr io.Writer) (int, error) {
	sc, err := start(cfgPath, scriptPath, promptFile, stdin)
	if err != nil {
		return 0, err
	}
	return sc.play(stdout, stderr)
}

// stub is a stand-in's run: the script and its server's configuration.
type stub struct {
	Script
	srv server
}

type server struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

func start(cfgPath, scriptPath, promptFile string, stdin io.Reader) (*stub, error) {
	prompt, err := io.ReadAll(stdin)
	if err != nil {
		return nil, err
	}
	if !bytes.Contains(prompt, []byte("Consolidation run")) {
		return nil, fmt.Errorf("the brief on stdin lacks the first message (%d bytes)", len(prompt))
	}
	if promptFile != "" {
		b, err := os.ReadFile(promptFile)
		if err != nil || !bytes.Equal(b, prompt) {
			return nil, fmt.Errorf("the prompt file %s is not the brief on stdin (%v)", promptFile, err)
		}
	}
	var st stub
	if err := readJSON(scriptPath, &st.Script); err != nil {
		return nil, err
	}
	var cfg config
	if err := readJSON(cfgPath, &cfg); err != nil {
		return nil, err
	}
	srv, ok := cfg.MCPServers["yoimem"]
	if !ok || len(cfg.MCPServers) != 1 {
		return nil, fmt.Errorf("%s: want exactly one server, yoimem", cfgPath)
	}
	st.srv = srv
	if st.PIDFile != "" {
		if err := os.WriteFile(st.PIDFile, []byte(fmt.Sprint(os.Getpid())), 0o600); err != nil {
			return nil, err
		}
	}
	return &st, nil
}

// play runs the script against the configured server.
func (sc *stub) play(stdout, stderr io.Writer) (int, error) {
	srv := sc.srv
	ctx := context.Background()
	cmd := func(token *string) *exec.Cmd {
		c := exec.Command(srv.Command, srv.Args...)
		c.Env = os.Environ()
		for k, v := range srv.Env {
			if token != nil && k == "YOIMEM_RUN_TOKEN" {
				v = *token
			}
			c.Env = append(c.Env, k+"="+v)
		}
		return c
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "agentstub", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &sdk.CommandTransport{Command: cmd(nil)}, nil)
	if err != nil {
		return 0, fmt.Errorf("start the MCP server %s %s: %w", srv.Command, strings.Join(srv.Args, " "), err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("tools/list: %w", err)
	}
	var names []string
	for _, t := range tools.Tools {
		names = append(names, t.Name)
	}
	var env []string
	for k := range srv.Env {
		env = append(env, k)
	}
	fmt.Fprintf(stdout, "server: %s %s (env %s)\n", srv.Command, strings.Join(srv.Args, " "), strings.Join(env, " "))
	fmt.Fprintf(stdout, "tools: %s\n", strings.Join(names, " "))
	for i, st := range sc.Steps {
		if err := step(ctx, cs, cmd, st, stdout); err != nil {
			return 0, fmt.Errorf("step %d: %w", i+1, err)
		}
	}
	if sc.SleepSeconds > 0 {
		time.Sleep(time.Duration(sc.SleepSeconds) * time.Second)
	}
	if sc.Stderr != "" {
		fmt.Fprintln(stderr, sc.Stderr)
	}
	return sc.Exit, nil
}

func step(ctx context.Context, cs *sdk.ClientSession, cmd func(*string) *exec.Cmd, st Step, stdout io.Writer) error {
	if st.Token != nil {
		c := cmd(st.Token)
		var errb bytes.Buffer
		c.Stderr = &errb
		err := c.Run()
		fmt.Fprintf(stdout, "second server: %v: %s", err, errb.String())
		if err == nil || !strings.Contains(errb.String(), st.Want) {
			return fmt.Errorf("a second server with token %q: %v, stderr %q; want a failure with %q", *st.Token, err, errb.String(), st.Want)
		}
		return nil
	}
	var args map[string]any
	if len(st.Input) > 0 {
		if err := json.Unmarshal(st.Input, &args); err != nil {
			return err
		}
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: st.Tool, Arguments: args})
	if err != nil {
		return fmt.Errorf("tools/call %s: %w", st.Tool, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	first, _, _ := strings.Cut(text.String(), "\n")
	fmt.Fprintf(stdout, "%s: error=%v: %s\n", st.Tool, res.IsError, first)
	if res.IsError != st.WantError || !strings.Contains(text.String(), st.Want) {
		return fmt.Errorf("%s: error %v, %q; want error %v and %q", st.Tool, res.IsError, text.String(), st.WantError, st.Want)
	}
	return nil
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := json.Unmarshal(b, v); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return nil
}
