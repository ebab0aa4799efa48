// Package transcript writes realistic, deterministic Claude Code transcripts
// for benchmarks and tests: the line shapes of ref/session_formats.md §1
// (user and assistant lines with uuid, parentUuid, sessionId, timestamp;
// assistant responses split into one line per content block sharing
// message.id and usage with cache fields; tool_use / tool_result pairs with
// toolUseResult; attachments, system and progress lines, sub-agent
// sidechain lines, a compaction boundary with its summary, metadata
// lines). All randomness comes from a seeded math/rand/v2 source and all
// times from a fixed base: the same Config always gives the same bytes.
package transcript

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"time"
)

// Config says what to write.
type Config struct {
	Bytes     int64  // stop after the turn that reaches this many bytes
	ToolHeavy bool   // tool output dominates the bytes (at least 80%), with some results up to 1 MiB
	Seed      uint64 // random seed
}

// Stats counts what was written.
type Stats struct {
	Bytes       int64 // all bytes written
	Lines       int
	ToolBytes   int64 // bytes of tool-result lines
	Calls       int   // API calls (distinct message ids) with usage
	InputTokens int64 // their input tokens, cache included
}

var base = time.Date(2026, 8, 5, 18, 0, 0, 0, time.UTC)

const (
	cwd       = "/home/bob/work/app"
	version   = "2.1.222"
	compactAt = 155_000 // context tokens at which Claude Code compacts
)

// gen is the state of one transcript being written.
type gen struct {
	w       *bufio.Writer
	rng     *rand.Rand
	cfg     Config
	session string
	now     time.Time
	parent  string // uuid of the previous line in the thread
	msgs    int
	context int64 // tokens in context: grows each call, drops at compaction
	stats   Stats
	err     error
}

func newGen(w io.Writer, cfg Config, now time.Time, salt uint64) *gen {
	g := &gen{w: bufio.NewWriterSize(w, 1<<20), cfg: cfg, rng: rand.New(rand.NewPCG(cfg.Seed, 0x5e55_1010+salt)), now: now, context: 18_000}
	g.session = SessionID(cfg.Seed)
	return g
}

// SessionID is the session id of the transcripts written with seed.
func SessionID(seed uint64) string {
	return uuid(rand.New(rand.NewPCG(seed, 0x5e55)))
}

func uuid(r *rand.Rand) string {
	return fmt.Sprintf("%08x-%04x-4%03x-%04x-%012x", r.Uint32(), r.Uint32()&0xffff, r.Uint32()&0xfff, 0x8000|r.Uint32()&0x3fff, r.Uint64()&0xffffffffffff)
}

// Write writes a whole transcript of about cfg.Bytes bytes.
func Write(w io.Writer, cfg Config) (Stats, error) {
	g := newGen(w, cfg, base, 0)
	g.preamble()
	for turn := 0; g.err == nil && g.stats.Bytes < cfg.Bytes; turn++ {
		if g.context > compactAt {
			g.compaction()
		}
		g.turn(turn)
	}
	g.epilogue()
	return g.flush()
}

// AppendTurn writes one more user prompt and assistant answer, as a check
// "after one more turn" sees. after is the size of the file appended to
// (it seeds the turn and its time); parent is the uuid of its last line,
// or "".
func AppendTurn(w io.Writer, cfg Config, after int64, parent string) (Stats, error) {
	g := newGen(w, cfg, base.Add(48*time.Hour+time.Duration(after)*time.Microsecond), uint64(after))
	g.parent = parent
	g.prompt(int(after % 1000))
	g.answer(nil)
	return g.flush()
}

func (g *gen) flush() (Stats, error) {
	if err := g.w.Flush(); err != nil && g.err == nil {
		g.err = err
	}
	return g.stats, g.err
}

// kv and obj write JSON objects with their keys in the order given, as
// Claude Code writes them.
type kv struct {
	k string
	v any
}
type obj []kv

