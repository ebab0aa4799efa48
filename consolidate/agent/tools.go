package agent

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/memory"
)

// The tools' names: the memory tools' and the searches' are those of
// memory.ToolDefs, the one definition the MCP server serves too; report is
// the agent's own.
const (
	ToolMemoryRead      = memory.ToolMemoryRead
	ToolMemoryWrite     = memory.ToolMemoryWrite
	ToolMemoryEdit      = memory.ToolMemoryEdit
	ToolMemoryDelete    = memory.ToolMemoryDelete
	ToolKnowledgeSearch = memory.ToolKnowledgeSearch
	ToolMemorySearch    = memory.ToolMemorySearch
	ToolReport          = "report"
)

// The inputs extend the memory tools' (memory.PathInput's path, which the
// notes in toolDefs add to); the searches take memory.SearchInput as the
// MCP server does.

// ReadInput is memory_read's input: a record, or a staging entry of the
// run.
type ReadInput struct {
	memory.PathInput
}

// WriteInput is memory_write's input: a whole record, and the operation
// it is for the commit message.
type WriteInput struct {
	memory.PathInput
	Content     string   `json:"content,omitempty" jsonschema:"the whole record: --- frontmatter --- and Markdown body; for merge and split, the content of target. Leave out sources, last_sources, created_at and updated_at: code sets them. Not used by replace"`
	Operation   string   `json:"operation,omitempty" jsonschema:"add (the default for a new path), update (the default for an existing one), replace, merge, split, trim or rewrite"`
	Target      string   `json:"target,omitempty" jsonschema:"replace: the decision that replaces path (a path or its slug); merge: the record path is folded into; split: the new record that takes part of path"`
	Rest        string   `json:"rest,omitempty" jsonschema:"split: the whole content of path once the part moved out is gone"`
	Categories  []string `json:"categories,omitempty" jsonschema:"required for a tidy-up (merge, split, trim, rewrite): one or more of outdated, superseded, unused, noisy"`
	Reason      string   `json:"reason" jsonschema:"why, in one line: the commit message says it for this record"`
	StagingIDs  []string `json:"staging_ids,omitempty" jsonschema:"the staging entries the change draws on (e1, e2, … or their ids): code copies their sources into the record; a new decision or request needs at least one"`
	DerivedFrom []string `json:"derived_from,omitempty" jsonschema:"a new knowledge record: the records of the knowledge-candidate report it comes from"`
	KeepSources int      `json:"keep_sources,omitempty" jsonschema:"trim only: keep the newest N sources of a decision or request (git history keeps the rest)"`
}

// EditInput is memory_edit's input.
type EditInput struct {
	memory.PathInput
	Old         string   `json:"old,omitempty" jsonschema:"text that occurs exactly once in the record; may be left out only by a trim that just keeps fewer sources"`
	New         string   `json:"new,omitempty" jsonschema:"its replacement"`
	Operation   string   `json:"operation,omitempty" jsonschema:"update (the default), trim or rewrite"`
	Categories  []string `json:"categories,omitempty" jsonschema:"required for trim and rewrite: one or more of outdated, superseded, unused, noisy"`
	Reason      string   `json:"reason" jsonschema:"why, in one line: the commit message says it for this record"`
	StagingIDs  []string `json:"staging_ids,omitempty" jsonschema:"the staging entries the change draws on (e1, e2, … or their ids): code copies their sources into the record"`
	KeepSources int      `json:"keep_sources,omitempty" jsonschema:"trim only: keep the newest N sources of a decision or request"`
}

// DeleteInput is memory_delete's input: a drop.
type DeleteInput struct {
	memory.PathInput
	Categories []string `json:"categories" jsonschema:"one or more of outdated, superseded, unused, noisy"`
	Reason     string   `json:"reason" jsonschema:"why, in one line: the commit message says it for this record"`
}

// ReportInput is report's input.
type ReportInput struct {
	Summary string `json:"summary" jsonschema:"what this run changed and why, in a few lines, for the run's log"`
}

