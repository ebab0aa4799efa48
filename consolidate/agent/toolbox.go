package agent

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
)

// toolbox runs the model's tool calls against a session. Reads and
// searches go to the session's snapshot and record no usage: the agent's
// reads are upkeep, not use.
type toolbox struct {
	s        *consolidate.Session
	es       entries
	seen     []bool // entry i was shown whole, read whole, or drawn on
	search   memory.Options
	maxChars int // a tool result's bound, in characters
}

// toolError is a tool call the toolbox cannot run as given; the model
// reads the message and tries otherwise.
type toolError struct{ msg string }

func (e *toolError) Error() string { return e.msg }

func toolErr(format string, args ...any) error { return &toolError{fmt.Sprintf(format, args...)} }

// outcome is one tool call's answer.
type outcome struct {
	result  llm.ToolResult
	target  string // the path or query, for progress
	report  bool   // report was accepted: the run ends
	summary string // the report's summary
}

// call runs one tool call. A call the model can correct comes back as a
// tool error; the error return is for what ends the run (ctx, a failure
// to read the memory).
func (tb *toolbox) call(ctx context.Context, c llm.ToolCall) (outcome, error) {
	out := outcome{result: llm.ToolResult{CallID: c.ID}}
	text, err := tb.run(ctx, c, &out)
	var te *toolError
	var refusal *consolidate.Refusal
	switch {
	case errors.As(err, &refusal):
		text = refusal.Error() + "\nNothing changed. Fix what it says and call the tool again, or leave the record as it is."
		out.result.IsError = true
	case errors.As(err, &te):
		text = c.Name + ": " + te.msg
		out.result.IsError = true
	case err != nil:
		return out, err
	}
	out.result.Content = text
	return out, nil
}

func (tb *toolbox) run(ctx context.Context, c llm.ToolCall, out *outcome) (string, error) {
	if err := ctx.Err(); err != nil {
		return "", err
	}
	switch c.Name {
	case ToolMemoryRead:
		var in ReadInput
		if err := decode(c, &in); err != nil {
			return "", err
		}
		out.target = displayPath(in.Path)
		if i, ok := tb.es.lookup(in.Path); ok && !strings.Contains(in.Path, "/") {
			out.target = alias(i) // e1 is no path: not .yoi/e1
		}
		return tb.read(in)
	case ToolKnowledgeSearch, ToolMemorySearch:
		var in memory.SearchInput
		if err := decode(c, &in); err != nil {
			return "", err
		}
		out.target = strings.TrimSpace(in.Query + " " + in.Slug + " " + in.Kind)
		scope := memory.ScopeMemory
		if c.Name == ToolKnowledgeSearch {
			scope = memory.ScopeKnowledge
		}
		return tb.searchIn(scope, in)
	case ToolMemoryWrite:
		var in WriteInput
		if err := decode(c, &in); err != nil {
			return "", err
		}
		out.target = displayPath(in.Path)
		return tb.write(ctx, in)
	case ToolMemoryEdit:
		var in EditInput
		if err := decode(c, &in); err != nil {
			return "", err
		}
		out.target = displayPath(in.Path)
		return tb.edit(ctx, in)
	case ToolMemoryDelete:
		var in DeleteInput
		if err := decode(c, &in); err != nil {
			return "", err
		}
		out.target = displayPath(in.Path)
		return tb.apply(ctx, consolidate.Change{Kind: memlog.OpDrop, Path: in.Path, Categories: categories(in.Categories), Reason: in.Reason})
	case ToolReport:
		var in ReportInput
		if err := decode(c, &in); err != nil {
			return "", err
		}
		return tb.report(in, out)
	}
	return "", toolErr("no such tool; the tools are %s", strings.Join(toolNames(), ", "))
}

func toolNames() []string {
	var out []string
	for _, d := range toolDefs() {
		out = append(out, d.name)
	}
	return out
}