func (o obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, f := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:", f.k)
		if err := encode(&b, f.v); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// encode writes v as JSON without HTML escaping (JSON.stringify does none)
// and without the encoder's newline.
func encode(b *bytes.Buffer, v any) error {
	enc := json.NewEncoder(b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	b.Truncate(b.Len() - 1)
	return nil
}

// line writes one line and counts it.
func (g *gen) line(o obj, tool bool) {
	if g.err != nil {
		return
	}
	var b bytes.Buffer
	if g.err = encode(&b, o); g.err != nil {
		return
	}
	b.WriteByte('\n')
	if _, g.err = g.w.Write(b.Bytes()); g.err != nil {
		return
	}
	g.stats.Bytes += int64(b.Len())
	g.stats.Lines++
	if tool {
		g.stats.ToolBytes += int64(b.Len())
	}
}

// tick moves the clock on by up to max.
func (g *gen) tick(max time.Duration) string {
	g.now = g.now.Add(time.Duration(g.rng.Int64N(int64(max))) + time.Millisecond)
	return g.now.Format("2006-01-02T15:04:05.000Z")
}

// env is the envelope of a conversation line.
func (g *gen) env(typ, uid string, sidechain bool, agent string) obj {
	var parent any
	if g.parent != "" {
		parent = g.parent
	}
	o := obj{{"parentUuid", parent}, {"isSidechain", sidechain}}
	if agent != "" {
		o = append(o, kv{"agentId", agent})
	}
	o = append(o, kv{"userType", "external"}, kv{"entrypoint", "cli"}, kv{"cwd", cwd}, kv{"sessionId", g.session},
		kv{"version", version}, kv{"gitBranch", "main"}, kv{"slug", "soft-inventing-zebra"}, kv{"type", typ}, kv{"uuid", uid}, kv{"timestamp", g.tick(3 * time.Second)})
	return o
}

func (g *gen) newUUID() string { return uuid(g.rng) }

func (g *gen) preamble() {
	g.line(obj{{"type", "file-history-snapshot"}, {"messageId", g.newUUID()}, {"snapshot", obj{{"messageId", "m0"}, {"trackedFileBackups", obj{}}, {"timestamp", base.Format(time.RFC3339)}}}, {"isSnapshotUpdate", false}}, false)
	uid := g.newUUID()
	o := g.env("attachment", uid, false, "")
	o = append(o, kv{"attachment", obj{{"type", "hook_additional_context"},
		{"content", []string{"<yoimem-memory kind=\"context\">\n" + g.paragraph(8) + "\n</yoimem-memory>"}},
		{"hookName", "SessionStart"}, {"hookEvent", "SessionStart"}}})
	g.line(o, false)
	g.parent = uid
}

func (g *gen) epilogue() {
	g.line(obj{{"type", "ai-title"}, {"aiTitle", "Add JSON output to the list command"}, {"sessionId", g.session}}, false)
	g.line(obj{{"type", "last-prompt"}, {"lastPrompt", "add a --json flag"}, {"leafUuid", g.parent}, {"sessionId", g.session}}, false)
}

// turn: a prompt, then assistant calls and tool results until an answer.
func (g *gen) turn(n int) {
	g.prompt(n)
	calls := 2 + g.rng.IntN(6)
	for i := 0; i < calls && g.err == nil; i++ {
		uses := g.answer(g.pickTools())
		for _, u := range uses {
			g.result(u)
		}
	}
	g.answer(nil)
	g.system("turn_duration", obj{{"durationMs", 1000 + g.rng.IntN(90000)}})
}

func (g *gen) prompt(n int) {
	uid := g.newUUID()
	text := fmt.Sprintf("turn %d: %s", n, g.sentence())
	if g.rng.IntN(4) == 0 {
		text += "\n\n<system-reminder>\n" + g.sentence() + "\n</system-reminder>"
	}
	o := g.env("user", uid, false, "")
	o = append(o, kv{"message", obj{{"role", "user"}, {"content", text}}})
	g.line(o, false)
	g.parent = uid
	if g.rng.IntN(5) == 0 {
		uid := g.newUUID()
		o := g.env("user", uid, false, "")
		o = append(o, kv{"isMeta", true}, kv{"message", obj{{"role", "user"}, {"content", "Base directory for this skill: /home/bob/.claude/skills/go\n\n" + g.paragraph(6)}}})
		g.line(o, false)
		g.parent = uid
	}
}

// toolUse is a call the assistant made.
type toolUse struct {
	id, name string
	input    obj
	size     int // bytes of output to produce
}

// answer writes one API response: thinking, maybe text, and the tool_use
// blocks of uses, one line per block sharing the message id and usage.
func (g *gen) answer(uses []toolUse) []toolUse {
	g.msgs++
	id := fmt.Sprintf("msg_01%022x", g.rng.Uint64())
	req := fmt.Sprintf("req_011C%020x", g.rng.Uint64())
	g.context += int64(500 + g.rng.IntN(4000))
	cacheCreate := int64(g.rng.IntN(3000))
	fresh := int64(3 + g.rng.IntN(5))
	usage := func(out int) obj {
		return obj{{"input_tokens", fresh}, {"cache_creation_input_tokens", cacheCreate}, {"cache_read_input_tokens", g.context},
			{"cache_creation", obj{{"ephemeral_5m_input_tokens", 0}, {"ephemeral_1h_input_tokens", cacheCreate}}},
			{"output_tokens", out}, {"service_tier", "standard"}}
	}
	var blocks []obj
	blocks = append(blocks, obj{{"type", "thinking"}, {"thinking", g.paragraph(3)}, {"signature", fmt.Sprintf("Eo%040x", g.rng.Uint64())}})
	if uses == nil || g.rng.IntN(2) == 0 {
		blocks = append(blocks, obj{{"type", "text"}, {"text", g.paragraph(2 + g.rng.IntN(4))}})
	}
	for i := range uses {
		uses[i].id = fmt.Sprintf("toolu_01%022x", g.rng.Uint64())
		blocks = append(blocks, obj{{"type", "tool_use"}, {"id", uses[i].id}, {"name", uses[i].name}, {"input", uses[i].input}})
	}
	stop := "end_turn"
	if len(uses) > 0 {
		stop = "tool_use"
	}
	for i, blk := range blocks {
		uid := g.newUUID()
		o := g.env("assistant", uid, false, "")
		o = append(o, kv{"requestId", req}, kv{"message", obj{{"model", "claude-opus-4-5-20251101"}, {"id", id}, {"type", "message"}, {"role", "assistant"},
			{"content", []obj{blk}}, {"stop_reason", stop}, {"stop_sequence", nil}, {"usage", usage(10 + 40*i)}}})
		g.line(o, false)
		g.parent = uid
	}
	g.stats.Calls++
	g.stats.InputTokens += fresh + cacheCreate + g.context
	return uses
}

func (g *gen) pickTools() []toolUse {
	n := 1
	if g.rng.IntN(4) == 0 {
		n = 2 + g.rng.IntN(2)
	}
	uses := make([]toolUse, n)
	for i := range uses {
		uses[i] = g.tool()
	}
	return uses
}

func (g *gen) tool() toolUse {
	file := g.path()
	switch k := g.rng.IntN(10); {
	case k < 4:
		return toolUse{name: "Read", input: obj{{"file_path", file}}, size: g.outputSize(true)}
	case k < 7:
		return toolUse{name: "Bash", input: obj{{"command", "go test ./" + strings.TrimSuffix(file[len(cwd)+1:], ".go") + "/..."}, {"description", "Run the tests"}}, size: g.outputSize(false)}
	case k < 8:
		return toolUse{name: "Grep", input: obj{{"pattern", g.word() + "\\("}, {"path", cwd}, {"output_mode", "content"}}, size: g.outputSize(false) / 2}
	case k < 9:
		return toolUse{name: "Edit", input: obj{{"file_path", file}, {"old_string", g.codeLine()}, {"new_string", g.codeLine()}}, size: 200}
	default:
		return toolUse{name: "Task", input: obj{{"description", "Explore " + g.word()}, {"subagent_type", "Explore"}, {"prompt", g.sentence()}}, size: 600}
	}
}

// outputSize: small outputs, or in tool-heavy mode mostly tens of KB with
// an occasional file read of up to 1 MiB.
func (g *gen) outputSize(read bool) int {
	if !g.cfg.ToolHeavy {
		return 200 + g.rng.IntN(3000)
	}
	if read && g.rng.IntN(30) == 0 {
		return 200<<10 + g.rng.IntN(824<<10)
	}
	return 4<<10 + g.rng.IntN(60<<10)
}

// result writes the user line holding a tool's result.
func (g *gen) result(u toolUse) {
	if u.name == "Task" {
		g.sidechain(u)
	}
	text, structured := g.output(u)
	g.context += min(int64(len(text))/4, 25_000) // the output enters the context, about 4 bytes a token
	uid := g.newUUID()
	o := g.env("user", uid, false, "")
	block := obj{{"tool_use_id", u.id}, {"type", "tool_result"}, {"content", text}}
	if u.name == "Bash" && g.rng.IntN(8) == 0 {
		block = append(block, kv{"is_error", true})
	}
	o = append(o, kv{"message", obj{{"role", "user"}, {"content", []obj{block}}}}, kv{"toolUseResult", structured}, kv{"sourceToolAssistantUUID", g.parent})
	g.line(o, true)
	g.parent = uid
	if g.rng.IntN(6) == 0 {
		p := g.env("progress", g.newUUID(), false, "")
		p = append(p, kv{"data", obj{{"type", "hook_progress"}, {"hookEvent", "PostToolUse"}, {"hookName", "PostToolUse:" + u.name}, {"command", "git yoimem hook claude"}}}, kv{"toolUseID", u.id})
		g.line(p, false)
	}
}

// output is a tool's text result and its toolUseResult.
func (g *gen) output(u toolUse) (string, any) {
	switch u.name {
	case "Read":
		raw := g.code(u.size)
		var b strings.Builder
		n := 0
		for l := range strings.Lines(raw) {
			n++
			fmt.Fprintf(&b, "%6d\u2192%s", n, l)
		}
		file := u.input[0].v.(string)
		return b.String(), obj{{"type", "text"}, {"file", obj{{"filePath", file}, {"content", raw}, {"numLines", n}, {"startLine", 1}, {"totalLines", n}}}}
	case "Bash", "Grep":
		out := g.code(u.size)
		return out, obj{{"stdout", out}, {"stderr", ""}, {"interrupted", false}, {"isImage", false}}
	case "Edit":
		file := u.input[0].v.(string)
		return "The file " + file + " has been updated successfully.", obj{{"filePath", file}, {"oldString", u.input[1].v}, {"newString", u.input[2].v},
			{"structuredPatch", []obj{{{"oldStart", 10}, {"oldLines", 1}, {"newStart", 10}, {"newLines", 1}, {"lines", []string{"-" + u.input[1].v.(string), "+" + u.input[2].v.(string)}}}}},
			{"userModified", false}, {"replaceAll", false}}
	default:
		agent := fmt.Sprintf("a%06x", g.rng.Uint32()&0xffffff)
		return g.paragraph(3) + "\nagentId: " + agent + " (for resuming)\n<usage>subagent_tokens: 12035</usage>", obj{{"agentId", agent}, {"status", "completed"}}
	}
}

// sidechain writes a sub-agent's lines interleaved in the main file, as
// older Claude Code versions did.
func (g *gen) sidechain(u toolUse) {
	agent := fmt.Sprintf("a%06x", g.rng.Uint32()&0xffffff)
	keep := g.parent
	g.parent = ""
	uid := g.newUUID()
	o := g.env("user", uid, true, agent)
	o = append(o, kv{"message", obj{{"role", "user"}, {"content", u.input[2].v}}})
	g.line(o, false)
	g.parent = uid
	uid = g.newUUID()
	o = g.env("assistant", uid, true, agent)
	in := g.rng.IntN(20000)
	o = append(o, kv{"requestId", fmt.Sprintf("req_011C%020x", g.rng.Uint64())}, kv{"message", obj{{"model", "claude-haiku-4-5"}, {"id", fmt.Sprintf("msg_01%022x", g.rng.Uint64())}, {"type", "message"}, {"role", "assistant"},
		{"content", []obj{{{"type", "text"}, {"text", g.paragraph(2)}}}}, {"stop_reason", "end_turn"}, {"stop_sequence", nil},
		{"usage", obj{{"input_tokens", in}, {"cache_creation_input_tokens", 0}, {"cache_read_input_tokens", 0}, {"output_tokens", 90}}}}})
	g.line(o, false)
	g.stats.Calls++
	g.stats.InputTokens += int64(in)
	g.parent = keep
}

func (g *gen) system(sub string, extra obj) {
	uid := g.newUUID()
	o := g.env("system", uid, false, "")
	o = append(o, kv{"subtype", sub})
	o = append(o, extra...)
	g.line(o, false)
}

// compaction writes a compact_boundary and the summary user line after it.
func (g *gen) compaction() {
	logical := g.parent
	g.parent = ""
	uid := g.newUUID()
	o := g.env("system", uid, false, "")
	o = append(o, kv{"subtype", "compact_boundary"}, kv{"content", "Conversation compacted"}, kv{"level", "info"}, kv{"logicalParentUuid", logical},
		kv{"compactMetadata", obj{{"trigger", "auto"}, {"preTokens", g.context}}})
	g.line(o, false)
	g.parent = uid
	uid = g.newUUID()
	o = g.env("user", uid, false, "")
	o = append(o, kv{"isCompactSummary", true}, kv{"isVisibleInTranscriptOnly", true},
		kv{"message", obj{{"role", "user"}, {"content", "This session is being continued from a previous conversation that ran out of context. Summary:\n" + g.paragraph(20)}}})
	g.line(o, false)
	g.parent = uid
	g.context = 25_000
}

var words = strings.Fields(`list json flag output format render table column row sort name
order test fail error retry handler request response cache index parse print
write read file path config option value default branch commit record memory
session token limit window buffer stream line entry field struct method func`)

func (g *gen) word() string { return words[g.rng.IntN(len(words))] }

func (g *gen) sentence() string {
	n := 6 + g.rng.IntN(12)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.word()
	}
	return strings.ToUpper(parts[0][:1]) + strings.Join(parts, " ")[1:] + "."
}

func (g *gen) paragraph(n int) string {
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.sentence()
	}
	return strings.Join(parts, " ")
}

func (g *gen) path() string {
	return fmt.Sprintf("%s/%s/%s_%s.go", cwd, g.word(), g.word(), g.word())
}

// codeLine is a line of plausible Go, with the quotes, tabs and
// backslashes that JSON must escape.
func (g *gen) codeLine() string {
	switch g.rng.IntN(6) {
	case 0:
		return fmt.Sprintf("\tif err := %s(%s); err != nil {", g.word(), g.word())
	case 1:
		return fmt.Sprintf("\t\treturn fmt.Errorf(\"%s %%s: %%w\\n\", %s, err)", g.word(), g.word())
	case 2:
		return fmt.Sprintf("\t%s := strings.Split(%s, \"\\t\") // %s → %s", g.word(), g.word(), g.word(), g.word())
	case 3:
		return "\t}"
	case 4:
		return fmt.Sprintf("func (%c *%s) %s(%s string) error {", g.word()[0], g.word(), g.word(), g.word())
	default:
		return ""
	}
}

// code is about n bytes of code lines.
func (g *gen) code(n int) string {
	var b strings.Builder
	b.Grow(n + 80)
	for b.Len() < n {
		b.WriteString(g.codeLine())
		b.WriteByte('\n')
	}
	return b.String()
}
