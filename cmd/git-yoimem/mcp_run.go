package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"

	"github.com/yoimem/git-yoimem/consolidate/agent"
	"github.com/yoimem/git-yoimem/consolidate/agentcli"
	"github.com/yoimem/git-yoimem/consolidate/setup"
	"github.com/yoimem/git-yoimem/mcp"
)

// A command: consolidation model runs an agent CLI whose one MCP server
// is git yoimem mcp --run <run-id>: that process relays its stdio to the
// consolidation process, which serves the run's tools (serveRun) over
// the connection.

// serveRun serves a run's tools over one connection of its server.
func serveRun(log io.Writer) func(ctx context.Context, rw io.ReadWriteCloser, v *agent.Served) error {
	return func(ctx context.Context, rw io.ReadWriteCloser, v *agent.Served) error {
		var tools []mcp.RunTool
		for _, t := range v.Tools() {
			tools = append(tools, mcp.RunTool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
		}
		call := func(ctx context.Context, name string, in json.RawMessage) (string, bool, error) {
			r, err := v.Call(ctx, name, in)
			return r.Content, r.IsError, err
		}
		srv := mcp.NewRunServer(tools, call, mcp.Options{Version: version(), Log: log})
		return mcp.ServeConn(ctx, srv, rw, mcp.DefaultMaxMessageBytes, log)
	}
}

// runMCPRun is git yoimem mcp --run: attach to the run with the token
// its agent CLI was given, and relay stdio until the run closes it.
func runMCPRun(ctx context.Context, env Env, g *globalOptions, runID string) error {
	if err := agentcli.CheckRunID(runID); err != nil {
		return usageError("--run: %v", err)
	}
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	c, err := agentcli.Attach(ctx, setup.RunsDir(w), runID, env.Getenv(agentcli.EnvToken))
	switch {
	case errors.Is(err, agentcli.ErrNoRun):
		return cannotRun(err, "a consolidation run starts its own server for its agent CLI; 'git yoimem mcp' without --run serves the working tree")
	case errors.Is(err, agentcli.ErrRefused):
		return &exitError{code: exitFindings, err: err, hints: []string{"only the agent CLI a run starts may attach, with the token the run gives it in " + agentcli.EnvToken}}
	case err != nil:
		return cannotRun(err)
	}
	defer c.Close()
	err = agentcli.Relay(ctx, c, env.Stdin, env.Stdout)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	if err != nil {
		return cannotRun(err)
	}
	return nil
}
