package sessionlog

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/yoimem/git-yoimem/internal/inject"
	"github.com/yoimem/git-yoimem/internal/tokens"
)

// Codex CLI rollouts (docs/session-log.md, "Codex"): every line is
// {"timestamp", "type", "payload"}. The clean conversation is in the event
// form of each generation: event_msg user_message / agent_message up to
// 0.147, event_msg item_completed UserMessage / AgentMessage items from
// 0.148 on (no release seen writes both; testdata/agents/codex). The
// response_item messages mirror them (plus the blocks Codex injects) and
// are reported as KindOther or KindMeta, so the conversation is read once;
// the choice is made line by line, so a read resumed anywhere reads the
// same. Usage comes from event_msg token_count; the newer
// token_usage_record lines repeat it per call and count nothing.

type codexParser struct{}

// cxPayload holds the raw values of a line's payload fields.
type cxPayload struct {
	typ, role, content, name, arguments, callID, input, output []byte
	message, info, id, action, item                            []byte
}

func readCodexLine(text []byte) (typ, ts []byte, p cxPayload, ok bool) {
	var payload []byte
	o := newObject(text)
	for o.next() {
		switch string(o.key) {
		case "type":
			typ = o.val
		case "timestamp":
			ts = o.val
		case "payload":
			payload = o.val
		}
	}
	if o.err != nil || !o.rest() {
		return nil, nil, p, false
	}
	po := newObject(payload)
	for po.next() {
		switch v := po.val; string(po.key) {
		case "type":
			p.typ = v
		case "role":
			p.role = v
		case "content":
			p.content = v
		case "name":
			p.name = v
		case "arguments":
			p.arguments = v
		case "call_id":
			p.callID = v
		case "input":
			p.input = v
		case "output":
			p.output = v
		case "message":
			p.message = v
		case "info":
			p.info = v
		case "id":
			p.id = v
		case "action":
			p.action = v
		case "item":
			p.item = v
		}
	}
	return typ, ts, p, true
}

func (codexParser) mayCarryUsage(text []byte) bool {
	return bytes.Contains(text, []byte(`"token_count"`))
}

func (codexParser) usage(text []byte, st *state) *Usage {
	typ, _, p, ok := readCodexLine(text)
	if !ok || !rawIs(typ, "event_msg") || !rawIs(p.typ, "token_count") {
		return nil
	}
	return codexUsage(&p, st)
}

// counters are the counters of a token_count usage object.
type counters struct{ in, out, total int64 }

func readTokens(v []byte) (counters, bool) {
	var t counters
	if !isObject(v) {
		return t, false
	}
	o := newObject(v)
	for o.next() {
		switch string(o.key) {
		case "input_tokens":
			t.in = tokenValue(o.val)
		case "output_tokens":
			t.out = tokenValue(o.val)
		case "total_tokens":
			t.total = tokenValue(o.val)
		}
	}
	return t, true
}

// codexUsage reads a token_count event. The cumulative totals name the
// call ("total:IN:OUT:ALL"): a repeated event repeats them and is not
// counted again. The call's own usage is last_token_usage or, without it,
// the difference from the previous totals. info is null on events that
// only report rate limits.
func codexUsage(p *cxPayload, st *state) *Usage {
	var total, last []byte
	o := newObject(p.info)
	for o.next() {
		switch string(o.key) {
		case "total_token_usage":
			total = o.val
		case "last_token_usage":
			last = o.val
		}
	}
	t, haveTotal := readTokens(total)
	l, haveLast := readTokens(last)
	if !haveTotal && !haveLast {
		return nil
	}
	id := ""
	if haveTotal {
		id = fmt.Sprintf("total:%d:%d:%d", t.in, t.out, t.total)
		prev, havePrev := parseTotalID(st.seen.last())
		if !st.seen.add(id) {
			return nil
		}
		if !haveLast {
			l = t
			if havePrev && t.in >= prev.in && t.out >= prev.out {
				l = counters{in: t.in - prev.in, out: t.out - prev.out}
			}
		}
	}
	return &Usage{MessageID: id, InputTokens: l.in, OutputTokens: l.out}
}

// parseTotalID reads the totals back from a Codex usage id.
func parseTotalID(id string) (counters, bool) {
	rest, ok := strings.CutPrefix(id, "total:")
	if !ok {
		return counters{}, false
	}
	parts := strings.Split(rest, ":")
	if len(parts) != 3 {
		return counters{}, false
	}
	var n [3]int64
	for i, s := range parts {
		v, ok := tokens.Parse([]byte(s)) // the ids come back from saved state
		if !ok {
			return counters{}, false
		}
		n[i] = v
	}
	return counters{n[0], n[1], n[2]}, true
}