// toolDef is one tool: its name, description and input type.
type toolDef struct {
	name, description string
	input             any // a zero value of the input struct
	enums             map[string][]string
	// notes extend a shared field's description for the agent: what the
	// field means in a consolidation run, after the shared text.
	notes map[string]string
}

var operationsOfWrite = []string{"add", "update", "replace", "merge", "split", "trim", "rewrite"}

func categoryNames() []string {
	var out []string
	for _, c := range memlog.Categories() {
		out = append(out, string(c))
	}
	return out
}

func toolDefs() []toolDef {
	cats := categoryNames()
	search := func(name, more string) toolDef {
		d, _ := memory.ToolDefOf(name)
		return toolDef{name: d.Name, description: strings.TrimSpace(d.Description + " " + more), input: memory.SearchInput{}}
	}
	return []toolDef{
		{ToolMemoryRead, "Read one memory or knowledge record of the run's memory by its path, with what protects it; or a staging entry of this run in full (e1, e2, …). Reads are upkeep: they are not counted as usage.", ReadInput{}, nil,
			map[string]string{"path": "or a staging entry of this run: e1, e2, … or .yoi/memory/_staging/<id>.json"}},
		search(ToolKnowledgeSearch, "Knowledge is not in the first message: search it before you add or change knowledge."),
		search(ToolMemorySearch, ""),
		{ToolMemoryWrite, "Write a whole memory or knowledge record, as one operation of the commit: add (a new path), update (an existing one), replace (a decision by target: status replaced, replaced_by), merge (path folded into target; content is target's new content), split (part of path moved into the new record target; rest is path's remaining content), trim or rewrite. The principles and the linter check it first: a refusal is a tool error that says what to fix, and nothing changes.", WriteInput{},
			map[string][]string{"operation": operationsOfWrite, "categories": cats}, map[string]string{"path": "the record changed"}},
		{ToolMemoryEdit, "Replace text that occurs exactly once in a record, as an update, trim or rewrite of it. Checked like memory_write.", EditInput{},
			map[string][]string{"operation": {"update", "trim", "rewrite"}, "categories": cats}, map[string]string{"path": "the record changed"}},
		{ToolMemoryDelete, "Drop a request or knowledge record (a tidy-up: give categories and a reason). Decisions are replaced, never deleted; the summary is never deleted; a protected record, or one whose usage is unknown, is never dropped.", DeleteInput{},
			map[string][]string{"categories": cats}, map[string]string{"path": "the request or knowledge record dropped (decisions are replaced, never deleted; the summary is rewritten, never deleted)"}},
		{ToolReport, "End the run: a short summary of what you changed and why. Call it once, when you are done; calls after it are not run.", ReportInput{}, nil, nil},
	}
}

// Tools returns the tools offered to the model.
func Tools() ([]llm.Tool, error) {
	var out []llm.Tool
	for _, d := range toolDefs() {
		schema, err := inputSchema(d)
		if err != nil {
			return nil, fmt.Errorf("tool %s: %w", d.name, err)
		}
		out = append(out, llm.Tool{Name: d.name, Description: d.description, InputSchema: schema})
	}
	return out, nil
}

// inputSchema infers the tool's input schema from its struct (fields
// without omitempty are required; jsonschema tags describe them, as the
// MCP SDK infers them), types list fields as plain arrays (not "null or
// array", which some OpenAI-compatible servers refuse) and adds the enums.
func inputSchema(d toolDef) (json.RawMessage, error) {
	s, err := jsonschema.ForType(reflect.TypeOf(d.input), nil)
	if err != nil {
		return nil, err
	}
	for _, p := range s.Properties {
		if p.Items != nil {
			p.Type, p.Types = "array", nil
		}
	}
	for field, note := range d.notes {
		p := s.Properties[field]
		if p == nil {
			return nil, fmt.Errorf("no field %q for its note", field)
		}
		p.Description += "; " + note
	}
	for field, values := range d.enums {
		p := s.Properties[field]
		if p == nil {
			return nil, fmt.Errorf("no field %q for its enum", field)
		}
		if p.Items != nil {
			p = p.Items
		}
		for _, v := range values {
			p.Enum = append(p.Enum, v)
		}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(s); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(b.Bytes()), nil
}
