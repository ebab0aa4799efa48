package sessionlog

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	tokencount "github.com/yoimem/git-yoimem/internal/tokens"
)

func usageSum(entries []Entry) (tokens int64, calls int) {
	for _, e := range entries {
		if e.Usage != nil {
			tokens = tokencount.Add(tokens, e.Usage.InputTokens)
			calls++
		}
	}
	return tokens, calls
}

func TestTokensAgree(t *testing.T) {
	for _, fx := range fixtures {
		data := readFixture(t, fx.file)
		entries, r := readAll(t, data, fx.format, Options{})
		tokens, calls := usageSum(entries)
		tc, err := CountTokens(bytes.NewReader(data), fx.format, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if tokens != fx.tokens || calls != fx.calls || tc.InputTokens != fx.tokens || tc.Calls != fx.calls {
			t.Errorf("%s: reader %d tokens in %d calls, CountTokens %d in %d; want %d in %d", fx.file, tokens, calls, tc.InputTokens, tc.Calls, fx.tokens, fx.calls)
		}
		if tc.Index != r.Index() || tc.Offset != r.Offset() || fmt.Sprint(tc.Seen) != fmt.Sprint(r.Seen()) {
			t.Errorf("%s: CountTokens stops at %d/%d %v, reader at %d/%d %v", fx.file, tc.Index, tc.Offset, tc.Seen, r.Index(), r.Offset(), r.Seen())
		}
		if r.Offset() != int64(len(data)) || r.Index() != bytes.Count(data, []byte("\n")) {
			t.Errorf("%s: reader stops at line %d byte %d", fx.file, r.Index(), r.Offset())
		}
	}
}

// TestResumeEveryCut reads each fixture as if it were cut off at every
// byte (a log still being written), then resumes from where the first read
// stopped: the two reads together must give exactly what one read gives,
// entries and tokens alike.
func TestResumeEveryCut(t *testing.T) {
	for _, fx := range fixtures {
		data := readFixture(t, fx.file)
		entries, _ := readAll(t, data, fx.format, Options{})
		want := string(render(entries))
		// every byte of the large recorded rollouts would take minutes
		for _, cut := range cutPoints(data, testing.Short() || len(data) > 16<<10) {
			first, r := readAll(t, data[:cut], fx.format, Options{})
			if r.Offset() > int64(cut) || (r.Offset() > 0 && data[r.Offset()-1] != '\n') {
				t.Fatalf("%s cut at %d: stopped at byte %d", fx.file, cut, r.Offset())
			}
			opts := Options{StartIndex: r.Index(), StartOffset: r.Offset(), Seen: r.Seen(), SessionID: r.SessionID()}
			rest, _ := readAll(t, data[r.Offset():], fx.format, opts)
			if got := string(render(append(first, rest...))); got != want {
				t.Fatalf("%s cut at %d: resumed read differs:\n%s", fx.file, cut, lineDiff([]byte(want), []byte(got)))
			}
			tc1, err := CountTokens(bytes.NewReader(data[:cut]), fx.format, Options{})
			if err != nil {
				t.Fatal(err)
			}
			tc2, err := CountTokens(bytes.NewReader(data[tc1.Offset:]), fx.format, Options{StartIndex: tc1.Index, StartOffset: tc1.Offset, Seen: tc1.Seen})
			if err != nil {
				t.Fatal(err)
			}
			if tc1.InputTokens+tc2.InputTokens != fx.tokens || tc2.Offset != int64(len(data)) {
				t.Fatalf("%s cut at %d: %d+%d tokens, want %d", fx.file, cut, tc1.InputTokens, tc2.InputTokens, fx.tokens)
			}
		}
	}
}

// cutPoints is every byte position in data or, when short, those next to
// line ends and the middle of each line.
func cutPoints(data []byte, short bool) []int {
	var cuts []int
	start := 0
	for i := 0; i <= len(data); i++ {
		if !short {
			cuts = append(cuts, i)
			continue
		}
		if i == len(data) || data[i] == '\n' {
			cuts = append(cuts, max(i-1, 0), i, (start+i)/2)
			if i < len(data) {
				cuts = append(cuts, i+1)
			}
			start = i + 1
		}
	}
	return cuts
}

// growing is a stream that is appended to while it is read.
type growing struct{ buf bytes.Buffer }

func (g *growing) Read(p []byte) (int, error) { return g.buf.Read(p) }

func TestTruncatedLastLine(t *testing.T) {
	line1 := `{"type":"user","ts":"2026-09-01T10:00:05Z","session_id":"s","text":"first"}` + "\n"
	line2 := `{"type":"assistant","ts":"2026-09-01T10:00:06Z","session_id":"s","message_id":"m","text":"second","usage":{"input_tokens":7}}` + "\n"
	cut := len(line2) / 2

	// A reader of a growing stream finishes the line once it is complete.
	g := &growing{}
	g.buf.WriteString(line1 + line2[:cut])
	r := NewReader(g, Native, Options{})
	if e, err := r.Next(); err != nil || e.Text != "first" {
		t.Fatalf("first entry: %+v %v", e, err)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Fatalf("half-written line: %v, want io.EOF", err)
	}
	if r.Index() != 1 || r.Offset() != int64(len(line1)) {
		t.Fatalf("after half-written line: line %d byte %d", r.Index(), r.Offset())
	}
	g.buf.WriteString(line2[cut:])
	e, err := r.Next()
	if err != nil || e.Index != 2 || e.Offset != int64(len(line1)) || e.End != int64(len(line1+line2)) || e.Text != "second" || e.Usage == nil {
		t.Fatalf("completed line: %+v %v", e, err)
	}

	// A new reader resuming from Offset and Index reads it too.
	data := []byte(line1 + line2)
	tc, err := CountTokens(bytes.NewReader(data[:len(line1)+cut]), Native, Options{})
	if err != nil || tc.Index != 1 || tc.Offset != int64(len(line1)) || tc.InputTokens != 0 {
		t.Fatalf("CountTokens over a half-written line: %+v %v", tc, err)
	}
	entries, _ := readAll(t, data[tc.Offset:], Native, Options{StartIndex: tc.Index, StartOffset: tc.Offset, Seen: tc.Seen})
	if len(entries) != 1 || entries[0].Index != 2 || entries[0].Offset != int64(len(line1)) || entries[0].Usage.InputTokens != 7 {
		t.Fatalf("resumed: %+v", entries)
	}
}

func TestLineEndings(t *testing.T) {
	data := "\n\r\n" + `{"type":"user","ts":"2026-09-01T10:00:05Z","text":"crlf"}` + "\r\n   \n" + `{"type":"user","text":"lf"}` + "\n"
	entries, r := readAll(t, []byte(data), Native, Options{})
	if len(entries) != 2 || entries[0].Index != 3 || entries[0].Text != "crlf" || entries[1].Index != 5 || entries[1].Text != "lf" || r.Index() != 5 {
		t.Fatalf("entries %+v, last line %d", entries, r.Index())
	}
	if entries[0].Offset != 3 || entries[0].End != entries[1].Offset-4 {
		t.Fatalf("offsets %+v", entries)
	}
}

func TestLongLines(t *testing.T) {
	long := `{"type":"user","text":"` + strings.Repeat("x", 5000) + `"}` + "\n"
	short := `{"type":"user","text":"short"}` + "\n"
	data := []byte(short + long + short + long[:3000])
	entries, r := readAll(t, data, Native, Options{MaxLineBytes: 1000})
	if len(entries) != 3 || entries[1].Kind != KindOther || entries[1].Problem == "" || entries[1].End != int64(len(short+long)) || entries[2].Text != "short" {
		t.Fatalf("entries %+v", entries)
	}
	if r.Index() != 3 || r.Offset() != int64(len(short+long+short)) {
		t.Fatalf("stopped at line %d byte %d", r.Index(), r.Offset())
	}
	// Lines longer than the read buffer but under the limit are read whole.
	huge := `{"type":"user","text":"` + strings.Repeat("y", 3*bufSize) + `"}` + "\n"
	entries, _ = readAll(t, []byte(short+huge+short), Native, Options{})
	if len(entries) != 3 || len(entries[1].Text) != 3*bufSize || entries[2].Index != 3 {
		t.Fatalf("huge line: %d entries", len(entries))
	}
}

// bigResult is a Claude Code tool-result line whose output (in the message
// and again in toolUseResult) is exactly size bytes once decoded, full of
// characters JSON escapes.
func bigResult(size int) string {
	var b strings.Builder
	for b.Len() < size {
		b.WriteString("\tfmt.Printf(\"%s → \\n\", x)\n")
	}
	out := b.String()[:size-1] + "\n"
	q := fmt.Sprintf("%q", out) // Go quoting is valid JSON for this text
	return `{"parentUuid":"a","isSidechain":false,"type":"user","uuid":"u","timestamp":"2026-08-05T18:06:00.301Z","message":{"role":"user","content":[{"tool_use_id":"toolu_1","type":"tool_result","content":` + q + `}]},"toolUseResult":{"type":"text","file":{"filePath":"/a.go","content":` + q + `}},"sessionId":"s"}` + "\n"
}

func TestLargeToolResult(t *testing.T) {
	const size = 1 << 20
	data := []byte(bigResult(size))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	entries, _ := readAll(t, data, ClaudeCode, Options{})
	runtime.ReadMemStats(&after)
	if len(entries) != 1 || len(entries[0].ToolResults) != 1 {
		t.Fatalf("entries %+v", entries)
	}
	res := entries[0].ToolResults[0]
	if res.Bytes != size || len(res.Summary) > SummaryBytes+len(ellipsis) || !strings.HasPrefix(res.Summary, `fmt.Printf("%s → \n", x)`) || !strings.HasSuffix(res.Summary, ellipsis) {
		t.Fatalf("result %d bytes, summary %q", res.Bytes, res.Summary)
	}
	// The read buffer and one copy of the line; not the output decoded.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(bufSize+4*len(data)) {
		t.Errorf("reading a %d-byte line allocated %d bytes", len(data), alloc)
	}
}