func (codexParser) entry(text []byte, st *state, e *Entry) {
	typ, ts, p, ok := readCodexLine(text)
	if !ok {
		e.Problem = problem(text)
		return
	}
	e.Type = typeName(typ, p.typ)
	e.Time = parseTime(ts)
	switch {
	case rawIs(typ, "session_meta"):
		e.Kind, e.SessionID = KindMeta, stringValue(p.id)
	case rawIs(typ, "turn_context"), rawIs(typ, "world_state"):
		e.Kind = KindMeta
	case rawIs(typ, "token_usage_record"):
		e.Kind = KindUsage // token_count counts the call
	case rawIs(typ, "compacted"):
		e.Kind = KindCompaction
	case rawIs(typ, "response_item"):
		codexItem(&p, e)
	case rawIs(typ, "event_msg"):
		codexEvent(&p, st, e)
	}
}

func codexEvent(p *cxPayload, st *state, e *Entry) {
	switch {
	case rawIs(p.typ, "user_message"):
		codexPrompt(stringValue(p.message), e)
	case rawIs(p.typ, "agent_message"):
		e.Role, e.Kind, e.Text = RoleAssistant, KindMessage, stringValue(p.message)
	case rawIs(p.typ, "item_completed"):
		codexTurnItem(p.item, e)
	case rawIs(p.typ, "agent_reasoning"):
		e.Role, e.Kind = RoleAssistant, KindReasoning
	case rawIs(p.typ, "token_count"):
		e.Kind, e.Usage = KindUsage, codexUsage(p, st)
	case rawIs(p.typ, "context_compacted"):
		e.Kind = KindCompaction
	}
}

// codexPrompt fills in a prompt from its text: a message, or meta when it
// is only what Codex or git-yoimem put there.
func codexPrompt(text string, e *Entry) { userEntry(text, codexInjected(text), e) }

// codexTurnItem reads an item_completed event: the prompt (UserMessage)
// and the answer (AgentMessage) of the newer rollouts. Other items
// (CommandExecution, Reasoning, FileChange, …) mirror response_item lines
// and stay KindOther.
func codexTurnItem(item []byte, e *Entry) {
	var typ, content []byte
	o := newObject(item)
	for o.next() {
		switch string(o.key) {
		case "type":
			typ = o.val
		case "content":
			content = o.val
		}
	}
	switch {
	case rawIs(typ, "UserMessage"):
		codexPrompt(codexContentText(content), e)
	case rawIs(typ, "AgentMessage"):
		e.Role, e.Kind, e.Text = RoleAssistant, KindMessage, codexContentText(content)
	}
}

func codexItem(p *cxPayload, e *Entry) {
	switch {
	case rawIs(p.typ, "message"):
		codexMessage(p, e)
	case rawIs(p.typ, "reasoning"):
		e.Role, e.Kind = RoleAssistant, KindReasoning
	case rawIs(p.typ, "function_call"):
		e.Role, e.Kind = RoleAssistant, KindToolCall
		e.ToolCalls = []ToolCall{{ID: stringValue(p.callID), Name: stringValue(p.name), Summary: argumentsSummary(p.arguments)}}
	case rawIs(p.typ, "custom_tool_call"):
		e.Role, e.Kind = RoleAssistant, KindToolCall
		e.ToolCalls = []ToolCall{{ID: stringValue(p.callID), Name: stringValue(p.name), Summary: patchSummary(p.input)}}
	case rawIs(p.typ, "local_shell_call"):
		e.Role, e.Kind = RoleAssistant, KindToolCall
		e.ToolCalls = []ToolCall{{ID: stringValue(p.callID), Name: "local_shell", Summary: inputSummary(p.action)}}
	case rawIs(p.typ, "web_search_call"):
		e.Role, e.Kind = RoleAssistant, KindToolCall
		e.ToolCalls = []ToolCall{{ID: stringValue(p.id), Name: "web_search", Summary: inputSummary(p.action)}}
	case rawIs(p.typ, "function_call_output"), rawIs(p.typ, "custom_tool_call_output"), rawIs(p.typ, "local_shell_call_output"):
		e.Role, e.Kind = RoleTool, KindToolResult
		summary, n, isErr := codexOutput(p.output)
		e.ToolResults = []ToolResult{{CallID: stringValue(p.callID), Summary: summary, Bytes: n, IsError: isErr}}
	case rawIs(p.typ, "compaction"), rawIs(p.typ, "context_compaction"):
		e.Kind = KindCompaction
	}
}

// injectedPrefixes start the user messages Codex itself writes into the
// conversation: AGENTS.md, the environment, instructions, skills, hook
// prompts, its notices (the contextual fragments of codex-rs core).
var injectedPrefixes = [...]string{
	"# AGENTS.md instructions", "<environment_context", "<user_instructions",
	"<INSTRUCTIONS>", "<permissions instructions", "<developer_instructions",
	"<skills_instructions", "<skills_section", "<skill>", "<hook_prompt",
	"<user_shell_command>", "<turn_aborted>", "<plugins>", "<subagents>",
	"<subagent_notification>", "<codex_internal_context", "<collaboration_mode>",
	"<js_repl_instructions", "<child_agents_instructions",
	"<context_window_reminder", "<image_resize_notice",
}

