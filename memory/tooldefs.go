package memory

import (
	"reflect"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
)

// The memory tools as a model is offered them: one definition of each
// tool's name, description and input and output (whose json and
// jsonschema tags are its schemas), for every front end that offers them
// to a model: the MCP server (package mcp) and the consolidation agent.
// docs/retrieval.md describes them for people.

// The tools' names.
const (
	ToolKnowledgeSearch = "knowledge_search"
	ToolMemorySearch    = "memory_search"
	ToolMemoryRead      = "memory_read"
	ToolMemoryWrite     = "memory_write"
	ToolMemoryEdit      = "memory_edit"
	ToolMemoryDelete    = "memory_delete"
)

// ToolDef is one memory tool.
type ToolDef struct {
	Name        string
	Description string
	// Writes: the tool changes records (offered only when writing is
	// allowed).
	Writes bool
	// Input and Output are the Go types of the tool's arguments and
	// result; InputSchema and OutputSchema are theirs.
	Input, Output reflect.Type
}

// ToolDefs are the memory tools, the read tools first.
func ToolDefs() []ToolDef {
	return []ToolDef{
		{Name: ToolKnowledgeSearch, Input: reflect.TypeFor[SearchInput](), Output: reflect.TypeFor[SearchOutput](),
			Description: "Search the project's knowledge records (.yoi/knowledge/*.md): rules, facts, how-tos, terms, policies. Give query (search terms), kind alone to list that kind, or slug alone to read one record whole."},
		{Name: ToolMemorySearch, Input: reflect.TypeFor[SearchInput](), Output: reflect.TypeFor[SearchOutput](),
			Description: "Search the project's memory: the summary, decisions (open/resolved/replaced) and user requests. Give query (search terms), kind alone (summary, decision, request) to list that kind, or slug alone to read one record whole."},
		{Name: ToolMemoryRead, Input: reflect.TypeFor[PathInput](), Output: reflect.TypeFor[ReadOutput](),
			Description: "Read one memory or knowledge record by its path (e.g. .yoi/knowledge/retry-policy.md). Also returns its blob id, which the write tools take as expect."},
		{Name: ToolMemoryWrite, Writes: true, Input: reflect.TypeFor[WriteInput](), Output: reflect.TypeFor[WriteOutput](),
			Description: "Write a whole memory or knowledge record. Creates a new one; an existing record is refused unless overwrite is true (or expect is its blob from memory_read): prefer memory_edit. Linted first; a refusal lists what to fix."},
		{Name: ToolMemoryEdit, Writes: true, Input: reflect.TypeFor[EditInput](), Output: reflect.TypeFor[WriteOutput](),
			Description: "Replace text that occurs exactly once in a record. Linted first. With expect (the blob from memory_read), refused if the record changed since."},
		{Name: ToolMemoryDelete, Writes: true, Input: reflect.TypeFor[DeleteInput](), Output: reflect.TypeFor[WriteOutput](),
			Description: "Delete a request or knowledge record (decisions are replaced, not deleted; the summary is rewritten, never deleted)."},
	}
}

// ToolDefOf is the tool named name.
func ToolDefOf(name string) (ToolDef, bool) {
	for _, d := range ToolDefs() {
		if d.Name == name {
			return d, true
		}
	}
	return ToolDef{}, false
}

// InputSchema is the JSON schema of the tool's arguments, inferred from
// Input as the MCP SDK infers it.
func (d ToolDef) InputSchema() (*jsonschema.Schema, error) {
	return jsonschema.ForType(d.Input, &jsonschema.ForOptions{})
}

// OutputSchema is the JSON schema of the tool's result.
func (d ToolDef) OutputSchema() (*jsonschema.Schema, error) {
	return jsonschema.ForType(d.Output, &jsonschema.ForOptions{})
}

// SearchInput is knowledge_search's and memory_search's input. Every
// field is optional in the schema; Search decides which combinations it
// serves (a slug alone reads one record; neither terms nor a slug is a
// tool error the model can read).
type SearchInput struct {
	Query string `json:"query,omitempty" jsonschema:"search terms; every term must appear (case-insensitive, literal); optional with slug or kind"`
	Slug  string `json:"slug,omitempty" jsonschema:"return this one record whole (how #slug resolves); query may then be left out"`
	Kind  string `json:"kind,omitempty" jsonschema:"only this kind: rule, fact, howto… for knowledge; summary, decision, request for memory; alone, it lists that kind"`
}

// SearchQuery is the search the input asks for.
func (in SearchInput) SearchQuery() Query { return Query{Text: in.Query, Slug: in.Slug, Kind: in.Kind} }

// SearchOutput lists the hits (paths from the workspace root, beginning
// with .yoi/), at most yoimem.search.maxResults of them, and how many
// more matched.
type SearchOutput = Result

// PathInput names a record: memory_read's input, and the path every tool
// that changes a record takes (embedded, here and in the consolidation
// agent's inputs, which extend these).
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
	PathInput
	Content   string `json:"content" jsonschema:"the whole record: --- frontmatter --- and Markdown body"`
	Create    bool   `json:"create,omitempty" jsonschema:"true to only create a new record (the default for a new path): refused when it exists"`
	Overwrite bool   `json:"overwrite,omitempty" jsonschema:"true to replace the record if it exists; without it (or expect) an existing record is refused: use memory_edit, or read it and write it whole"`
	Expect    string `json:"expect,omitempty" jsonschema:"the blob memory_read returned: replace the record only if it is still that version"`
}

// EditInput is memory_edit's input.
type EditInput struct {
	PathInput
	Old    string `json:"old" jsonschema:"text that occurs exactly once in the record"`
	New    string `json:"new" jsonschema:"its replacement"`
	Expect string `json:"expect,omitempty" jsonschema:"the blob memory_read returned: edit only if the record is still that version"`
}

// DeleteInput is memory_delete's input.
type DeleteInput struct {
	PathInput
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

// Findings converts the linter's findings to the tools' form; never nil,
// so that an output lists warnings as [] when there are none.
func Findings(fs []lint.Finding) []Finding {
	out := make([]Finding, 0, len(fs))
	for _, f := range fs {
		out = append(out, Finding{Path: record.DisplayPath(f.Path), Line: f.Line, Col: f.Col, Severity: f.Severity.String(), Rule: f.Rule, Message: f.Message})
	}
	return out
}