func TestKinds(t *testing.T) {
	cc := func(typ, extra, content string) string {
		return `{"type":"` + typ + `","sessionId":"s"` + extra + `,"message":{"role":"user","content":` + content + `}}`
	}
	tests := []struct {
		name     string
		format   Format
		line     string
		kind     Kind
		role     Role
		injected bool
		text     string
	}{
		{"prompt", ClaudeCode, cc("user", "", `"hello"`), KindMessage, RoleUser, false, "hello"},
		{"prompt with reminder", ClaudeCode, cc("user", "", `"fix it\n<system-reminder>x</system-reminder>"`), KindMessage, RoleUser, false, "fix it"},
		{"reminder only", ClaudeCode, cc("user", "", `"<system-reminder>x</system-reminder>"`), KindMeta, RoleUser, true, "<system-reminder>x</system-reminder>"},
		{"unclosed reminder", ClaudeCode, cc("user", "", `"ok <system-reminder>x"`), KindMessage, RoleUser, false, "ok"},
		{"slash command", ClaudeCode, cc("user", "", `"<command-name>/model</command-name><command-args>opus</command-args>"`), KindMeta, RoleUser, false, "<command-name>/model</command-name><command-args>opus</command-args>"},
		{"command stdout", ClaudeCode, cc("user", "", `"<local-command-stdout>Set model</local-command-stdout>"`), KindMeta, RoleUser, false, "<local-command-stdout>Set model</local-command-stdout>"},
		{"yoimem expansion", ClaudeCode, cc("user", "", `"use #db\n<yoimem-memory kind=\"knowledge\" slug=\"db\">\nPostgres.\n</yoimem-memory>"`), KindMessage, RoleUser, false, "use #db"},
		{"isMeta", ClaudeCode, cc("user", `,"isMeta":true`, `"Stop hook feedback: run tests"`), KindMeta, RoleUser, true, "Stop hook feedback: run tests"},
		{"interrupted", ClaudeCode, cc("user", "", `[{"type":"text","text":"[Request interrupted by user]"}]`), KindMeta, RoleUser, false, "[Request interrupted by user]"},
		{"tag-like text kept", ClaudeCode, cc("user", "", `"compare <a> and <b>"`), KindMessage, RoleUser, false, "compare <a> and <b>"},
		{"empty content", ClaudeCode, cc("user", "", `[]`), KindOther, RoleUser, false, ""},
		{"attachment", ClaudeCode, `{"type":"attachment","attachment":{"type":"hook_success","stdout":"ok"}}`, KindMeta, "", true, ""},
		{"unknown type", ClaudeCode, `{"type":"marble-origami-commit","sessionId":"s"}`, KindOther, "", false, ""},
		{"no type", ClaudeCode, `{"sessionId":"s"}`, KindOther, "", false, ""},
		{"codex user_instructions", Codex, `{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<user_instructions>\nbe brief\n</user_instructions>"}]}}`, KindMeta, RoleUser, true, "<user_instructions>\nbe brief\n</user_instructions>"},
		{"codex reminder-only prompt", Codex, `{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"<system-reminder>x</system-reminder>"}}`, KindMeta, RoleUser, true, "<system-reminder>x</system-reminder>"},
		{"codex context only", Codex, `{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"<yoimem-memory kind=\"context\">\nx\n</yoimem-memory>\n"}}`, KindMeta, RoleUser, true, "<yoimem-memory kind=\"context\">\nx\n</yoimem-memory>\n"},
		// A tag a person typed is their text, not an injection: only the
		// exact blocks git-yoimem writes are left out.
		{"yoimem tag typed", ClaudeCode, cc("user", "", `"why does <yoimem-memory show up? the tests failed after it"`), KindMessage, RoleUser, false, "why does <yoimem-memory show up? the tests failed after it"},
		{"yoimem tag typed, closed", ClaudeCode, cc("user", "", `"wrap it as <yoimem-memory>notes</yoimem-memory> and keep going"`), KindMessage, RoleUser, false, "wrap it as <yoimem-memory>notes</yoimem-memory> and keep going"},
		{"yoimem open line never closed", ClaudeCode, cc("user", "", `"<yoimem-memory kind=\"context\">\nmy own notes"`), KindMessage, RoleUser, false, "<yoimem-memory kind=\"context\">\nmy own notes"},
		{"codex prompt starting with the tag", Codex, `{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"<yoimem-memory is in my prompt; remove it"}}`, KindMessage, RoleUser, false, "<yoimem-memory is in my prompt; remove it"},
		{"codex mirror starting with the tag", Codex, `{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<yoimem-memory is in my prompt; remove it"}]}}`, KindOther, RoleUser, false, "<yoimem-memory is in my prompt; remove it"},
		{"codex expansion", Codex, `{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"<yoimem-memory kind=\"knowledge\" slug=\"db\">\nPostgres.\n</yoimem-memory>"}]}}`, KindMeta, RoleUser, true, "<yoimem-memory kind=\"knowledge\" slug=\"db\">\nPostgres.\n</yoimem-memory>"},
		{"codex unknown", Codex, `{"timestamp":"t","type":"future_synthetic_record","payload":{}}`, KindOther, "", false, ""},
		{"native injected user", Native, `{"type":"user","ts":"t","injected":true,"text":"ctx"}`, KindMeta, RoleUser, true, "ctx"},
		{"native unknown", Native, `{"type":"plan","ts":"t","steps":[]}`, KindOther, "", false, ""},
		{"JSON but not an object", Native, `"user"`, KindOther, "", false, ""},
		{"trailing garbage", Native, `{"type":"user","text":"x"} {}`, KindOther, "", false, ""},
	}
	for _, tt := range tests {
		entries, _ := readAll(t, []byte(tt.line+"\n"), tt.format, Options{})
		if len(entries) != 1 {
			t.Fatalf("%s: %d entries", tt.name, len(entries))
		}
		e := entries[0]
		if e.Kind != tt.kind || e.Role != tt.role || e.Injected != tt.injected || e.Text != tt.text {
			t.Errorf("%s: got %s/%q injected=%v %q, want %s/%q injected=%v %q", tt.name, e.Kind, e.Role, e.Injected, e.Text, tt.kind, tt.role, tt.injected, tt.text)
		}
	}
}