// codexInjected tells whether a user message is one Codex injected.
func codexInjected(text string) bool {
	t := strings.TrimSpace(text)
	for _, pre := range injectedPrefixes {
		if strings.HasPrefix(t, pre) {
			return true
		}
	}
	return false
}

// codexMessage: response_item messages. User and assistant text is read
// from the event_msg lines that mirror it (user_message / agent_message or
// item_completed); injected user blocks and developer messages (where
// hooks' additional context goes) are meta.
func codexMessage(p *cxPayload, e *Entry) {
	e.Role = Role(stringValue(p.role))
	e.Text = codexContentText(p.content)
	switch e.Role {
	case "developer", RoleSystem:
		e.Role, e.Kind, e.Injected = RoleSystem, KindMeta, true
	case RoleUser:
		t := strings.TrimSpace(e.Text)
		if codexInjected(t) {
			e.Kind, e.Injected = KindMeta, true
		}
		// git-yoimem's own blocks, in their exact form, and nothing else.
		if rest, n := inject.Strip(t); n > 0 && strings.TrimSpace(rest) == "" {
			e.Kind, e.Injected = KindMeta, true
		}
	}
}

// codexContentText joins the text of input_text / output_text blocks.
func codexContentText(content []byte) string {
	var parts []string
	a := newArray(content)
	for a.next() {
		if b := readBlock(a.val); isString(b.text) {
			parts = append(parts, stringValue(b.text))
		}
	}
	return strings.Join(parts, "\n\n")
}

// maxDecodedArguments bounds the function-call arguments decoded whole to
// find their telling field; longer ones are shown by their start.
const maxDecodedArguments = 64 << 10

// argumentsSummary summarizes function-call arguments: a JSON string that
// holds a JSON object.
func argumentsSummary(v []byte) string {
	if !isString(v) {
		return inputSummary(v)
	}
	if len(v) > maxDecodedArguments {
		return summaryOf(v)
	}
	s := stringValue(v)
	if sum := inputSummary([]byte(s)); sum != "" {
		return sum
	}
	return summarize(s, false)
}

// patchSummary summarizes a custom tool's raw input; for apply_patch, the
// files the patch touches.
func patchSummary(v []byte) string {
	s, cut := stringPrefix(v, 16<<10)
	var files []string
	for line := range strings.Lines(s) {
		for _, op := range [...]string{"Add", "Update", "Delete"} {
			if f, ok := strings.CutPrefix(line, "*** "+op+" File: "); ok {
				files = append(files, strings.ToLower(op)+" "+strings.TrimSpace(f))
			}
		}
	}
	if len(files) > 0 {
		return summarize(strings.Join(files, ", "), false)
	}
	return summarize(s, cut)
}

// codexOutput summarizes a tool output: a string (plain, unified-exec with
// its "Process exited with code N … Output:" header, or older JSON
// {"output", "metadata":{"exit_code"}}) or content blocks.
func codexOutput(v []byte) (summary string, size int, isErr bool) {
	if !isString(v) {
		summary, size = resultOf(v)
		return summary, size, false
	}
	head, cut := stringPrefix(v, 1024)
	if strings.HasPrefix(head, `{"output":`) && len(v) <= maxDecodedArguments {
		if s, n, code, ok := wrappedOutput(stringValue(v)); ok {
			return s, n, code != 0
		}
	}
	size = decodedLen(v)
	if i := strings.Index(head, "Process exited with code "); i >= 0 {
		code := head[i+len("Process exited with code "):]
		code, _, _ = strings.Cut(code, "\n")
		isErr = strings.TrimSpace(code) != "0"
	}
	if _, body, ok := strings.Cut(head, "\nOutput:\n"); ok && strings.TrimSpace(body) != "" {
		return summarize(body, cut), size, isErr
	}
	return summarize(head, cut), size, isErr
}

// wrappedOutput reads {"output": "…", "metadata": {"exit_code": N}}.
func wrappedOutput(s string) (summary string, size int, code int64, ok bool) {
	var out []byte
	o := newObject([]byte(s))
	for o.next() {
		switch string(o.key) {
		case "output":
			out = o.val
		case "metadata":
			m := newObject(o.val)
			for m.next() {
				if string(m.key) == "exit_code" {
					code, _ = strconv.ParseInt(string(m.val), 10, 64)
				}
			}
		}
	}
	if o.err != nil || !isString(out) {
		return "", 0, 0, false
	}
	return summaryOf(out), decodedLen(out), code, true
}
