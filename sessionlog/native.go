package sessionlog

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The native log (docs/session-log.md): one flat JSON object per line with
// "type", "ts" and "session_id", mirroring the Yoi agent's session store.

type nativeParser struct{}

// ntLine holds the raw values of a native line's fields.
type ntLine struct {
	typ, ts, sessionID, text, messageID, toolCalls   []byte
	callID, summary, content, bytes, usage           []byte
	inputTokens, outputTokens, domain, payload, role []byte
	isError, injected, sidechain                     bool
}

func readNativeLine(text []byte) (ntLine, bool) {
	var l ntLine
	o := newObject(text)
	for o.next() {
		switch v := o.val; string(o.key) {
		case "type":
			l.typ = v
		case "ts":
			l.ts = v
		case "session_id":
			l.sessionID = v
		case "text":
			l.text = v
		case "message_id":
			l.messageID = v
		case "tool_calls":
			l.toolCalls = v
		case "call_id":
			l.callID = v
		case "summary":
			l.summary = v
		case "content":
			l.content = v
		case "bytes":
			l.bytes = v
		case "usage":
			l.usage = v
		case "input_tokens":
			l.inputTokens = v
		case "output_tokens":
			l.outputTokens = v
		case "domain":
			l.domain = v
		case "payload":
			l.payload = v
		case "is_error":
			l.isError = boolValue(v)
		case "injected":
			l.injected = boolValue(v)
		case "sidechain":
			l.sidechain = boolValue(v)
		}
	}
	return l, o.err == nil && o.rest()
}

// mayCarryUsage: usage is on lines of type "usage" or in an assistant
// line's "usage" object; either way the bytes "usage" are on the line.
func (nativeParser) mayCarryUsage(text []byte) bool {
	return bytes.Contains(text, []byte(`"usage"`))
}

func (nativeParser) usage(text []byte, st *state) *Usage {
	l, ok := readNativeLine(text)
	if !ok {
		return nil
	}
	return nativeUsage(&l, st)
}

// nativeUsage reads usage from an assistant line's "usage" object or a
// usage line's own fields, once per message_id.
func nativeUsage(l *ntLine, st *state) *Usage {
	in, out := l.inputTokens, l.outputTokens
	switch {
	case rawIs(l.typ, "assistant") && isObject(l.usage):
		o := newObject(l.usage)
		for o.next() {
			switch string(o.key) {
			case "input_tokens":
				in = o.val
			case "output_tokens":
				out = o.val
			}
		}
	case rawIs(l.typ, "usage"):
	default:
		return nil
	}
	id := stringValue(l.messageID)
	if !st.seen.add(id) {
		return nil
	}
	return &Usage{MessageID: id, InputTokens: tokenValue(in), OutputTokens: tokenValue(out)}
}

func (nativeParser) entry(text []byte, st *state, e *Entry) {
	l, ok := readNativeLine(text)
	if !ok {
		e.Problem = problem(text)
		return
	}
	e.Type = stringValue(l.typ)
	e.Time = parseTime(l.ts)
	e.SessionID = stringValue(l.sessionID)
	e.Sidechain = l.sidechain
	switch {
	case rawIs(l.typ, "session"):
		e.Kind = KindMeta
	case rawIs(l.typ, "system"):
		e.Kind, e.Role, e.Injected, e.Text = KindMeta, RoleSystem, l.injected, stringValue(l.text)
	case rawIs(l.typ, "user"):
		nativeUser(&l, e)
	case rawIs(l.typ, "assistant"):
		nativeAssistant(&l, st, e)
	case rawIs(l.typ, "tool_result"):
		nativeResult(&l, e)
	case rawIs(l.typ, "usage"):
		e.Kind, e.Usage = KindUsage, nativeUsage(&l, st)
	case rawIs(l.typ, "compaction"):
		e.Kind, e.Text = KindCompaction, stringValue(l.summary)
	case rawIs(l.typ, "extension"):
		nativeExtension(&l, e)
	}
}

func nativeUser(l *ntLine, e *Entry) { userEntry(stringValue(l.text), l.injected, e) }

func nativeAssistant(l *ntLine, st *state, e *Entry) {
	e.Role, e.Text = RoleAssistant, stringValue(l.text)
	e.Usage = nativeUsage(l, st)
	a := newArray(l.toolCalls)
	for a.next() {
		var id, name, input, summary []byte
		o := newObject(a.val)
		for o.next() {
			switch string(o.key) {
			case "id":
				id = o.val
			case "name":
				name = o.val
			case "input":
				input = o.val
			case "summary":
				summary = o.val
			}
		}
		c := ToolCall{ID: stringValue(id), Name: stringValue(name), Summary: summaryOf(summary)}
		if c.Summary == "" {
			c.Summary = inputSummary(input)
		}
		e.ToolCalls = append(e.ToolCalls, c)
	}
	switch {
	case strings.TrimSpace(e.Text) != "":
		e.Kind = KindMessage
	case len(e.ToolCalls) > 0:
		e.Kind = KindToolCall
	case e.Usage != nil:
		e.Kind = KindUsage
	}
}

func nativeResult(l *ntLine, e *Entry) {
	e.Role, e.Kind = RoleTool, KindToolResult
	r := ToolResult{CallID: stringValue(l.callID), IsError: l.isError}
	if l.content != nil && string(l.content) != "null" {
		r.Summary, r.Bytes = resultOf(l.content)
	} else {
		r.Bytes = int(intValue(l.bytes))
	}
	if s := summaryOf(l.summary); s != "" {
		r.Summary = s
	}
	e.ToolResults = []ToolResult{r}
}

// nativeExtension passes the payload on undecoded, but only valid JSON: the
// walker that found it does not check every byte of what it skips.
func nativeExtension(l *ntLine, e *Entry) {
	if l.payload != nil && !json.Valid(l.payload) {
		e.Problem = "extension payload is not JSON"
		return
	}
	e.Kind = KindExtension
	e.Extension = &Extension{Domain: stringValue(l.domain), Payload: append(json.RawMessage(nil), l.payload...)}
}