func TestUsage(t *testing.T) {
	asst := func(id, req string, in int) string {
		return fmt.Sprintf(`{"type":"assistant","requestId":%q,"message":{"id":%q,"model":"m","content":[],"usage":{"input_tokens":%d,"cache_read_input_tokens":1000,"output_tokens":5}}}`, req, id, in)
	}
	tc := func(total, last string) string {
		info := "null"
		if total != "" || last != "" {
			var parts []string
			if total != "" {
				parts = append(parts, `"total_token_usage":`+total)
			}
			if last != "" {
				parts = append(parts, `"last_token_usage":`+last)
			}
			info = "{" + strings.Join(parts, ",") + "}"
		}
		return `{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":` + info + `}}`
	}
	tests := []struct {
		name   string
		format Format
		lines  []string
		seen   []string
		want   int64
		calls  int
	}{
		{"same message id", ClaudeCode, []string{asst("m1", "r1", 1), asst("m1", "r1", 1), asst("m2", "r2", 2)}, nil, 2003, 2},
		{"request id when no message id", ClaudeCode, []string{asst("", "r1", 1), asst("", "r1", 1)}, nil, 1001, 1},
		{"no ids: every line counts", ClaudeCode, []string{asst("", "", 1), asst("", "", 1)}, nil, 2002, 2},
		{"seen before resuming", ClaudeCode, []string{asst("m1", "", 1), asst("m2", "", 2)}, []string{"m1"}, 1002, 1},
		{"codex totals only", Codex, []string{tc(`{"input_tokens":100,"output_tokens":1}`, ""), tc(`{"input_tokens":250,"output_tokens":2}`, "")}, nil, 250, 2},
		{"codex totals after resume", Codex, []string{tc(`{"input_tokens":250,"output_tokens":2}`, "")}, []string{"total:100:1:0"}, 150, 1},
		{"codex totals going back", Codex, []string{tc(`{"input_tokens":300}`, ""), tc(`{"input_tokens":40}`, "")}, nil, 340, 2},
		{"codex last only", Codex, []string{tc("", `{"input_tokens":30}`), tc("", `{"input_tokens":30}`)}, nil, 60, 2},
		{"codex null info", Codex, []string{tc("", "")}, nil, 0, 0},
		{"native usage without id", Native, []string{`{"type":"usage","input_tokens":5}`, `{"type":"usage","input_tokens":5}`}, nil, 10, 2},
		{"native assistant usage and usage line", Native, []string{`{"type":"assistant","message_id":"a","usage":{"input_tokens":5}}`, `{"type":"usage","message_id":"a","input_tokens":5}`}, nil, 5, 1},
		{"native empty usage object", Native, []string{`{"type":"assistant","message_id":"a","usage":{}}`, `{"type":"usage","message_id":"a","input_tokens":5}`}, nil, 0, 1},
	}
	for _, tt := range tests {
		data := []byte(strings.Join(tt.lines, "\n") + "\n")
		entries, _ := readAll(t, data, tt.format, Options{Seen: tt.seen})
		got, calls := usageSum(entries)
		c, err := CountTokens(bytes.NewReader(data), tt.format, Options{Seen: tt.seen})
		if err != nil {
			t.Fatal(err)
		}
		if got != tt.want || calls != tt.calls || c.InputTokens != tt.want || c.Calls != tt.calls {
			t.Errorf("%s: reader %d in %d calls, CountTokens %d in %d; want %d in %d", tt.name, got, calls, c.InputTokens, c.Calls, tt.want, tt.calls)
		}
	}
}

