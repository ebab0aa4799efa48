package sessionlog

import (
	"bytes"
	"strings"

	"github.com/yoimem/git-yoimem/internal/tokens"
)

// Claude Code transcripts (docs/session-log.md, "Claude Code"): one JSON object per
// line with a "type"; conversation lines carry "message" in the Anthropic
// API shape. One API response is written as several assistant lines, one
// per content block, sharing message.id and repeating usage.

type claudeParser struct{}

// ccLine holds the raw values of the top-level fields a reader looks at.
type ccLine struct {
	typ, subtype, sessionID, timestamp, requestID []byte
	message, attachment, content                  []byte
	sidechain, meta, compactSummary, apiError     bool
}

func readCCLine(text []byte) (ccLine, bool) {
	var l ccLine
	o := newObject(text)
	for o.next() {
		switch v := o.val; string(o.key) {
		case "type":
			l.typ = v
		case "subtype":
			l.subtype = v
		case "sessionId":
			l.sessionID = v
		case "session_id":
			if l.sessionID == nil {
				l.sessionID = v
			}
		case "timestamp":
			l.timestamp = v
		case "requestId":
			l.requestID = v
		case "message":
			l.message = v
		case "attachment":
			l.attachment = v
		case "content":
			l.content = v
		case "isSidechain":
			l.sidechain = boolValue(v)
		case "isMeta":
			l.meta = boolValue(v)
		case "isCompactSummary":
			l.compactSummary = boolValue(v)
		case "isApiErrorMessage":
			l.apiError = boolValue(v)
		}
	}
	return l, o.err == nil && o.rest()
}

// ccMessage holds the raw values of a line's "message".
type ccMessage struct {
	id, model, content, usage []byte
}

func readCCMessage(raw []byte) ccMessage {
	var m ccMessage
	o := newObject(raw)
	for o.next() {
		switch string(o.key) {
		case "id":
			m.id = o.val
		case "model":
			m.model = o.val
		case "content":
			m.content = o.val
		case "usage":
			m.usage = o.val
		}
	}
	return m
}

func (claudeParser) mayCarryUsage(text []byte) bool {
	return bytes.Contains(text, []byte(`"usage"`))
}

func (claudeParser) usage(text []byte, st *state) *Usage {
	l, ok := readCCLine(text)
	if !ok || !rawIs(l.typ, "assistant") {
		return nil
	}
	m := readCCMessage(l.message)
	return ccUsage(&l, &m, st)
}

// ccUsage is an assistant line's usage, unless an earlier line of the same
// API message (same message.id, else requestId) was counted. Synthetic
// and API-error lines are no API call.
func ccUsage(l *ccLine, m *ccMessage, st *state) *Usage {
	if l.apiError || rawIs(m.model, "<synthetic>") || !isObject(m.usage) {
		return nil
	}
	id := stringValue(m.id)
	if id == "" {
		id = stringValue(l.requestID)
	}
	if !st.seen.add(id) {
		return nil
	}
	u := &Usage{MessageID: id}
	o := newObject(m.usage)
	for o.next() {
		switch string(o.key) {
		case "input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens":
			u.InputTokens = tokens.Add(u.InputTokens, tokenValue(o.val))
		case "output_tokens":
			u.OutputTokens = tokenValue(o.val)
		}
	}
	return u
}

func (claudeParser) entry(text []byte, st *state, e *Entry) {
	l, ok := readCCLine(text)
	if !ok {
		e.Problem = problem(text)
		return
	}
	e.Type = typeName(l.typ, l.subtype)
	e.SessionID = stringValue(l.sessionID)
	e.Time = parseTime(l.timestamp)
	e.Sidechain = l.sidechain
	switch {
	case rawIs(l.typ, "user"):
		ccUser(&l, e)
	case rawIs(l.typ, "assistant"):
		ccAssistant(&l, st, e)
	case rawIs(l.typ, "system"):
		e.Kind, e.Role, e.Text = KindMeta, RoleSystem, stringValue(l.content)
		if rawIs(l.subtype, "compact_boundary") {
			e.Kind = KindCompaction
		}
	case rawIs(l.typ, "attachment"):
		ccAttachment(&l, e)
	}
}

func ccUser(l *ccLine, e *Entry) {
	e.Role = RoleUser
	m := readCCMessage(l.message)
	text, results := ccUserContent(m.content)
	e.ToolResults = results
	switch {
	case l.compactSummary || l.meta:
		e.Kind, e.Injected, e.Text = KindMeta, true, text
	case len(results) > 0:
		e.Kind, e.Role = KindToolResult, RoleTool
		e.Text, _, _ = userText(text)
	default:
		clean, noise, injected := userText(text)
		switch {
		case noise && text != "":
			e.Kind, e.Injected, e.Text = KindMeta, injected, text
		case !noise:
			e.Kind, e.Text = KindMessage, clean
		}
	}
}

// ccUserContent reads a user message's content: a string, or blocks of
// text and tool results.
func ccUserContent(content []byte) (string, []ToolResult) {
	if isString(content) {
		return stringValue(content), nil
	}
	var texts []string
	var results []ToolResult
	a := newArray(content)
	for a.next() {
		b := readBlock(a.val)
		switch {
		case rawIs(b.typ, "text"):
			texts = append(texts, stringValue(b.text))
		case rawIs(b.typ, "tool_result"):
			summary, n := resultOf(b.content)
			results = append(results, ToolResult{CallID: stringValue(b.toolUseID), Summary: summary, Bytes: n, IsError: boolValue(b.isError)})
		}
	}
	return strings.Join(texts, "\n\n"), results
}

func ccAssistant(l *ccLine, st *state, e *Entry) {
	e.Role = RoleAssistant
	m := readCCMessage(l.message)
	e.Usage = ccUsage(l, &m, st)
	var texts []string
	thinking := false
	a := newArray(m.content)
	for a.next() {
		b := readBlock(a.val)
		switch {
		case rawIs(b.typ, "text"):
			texts = append(texts, stringValue(b.text))
		case rawIs(b.typ, "tool_use"):
			e.ToolCalls = append(e.ToolCalls, ToolCall{ID: stringValue(b.id), Name: stringValue(b.name), Summary: inputSummary(b.input)})
		case rawIs(b.typ, "thinking"), rawIs(b.typ, "redacted_thinking"):
			thinking = true
		}
	}
	e.Text = strings.Join(texts, "\n\n")
	switch {
	case l.apiError:
		e.Kind = KindMeta
	case strings.TrimSpace(e.Text) != "":
		e.Kind = KindMessage
	case len(e.ToolCalls) > 0:
		e.Kind = KindToolCall
	case thinking:
		e.Kind = KindReasoning
	}
}

// ccAttachment: harness side-data. hook_additional_context is where the
// text a SessionStart hook (git-yoimem's own context) injected is recorded.
func ccAttachment(l *ccLine, e *Entry) {
	e.Kind, e.Injected = KindMeta, true
	var typ, content []byte
	o := newObject(l.attachment)
	for o.next() {
		switch string(o.key) {
		case "type":
			typ = o.val
		case "content":
			content = o.val
		}
	}
	e.Type = typeName(l.typ, typ)
	if rawIs(typ, "hook_additional_context") {
		e.Text = joinStrings(content)
	}
}

// joinStrings reads a string, or an array of strings joined by newlines.
func joinStrings(v []byte) string {
	if isString(v) {
		return stringValue(v)
	}
	var parts []string
	a := newArray(v)
	for a.next() {
		if isString(a.val) {
			parts = append(parts, stringValue(a.val))
		}
	}
	return strings.Join(parts, "\n")
}