// decode reads a call's input strictly: a JSON object of the tool's
// fields and nothing else. Its errors name the fields, never Go types.
func decode(c llm.ToolCall, v any) error {
	input := bytes.TrimSpace(c.Input)
	if len(input) == 0 {
		input = []byte("{}")
	}
	dec := json.NewDecoder(bytes.NewReader(input))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil && dec.More() {
		err = errors.New("more than one JSON value")
	}
	var te *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &te) && te.Field == "":
		return toolErr("the input is a JSON %s, not an object of the fields %s", te.Value, strings.Join(jsonFields(v), ", "))
	case errors.As(err, &te):
		return toolErr("field %s is a JSON %s, want %s", te.Field, te.Value, jsonKind(te.Type))
	}
	return toolErr("the input is not a JSON object of the fields %s: %s", strings.Join(jsonFields(v), ", "), strings.TrimPrefix(oneLine(err.Error()), "json: "))
}

// jsonFields are the JSON names of the fields of the struct v points to,
// those of an embedded struct (memory.PathInput) included.
func jsonFields(v any) []string {
	var out []string
	for _, f := range reflect.VisibleFields(reflect.TypeOf(v).Elem()) {
		if f.Anonymous {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		out = append(out, name)
	}
	return out
}

// jsonKind names a Go type as JSON does.
func jsonKind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Bool:
		return "true or false"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "a number"
}

// bounded refuses a result over the bound, with its size and the setting.
func (tb *toolbox) bounded(what, text string) (string, error) {
	if n := utf8.RuneCountInString(text); n > tb.maxChars {
		return "", toolErr("%s is %s characters, over the limit of %s for one tool result (%s)", what, quote.Thousands(int64(n)), quote.Thousands(int64(tb.maxChars)), SettingBudget)
	}
	return text, nil
}

// read returns a record of the session's snapshot, under a line naming it
// and what guards it, or a staging entry of the run whole.
func (tb *toolbox) read(in ReadInput) (string, error) {
	if i, ok := tb.es.lookup(in.Path); ok {
		text, err := tb.bounded("staging entry "+alias(i), renderEntry(i, tb.es.list[i]))
		if err == nil {
			tb.seen[i] = true
		}
		return text, err
	}
	rel, err := record.ToolPath(in.Path)
	if err != nil {
		return "", toolErr("%v", err)
	}
	if strings.HasPrefix(rel, record.StagingDir+"/") {
		return "", toolErr("%s is not a staging entry of this run: %s", record.DisplayPath(rel), tb.es.names())
	}
	if record.Classify(rel).Area != record.AreaRecord {
		return "", toolErr("%s is not a record: memory_read reads .yoi/memory/summary.md, .yoi/memory/decisions/, .yoi/memory/requests/, .yoi/knowledge/ and this run's staging entries (e1, e2, …)", record.DisplayPath(rel))
	}
	snap := tb.s.Snapshot()
	if e, ok := snap.Lookup(rel); !ok || e.Mode != record.ModeRegular {
		return "", toolErr("%s: %v; find records with memory_search or knowledge_search", record.DisplayPath(rel), memory.ErrNotFound)
	}
	b, err := snap.Read(rel)
	var tl *record.TooLargeError
	switch {
	case errors.As(err, &tl):
		return "", toolErr("%v", tl)
	case errors.Is(err, record.ErrNotExist):
		return "", toolErr("%s: %v", record.DisplayPath(rel), memory.ErrNotFound)
	case err != nil:
		return "", fmt.Errorf("read %s: %w", record.DisplayPath(rel), err)
	}
	head := "=== " + record.DisplayPath(rel) + guardNotes(tb.s.Input(), tb.s.Protected(rel), rel) + " ===\n"
	return tb.bounded(record.DisplayPath(rel), head+string(b))
}

// guardNotes say what guards a record (locked, protected) and how much
// it is used (unused, or its frequency), when usage knows.
func guardNotes(in *consolidate.Input, protected bool, rel string) string {
	s := ""
	if in.Locked[rel] {
		s += " (locked: never changed)"
	}
	u, known := in.Usage[rel]
	known = known && u.Known
	switch {
	case protected && known:
		s += fmt.Sprintf(" (protected: %.2f uses per Mtoken)", u.Frequency)
	case protected:
		s += " (protected)"
	case known && u.Unused:
		s += " (unused)"
	case known:
		s += fmt.Sprintf(" (%.2f uses per Mtoken)", u.Frequency)
	}
	return s
}

