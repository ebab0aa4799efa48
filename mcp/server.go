// Package mcp is git-yoimem's MCP front end: the memory tools and searches
// served to any MCP client (Claude Code, Codex CLI, the Yoi agent) over
// the official Go SDK, as memory.ToolDefs defines them. Read-only by
// default; the write tools only when asked. Nothing imports this package
// but the command.
package mcp

import (
	"context"
	"io"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yoimem/git-yoimem/memory"
)

// Options configure the server.
type Options struct {
	Write   bool           // also serve memory_write, memory_edit, memory_delete
	Search  memory.Options // yoimem.search.* limits
	Version string
	// Used, when set, is told about every explicit read (how: search, slug,
	// read) so that usage metrics see MCP clients too.
	Used func(how string, paths ...string)
	// Searcher, when set, runs the searches (the command's cached one);
	// nil searches a snapshot of tools.Store with the Search options.
	Searcher func(scope memory.Scope, q memory.Query) (memory.Result, error)
	// Log, when set, is told about a request whose handler panicked (it is
	// answered as an internal error and serving goes on).
	Log io.Writer
}

// NewServer returns a server for tools, offering them as memory.ToolDefs
// defines them. A refused write comes back as a tool error holding the
// linter's findings, for the model to fix.
func NewServer(tools *memory.Tools, opts Options) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "git-yoimem", Version: opts.Version}, nil)
	s.AddReceivingMiddleware(recoverPanics(opts.Log))
	searcher := opts.Searcher
	if searcher == nil {
		searcher = func(scope memory.Scope, q memory.Query) (memory.Result, error) {
			snap, err := tools.Store.Snapshot()
			if err != nil {
				return memory.Result{}, err
			}
			return memory.Search(snap, scope, q, opts.Search)
		}
	}
	search := func(scope memory.Scope) sdk.ToolHandlerFor[memory.SearchInput, memory.SearchOutput] {
		return func(_ context.Context, _ *sdk.CallToolRequest, in memory.SearchInput) (*sdk.CallToolResult, memory.SearchOutput, error) {
			res, err := searcher(scope, in.SearchQuery())
			if res.Hits == nil {
				res.Hits = []memory.Hit{}
			}
			if opts.Used != nil && len(res.Hits) > 0 {
				how := "search"
				if in.Slug != "" {
					how = "slug"
				}
				paths := make([]string, len(res.Hits))
				for i, h := range res.Hits {
					paths[i] = h.Path
				}
				opts.Used(how, paths...)
			}
			return nil, res, err
		}
	}
	sdk.AddTool(s, tool(memory.ToolKnowledgeSearch), search(memory.ScopeKnowledge))
	sdk.AddTool(s, tool(memory.ToolMemorySearch), search(memory.ScopeMemory))
	sdk.AddTool(s, tool(memory.ToolMemoryRead),
		func(_ context.Context, _ *sdk.CallToolRequest, in memory.PathInput) (*sdk.CallToolResult, memory.ReadOutput, error) {
			r, err := tools.Read(in.Path)
			if err == nil && opts.Used != nil {
				opts.Used("read", r.Path)
			}
			return nil, memory.ReadOutput{Content: string(r.Content), Blob: r.Blob}, err
		})
	if !opts.Write {
		return s
	}
	// A write received is carried out: the request's context ends when the
	// client hangs up or cancels, and a write stopped then would leave the
	// client not knowing whether it happened. The writers' lock wait is
	// bounded, and an interrupted server exits without writing anything
	// partial (every write is atomic).
	sdk.AddTool(s, tool(memory.ToolMemoryWrite),
		func(ctx context.Context, _ *sdk.CallToolRequest, in memory.WriteInput) (*sdk.CallToolResult, memory.WriteOutput, error) {
			w, err := tools.Write(context.WithoutCancel(ctx), in.Path, []byte(in.Content), memory.WriteOptions{Create: in.Create, Overwrite: in.Overwrite, Expect: in.Expect})
			return nil, memory.WriteOutput{Warnings: memory.Findings(w)}, err
		})
	sdk.AddTool(s, tool(memory.ToolMemoryEdit),
		func(ctx context.Context, _ *sdk.CallToolRequest, in memory.EditInput) (*sdk.CallToolResult, memory.WriteOutput, error) {
			w, err := tools.Edit(context.WithoutCancel(ctx), in.Path, in.Old, in.New, in.Expect)
			return nil, memory.WriteOutput{Warnings: memory.Findings(w)}, err
		})
	sdk.AddTool(s, tool(memory.ToolMemoryDelete),
		func(ctx context.Context, _ *sdk.CallToolRequest, in memory.DeleteInput) (*sdk.CallToolResult, memory.WriteOutput, error) {
			w, err := tools.Delete(context.WithoutCancel(ctx), in.Path, in.Expect)
			return nil, memory.WriteOutput{Warnings: memory.Findings(w)}, err
		})
	return s
}

// tool is the SDK's form of a memory tool: its name and description;
// the SDK infers its schemas from the handler's types, which are the
// definition's (TestToolsAsDefined).
func tool(name string) *sdk.Tool {
	d, _ := memory.ToolDefOf(name)
	return &sdk.Tool{Name: d.Name, Description: d.Description}
}
