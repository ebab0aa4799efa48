// Package mcp is git-yoimem's MCP front end: the memory tools and searches
// served to any MCP client (Claude Code, Codex CLI, the Yoi agent) over
// the official Go SDK. Read-only by default; the write tools only when
// asked. Nothing imports this package but the command.
package mcp

import (
	"context"
	"io"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
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

// SearchInput is knowledge_search's and memory_search's input. Every
// field is optional in the schema; memory.Search decides which
// combinations it serves (a slug alone reads one record; neither terms
// nor a slug is a tool error the model can read).
type SearchInput struct {
	Query string `json:"query,omitempty" jsonschema:"search terms; every term must appear (case-insensitive, literal); optional with slug"`
	Slug  string `json:"slug,omitempty" jsonschema:"return this one record whole (how #slug resolves); query may then be left out"`
	Kind  string `json:"kind,omitempty" jsonschema:"only this kind: rule, fact, howto… for knowledge; summary, decision, request for memory"`
}

// SearchOutput lists the hits (paths from the workspace root, beginning
// with .yoi/), at most yoimem.search.maxResults of them, and how many
// more matched.
type SearchOutput = memory.Result

// PathInput names a record.
type PathInput struct {
	Path string `json:"path" jsonschema:"record path, e.g. .yoi/knowledge/retry-policy.md (or knowledge/retry-policy.md)"`
}

// ReadOutput is a record's content and blob id.
type ReadOutput struct {
	Content string `json:"content"`
	Blob    string `json:"blob"`
}

// WriteInput is memory_write's input.
type WriteInput struct {
	Path      string `json:"path" jsonschema:"record path, e.g. .yoi/knowledge/retry-policy.md"`
	Content   string `json:"content" jsonschema:"the whole record: --- frontmatter --- and Markdown body"`
	Create    bool   `json:"create,omitempty" jsonschema:"true to only create a new record (the default for a new path): refused when it exists"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"true to replace the record if it exists; without it (or expect) an existing record is refused: use memory_edit, or read it and write it whole"`
	Expect    string `json:"expect,omitempty" jsonschema:"the blob memory_read returned: replace the record only if it is still that version"`
}

// EditInput is memory_edit's input.
type EditInput struct {
	Path   string `json:"path" jsonschema:"record path, e.g. .yoi/knowledge/retry-policy.md"`
	Old    string `json:"old" jsonschema:"text that occurs exactly once in the record"`
	New    string `json:"new" jsonschema:"its replacement"`
	Expect string `json:"expect,omitempty" jsonschema:"the blob memory_read returned: edit only if the record is still that version"`
}

// DeleteInput is memory_delete's input.
type DeleteInput struct {
	Path   string `json:"path" jsonschema:"record path, e.g. .yoi/knowledge/retry-policy.md"`
	Expect string `json:"expect,omitempty" jsonschema:"the blob memory_read returned: delete only if the record is still that version"`
}

// WriteOutput reports the linter's warnings about an accepted write.
type WriteOutput struct {
	Warnings []Finding `json:"warnings"`
}

// Finding is a linter finding as the tools report it: the path from the
// workspace root (".yoi/knowledge/x.md"), the severity as a word.
type Finding struct {
	Path     string `json:"path"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity" jsonschema:"error or warning"`
	Rule     string `json:"rule"`
	Message  string `json:"message"`
}

// NewServer returns a server for tools. A refused write comes back as a
// tool error holding the linter's findings, for the model to fix.
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
	search := func(scope memory.Scope) sdk.ToolHandlerFor[SearchInput, SearchOutput] {
		return func(_ context.Context, _ *sdk.CallToolRequest, in SearchInput) (*sdk.CallToolResult, SearchOutput, error) {
			res, err := searcher(scope, memory.Query{Text: in.Query, Slug: in.Slug, Kind: in.Kind})
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
	sdk.AddTool(s, &sdk.Tool{Name: "knowledge_search", Description: "Search the project's knowledge records (knowledge/*.md): rules, facts, how-tos. Give query (search terms), kind alone to list that kind, or slug alone to read one record whole."}, search(memory.ScopeKnowledge))
	sdk.AddTool(s, &sdk.Tool{Name: "memory_search", Description: "Search the project's memory: the summary, decisions (open/resolved/replaced) and user requests. Give query (search terms), kind alone to list that kind, or slug alone to read one record whole."}, search(memory.ScopeMemory))
	sdk.AddTool(s, &sdk.Tool{Name: "memory_read", Description: "Read one memory or knowledge record by its path (e.g. .yoi/knowledge/retry-policy.md). Also returns its blob id, which the write tools take as expect."},
		func(_ context.Context, _ *sdk.CallToolRequest, in PathInput) (*sdk.CallToolResult, ReadOutput, error) {
			r, err := tools.Read(in.Path)
			if err == nil && opts.Used != nil {
				opts.Used("read", r.Path)
			}
			return nil, ReadOutput{Content: string(r.Content), Blob: r.Blob}, err
		})
	if !opts.Write {
		return s
	}
	// A write received is carried out: the request's context ends when the
	// client hangs up or cancels, and a write stopped then would leave the
	// client not knowing whether it happened. The writers' lock wait is
	// bounded, and an interrupted server exits without writing anything
	// partial (every write is atomic).
	sdk.AddTool(s, &sdk.Tool{Name: "memory_write", Description: "Write a whole memory or knowledge record. Creates a new one; an existing record is refused unless overwrite is true (or expect is its blob from memory_read): prefer memory_edit. Linted first; a refusal lists what to fix."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in WriteInput) (*sdk.CallToolResult, WriteOutput, error) {
			w, err := tools.Write(context.WithoutCancel(ctx), in.Path, []byte(in.Content), memory.WriteOptions{Create: in.Create, Overwrite: in.Overwrite, Expect: in.Expect})
			return nil, WriteOutput{Warnings: findings(w)}, err
		})
	sdk.AddTool(s, &sdk.Tool{Name: "memory_edit", Description: "Replace text that occurs exactly once in a record. Linted first. With expect (the blob from memory_read), refused if the record changed since."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in EditInput) (*sdk.CallToolResult, WriteOutput, error) {
			w, err := tools.Edit(context.WithoutCancel(ctx), in.Path, in.Old, in.New, in.Expect)
			return nil, WriteOutput{Warnings: findings(w)}, err
		})
	sdk.AddTool(s, &sdk.Tool{Name: "memory_delete", Description: "Delete a request or knowledge record (decisions are replaced, not deleted; the summary is rewritten, never deleted)."},
		func(ctx context.Context, _ *sdk.CallToolRequest, in DeleteInput) (*sdk.CallToolResult, WriteOutput, error) {
			w, err := tools.Delete(context.WithoutCancel(ctx), in.Path, in.Expect)
			return nil, WriteOutput{Warnings: findings(w)}, err
		})
	return s
}

// findings converts the linter's findings to the tools' form; never nil,
// so that the output lists warnings as [] when there are none.
func findings(fs []lint.Finding) []Finding {
	out := make([]Finding, 0, len(fs))
	for _, f := range fs {
		out = append(out, Finding{Path: record.DisplayPath(f.Path), Line: f.Line, Col: f.Col, Severity: f.Severity.String(), Rule: f.Rule, Message: f.Message})
	}
	return out
}