// searchIn runs a search over the session's snapshot; its answer is the
// MCP server's (memory.Result as JSON).
func (tb *toolbox) searchIn(scope memory.Scope, in memory.SearchInput) (string, error) {
	res, err := memory.Search(tb.s.Snapshot(), scope, in.SearchQuery(), tb.search)
	if err != nil {
		return "", toolErr("%v", err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(res); err != nil {
		return "", err
	}
	return tb.bounded("the search's answer", b.String())
}

// write applies memory_write.
func (tb *toolbox) write(ctx context.Context, in WriteInput) (string, error) {
	op := in.Operation
	if op == "" {
		op = string(memlog.OpAdd)
		if _, ok := tb.current(in.Path); ok {
			op = string(memlog.OpUpdate)
		}
	}
	switch {
	case op == string(memlog.OpDrop):
		return "", toolErr("drop a record with memory_delete")
	case !slices.Contains(operationsOfWrite, op):
		return "", toolErr("unknown operation %q: want %s", op, strings.Join(operationsOfWrite, ", "))
	}
	ids, err := tb.stagingIDs(in.StagingIDs)
	if err != nil {
		return "", err
	}
	c := consolidate.Change{
		Kind: memlog.OpKind(op), Path: in.Path, Target: targetPath(in.Path, in.Target), Content: []byte(in.Content), Rest: []byte(in.Rest),
		Staging: ids, DerivedFrom: in.DerivedFrom, KeepSources: in.KeepSources, Categories: categories(in.Categories), Reason: in.Reason,
	}
	if err := tb.notReplacing(c); err != nil {
		return "", err
	}
	return tb.apply(ctx, c)
}

// edit applies memory_edit: one occurrence of old replaced by new.
func (tb *toolbox) edit(ctx context.Context, in EditInput) (string, error) {
	op := in.Operation
	if op == "" {
		op = string(memlog.OpUpdate)
	}
	if op != string(memlog.OpUpdate) && op != string(memlog.OpTrim) && op != string(memlog.OpRewrite) {
		return "", toolErr("operation %q: memory_edit makes an update, trim or rewrite; use memory_write for the others", op)
	}
	cur, ok := tb.current(in.Path)
	if !ok {
		return "", toolErr("%s: %v; find records with memory_search or knowledge_search", displayPath(in.Path), memory.ErrNotFound)
	}
	content := cur
	switch n := strings.Count(cur, in.Old); {
	case in.Old == "" && op == string(memlog.OpTrim) && in.KeepSources > 0:
		// only the sources are trimmed
	case in.Old == "":
		return "", toolErr("the text to replace (old) is empty")
	case n == 0:
		return "", toolErr("the text to replace does not occur in %s; read the record again", displayPath(in.Path))
	case n > 1:
		return "", toolErr("the text to replace occurs %d times in %s; give more context so that it occurs once", n, displayPath(in.Path))
	default:
		content = strings.Replace(cur, in.Old, in.New, 1)
	}
	ids, err := tb.stagingIDs(in.StagingIDs)
	if err != nil {
		return "", err
	}
	c := consolidate.Change{Kind: memlog.OpKind(op), Path: in.Path, Content: []byte(content), Staging: ids, KeepSources: in.KeepSources, Categories: categories(in.Categories), Reason: in.Reason}
	if err := tb.notReplacing(c); err != nil {
		return "", err
	}
	return tb.apply(ctx, c)
}

// current is a record's content in the session, if it exists.
func (tb *toolbox) current(path string) (string, bool) {
	rel, err := record.ToolPath(path)
	if err != nil || record.Classify(rel).Area != record.AreaRecord {
		return "", false
	}
	snap := tb.s.Snapshot()
	if e, ok := snap.Lookup(rel); !ok || e.Mode != record.ModeRegular {
		return "", false
	}
	b, err := snap.Read(rel)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// notReplacing refuses an update, trim or rewrite that sets a decision's
// status to replaced: that is operation replace, which the commit message
// records as one.
func (tb *toolbox) notReplacing(c consolidate.Change) error {
	if c.Kind != memlog.OpUpdate && c.Kind != memlog.OpTrim && c.Kind != memlog.OpRewrite {
		return nil
	}
	rel, err := record.ToolPath(c.Path)
	if err != nil || record.Classify(rel).Kind != record.KindDecision {
		return nil
	}
	cur, ok := tb.current(rel)
	if !ok {
		return nil
	}
	before, _, err1 := record.Decode(rel, []byte(cur))
	after, _, err2 := record.Decode(rel, c.Content)
	if err1 != nil || err2 != nil || before.Status == record.StatusReplaced || after.Status != record.StatusReplaced {
		return nil
	}
	return toolErr("to mark %s replaced, call memory_write with operation replace, target the decision that replaces it, and a reason (categories [superseded] if you like): the commit then records the replacement", record.DisplayPath(rel))
}

// targetPath resolves a target given as a slug to the path of the same
// kind of record as path (a replace names a decision by its slug).
func targetPath(path, target string) string {
	t := strings.TrimSpace(target)
	if t == "" || strings.Contains(t, "/") || strings.HasSuffix(t, ".md") || record.ValidateSlug(t) != nil {
		return target
	}
	rel, err := record.ToolPath(path)
	if err != nil {
		return target
	}
	if p := record.PathFor(record.Classify(rel).Kind, t); p != "" && p != record.SummaryPath {
		return p
	}
	return target
}

// stagingIDs resolves the entries a change names (e1, an ID, a staging
// path) to their IDs.
func (tb *toolbox) stagingIDs(names []string) ([]string, error) {
	var ids []string
	for _, n := range names {
		i, ok := tb.es.lookup(n)
		if !ok {
			return nil, toolErr("no staging entry %q: %s", n, tb.es.names())
		}
		ids = append(ids, tb.es.list[i].ID)
	}
	return ids, nil
}

func categories(names []string) []memlog.Category {
	var out []memlog.Category
	for _, n := range names {
		out = append(out, memlog.Category(strings.TrimSpace(n)))
	}
	return out
}

func displayPath(p string) string {
	if rel, err := record.ToolPath(p); err == nil {
		return record.DisplayPath(rel)
	}
	return p
}

// apply hands a change to the session: a refusal comes back to the model
// as a tool error; an accepted change is confirmed with the linter's
// warnings.
func (tb *toolbox) apply(ctx context.Context, c consolidate.Change) (string, error) {
	warnings, err := tb.s.Apply(ctx, c)
	if err != nil {
		return "", err
	}
	for _, id := range c.Staging {
		if i, ok := tb.es.lookup(id); ok {
			tb.seen[i] = true
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Done: %s %s", c.Kind, displayPath(c.Path))
	if c.Target != "" {
		fmt.Fprintf(&b, " -> %s", displayPath(c.Target))
	}
	if len(c.Staging) > 0 {
		var names []string
		for _, id := range c.Staging {
			i, _ := tb.es.lookup(id)
			names = append(names, alias(i))
		}
		fmt.Fprintf(&b, "; sources from %s attached", strings.Join(names, ", "))
	}
	b.WriteString(".\n")
	if len(warnings) > 0 {
		b.WriteString("The linter's warnings (not errors; act on them if you can):\n")
		for _, f := range warnings {
			fmt.Fprintf(&b, "  %s:%d:%d: %s %s: %s\n", record.DisplayPath(f.Path), f.Line, f.Col, f.Severity, f.Rule, f.Message)
		}
	}
	return b.String(), nil
}

// report accepts the final report once every staging entry was seen
// whole: shown in the first message, read, or drawn on by a change.
func (tb *toolbox) report(in ReportInput, out *outcome) (string, error) {
	summary := strings.TrimSpace(in.Summary)
	if summary == "" {
		return "", toolErr("give a summary of what this run changed and why")
	}
	var unseen []string
	for i, ok := range tb.seen {
		if !ok {
			unseen = append(unseen, alias(i))
		}
	}
	if len(unseen) > 20 {
		unseen = append(unseen[:20], fmt.Sprintf("and %d more", len(unseen)-20))
	}
	if len(unseen) > 0 {
		return "", toolErr("you have not read %s whole (cut or only listed in the first message): read each with memory_read, fold in what it holds, then report", strings.Join(unseen, ", "))
	}
	out.report, out.summary = true, summary
	return "Report received; the run ends.", nil
}