func TestSeenBounded(t *testing.T) {
	var b strings.Builder
	for i := range 3 * SeenWindow {
		fmt.Fprintf(&b, `{"type":"usage","message_id":"m%d","input_tokens":1}`+"\n", i)
	}
	_, r := readAll(t, []byte(b.String()), Native, Options{})
	seen := r.Seen()
	if len(seen) != SeenWindow || seen[0] != fmt.Sprintf("m%d", 2*SeenWindow) || seen[SeenWindow-1] != fmt.Sprintf("m%d", 3*SeenWindow-1) {
		t.Fatalf("Seen: %d ids, %v…", len(seen), seen[:3])
	}
}

func TestReadErrors(t *testing.T) {
	boom := errors.New("boom")
	r := NewReader(io.MultiReader(strings.NewReader(`{"type":"user","text":"a"}`+"\n"), iotest.ErrReader(boom)), Native, Options{})
	if e, err := r.Next(); err != nil || e.Text != "a" {
		t.Fatalf("first: %+v %v", e, err)
	}
	for range 2 {
		if _, err := r.Next(); !errors.Is(err, boom) || !strings.Contains(err.Error(), "line 2") {
			t.Fatalf("read error: %v", err)
		}
	}
	if _, err := NewReader(strings.NewReader("{}\n"), "jsonl", Options{}).Next(); err == nil || !strings.Contains(err.Error(), `"jsonl"`) {
		t.Fatalf("bad format: %v", err)
	}
	if _, err := CountTokens(strings.NewReader("{}\n"), "", Options{}); err == nil {
		t.Fatal("CountTokens with no format: no error")
	}
	r = NewReader(strings.NewReader(""), Codex, Options{StartIndex: 7, StartOffset: 100})
	for range 2 {
		if _, err := r.Next(); err != io.EOF || r.Index() != 7 || r.Offset() != 100 {
			t.Fatalf("empty: %v at %d/%d", err, r.Index(), r.Offset())
		}
	}
}
