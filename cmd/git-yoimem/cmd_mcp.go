package main

import (
	"context"
	"fmt"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/mcp"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/workspace"
)

type mcpOptions struct {
	write           bool
	maxMessageBytes int
	run             string
}

func newMCPCommand(env Env, g *globalOptions) *cli.Command {
	var opts mcpOptions
	return &cli.Command{
		Name:      "mcp",
		Usage:     "serve the memory tools to an MCP client over stdio",
		UsageText: "git yoimem mcp [--write]\ngit yoimem mcp --run RUN-ID",
		Description: `Runs an MCP server on stdin/stdout (newline-delimited JSON-RPC) with the
tools knowledge_search, memory_search and memory_read; with --write also
memory_write, memory_edit and memory_delete, each linted first (a refusal
is a tool error listing the findings). Register it with a client, e.g.
in .mcp.json: {"mcpServers": {"yoimem": {"command": "git",
"args": ["yoimem", "mcp"]}}}. One server process is one agent session:
the searches and reads it serves are recorded as usage under --session or
YOIMEM_SESSION, else under an id of its own, mcp-<UUIDv7>.

A line that is not a JSON-RPC 2.0 message is answered with an error
(-32700 parse error, -32600 invalid request; batches are not supported)
and serving goes on; so is a line over --max-message-bytes, which is
skipped without being held in memory. When input ends, every request
already read is finished and answered, then the server exits 0.

With --run, it is the server of a consolidation run whose model is an
agent CLI (a command: model; docs/consolidate.md): the run starts the
CLI with this server in its MCP configuration, and the server serves
the run's memory (the changes of the run so far, not the working tree)
through the consolidation agent's tools and report, with the run's
checks. It attaches to the run with the token in YOIMEM_RUN_TOKEN; an
unknown or finished run is an error (exit 2), a wrong token a refusal
(exit 1).`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "write", Usage: "also serve the write tools", Destination: &opts.write},
			&cli.StringFlag{Name: "run", Usage: "serve consolidation run `ID` to the agent CLI it started", Destination: &opts.run},
			&cli.IntFlag{Name: "max-message-bytes", Value: mcp.DefaultMaxMessageBytes, Usage: "longest message (line) read; a longer one is refused with -32600", Destination: &opts.maxMessageBytes},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("mcp takes no arguments")
			}
			if c.IsSet("run") {
				if opts.write {
					return usageError("--run serves a run's own tools; leave --write out")
				}
				return runMCPRun(c.Context, env, g, opts.run)
			}
			return runMCP(c.Context, env, g, opts)
		},
	}
}

func runMCP(ctx context.Context, env Env, g *globalOptions, opts mcpOptions) error {
	if opts.maxMessageBytes <= 0 {
		return cannotRun(fmt.Errorf("--max-message-bytes %d: want a positive number of bytes", opts.maxMessageBytes),
			fmt.Sprintf("leave it out for the default, --max-message-bytes %d (16 MiB)", mcp.DefaultMaxMessageBytes))
	}
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	if _, err := worktreeSnapshot(w); err != nil {
		return err
	}
	tools := w.Tools()
	srch := w.Searcher()
	defer srch.Save()
	srv := mcp.NewServer(tools, mcp.Options{
		Searcher: srch.Search,
		Write:    opts.write,
		Version:  version(),
		Log:      env.Stderr,
		Used:     mcpUsage(env, g, w),
		Search: memory.Options{
			MaxResults:   int(w.Config.Int(config.KeySearchMaxResults)),
			ExcerptLines: int(w.Config.Int(config.KeySearchExcerptLines)),
		},
	})
	t := &mcp.Transport{In: env.Stdin, Out: env.Stdout, MaxMessageBytes: opts.maxMessageBytes, Log: env.Stderr}
	err = srv.Run(ctx, t)
	switch {
	case ctx.Err() != nil:
		return ctx.Err() // interrupted: run says so and exits 130
	case err != nil:
		return cannotRun(fmt.Errorf("mcp: %w", err))
	}
	return nil
}

// mcpUsage records the reads the server serves. One server process is one
// agent session (its client starts it), so without --session or
// YOIMEM_SESSION it records them under an id of its own, mcp-<UUIDv7>;
// a bad YOIMEM_SESSION (checkSession warned) records nothing.
func mcpUsage(env Env, g *globalOptions, w *workspace.Workspace) func(how string, paths ...string) {
	id := session(env, g)
	if id == "" && !g.ignoreEnvSession {
		id = workspace.OwnSession("mcp-")
	}
	return func(how string, paths ...string) {
		if err := w.RecordUse(id, how, paths...); err != nil {
			warnf(env.Stderr, "usage not recorded: %v", err)
		}
	}
}
