package main

import (
	"context"
	"errors"
	"io"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/mcp"
	"github.com/yoimem/git-yoimem/memory"
)

type mcpOptions struct {
	write bool
}

func newMCPCommand(env Env, g *globalOptions) *cli.Command {
	var opts mcpOptions
	return &cli.Command{
		Name:      "mcp",
		Usage:     "serve the memory tools to an MCP client over stdio",
		UsageText: "git yoimem mcp [--write]",
		Description: `Runs an MCP server on stdin/stdout (newline-delimited JSON-RPC) with the
tools knowledge_search, memory_search and memory_read; with --write also
memory_write, memory_edit and memory_delete, each linted first (a refusal
is a tool error listing the findings). Register it with a client, e.g.
in .mcp.json: {"mcpServers": {"yoimem": {"command": "git",
"args": ["yoimem", "mcp"]}}}.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "write", Usage: "also serve the write tools", Destination: &opts.write},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("mcp takes no arguments")
			}
			return runMCP(c.Context, env, g, opts)
		},
	}
}

func runMCP(ctx context.Context, env Env, g *globalOptions, opts mcpOptions) error {
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	if _, err := worktreeSnapshot(env, w); err != nil {
		return err
	}
	tools := worktreeTools(w)
	srch := newSearcher(env, w)
	defer srch.save()
	srv := mcp.NewServer(tools, mcp.Options{
		Searcher: srch.search,
		Write:    opts.write,
		Version:  version(),
		Used:     func(how string, paths ...string) { recordUse(env, g, w, how, paths...) },
		Search: memory.Options{
			MaxResults:   int(w.cfg.Int(config.KeySearchMaxResults)),
			ExcerptLines: int(w.cfg.Int(config.KeySearchExcerptLines)),
		},
	})
	t := &sdk.IOTransport{Reader: io.NopCloser(env.Stdin), Writer: nopWriteCloser{env.Stdout}}
	if err := srv.Run(ctx, t); err != nil && !errors.Is(err, io.EOF) && ctx.Err() == nil {
		return cannotRun(err)
	}
	return nil
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
