package sessionlog

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden from the readers' output")

// fixtures are the sample logs in testdata (or, from "../", elsewhere in
// the repository), with the format each is in, the deduplicated input
// tokens they hold (worked out by hand) and, for those outside testdata,
// the golden file's name in testdata.
var fixtures = []struct {
	file   string
	format Format
	tokens int64
	calls  int
	golden string
}{
	// msg_A 3+1033+28193, msg_B 1+200+29226, msg_C 2+500+29500,
	// msg_S1 5+0+12000 (sidechain), msg_D 4+100+30000, msg_E 6+300+31000;
	// the synthetic API error and the nested "usage" of an unknown type
	// are not calls.
	{"claudecode.jsonl", ClaudeCode, 162073, 6, ""},
	// 15802 (last), a repeat and an info:null skipped, 34000-15802 (from
	// totals), 18000 (last).
	{"codex.jsonl", Codex, 52000, 3, ""},
	// Rollouts the real Codex CLI wrote (testdata/agents/codex), the
	// newer generation (0.148 on) and the older: the last_token_usage of
	// each call (the 0.171 token_usage_record lines repeat them).
	{"../../testdata/agents/codex/0.171.0/tools/rollout.jsonl", Codex, 30870, 3, "codex-0.171.0-tools.golden"},
	{"../../testdata/agents/codex/0.171.0/hook-context/rollout.jsonl", Codex, 10246, 1, "codex-0.171.0-hook-context.golden"},
	{"../../testdata/agents/codex/0.128.0/tools/rollout.jsonl", Codex, 35609, 3, "codex-0.128.0-tools.golden"},
	{"../../testdata/agents/codex/0.128.0/hook-context/rollout.jsonl", Codex, 11838, 1, "codex-0.128.0-hook-context.golden"},
	{"native.jsonl", Native, 38500, 3, ""},
}

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// rendered is an Entry in the stable form the golden files hold.
type rendered struct {
	Index       int          `json:"i"`
	Offset      int64        `json:"off"`
	End         int64        `json:"end"`
	Kind        Kind         `json:"kind"`
	Role        Role         `json:"role,omitempty"`
	Type        string       `json:"type,omitempty"`
	Time        string       `json:"time,omitempty"`
	SessionID   string       `json:"session,omitempty"`
	Sidechain   bool         `json:"sidechain,omitempty"`
	Injected    bool         `json:"injected,omitempty"`
	Text        string       `json:"text,omitempty"`
	ToolCalls   []ToolCall   `json:"calls,omitempty"`
	ToolResults []ToolResult `json:"results,omitempty"`
	Usage       *Usage       `json:"usage,omitempty"`
	Extension   *Extension   `json:"ext,omitempty"`
	Problem     string       `json:"problem,omitempty"`
}

func render(entries []Entry) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	for _, e := range entries {
		r := rendered{e.Index, e.Offset, e.End, e.Kind, e.Role, e.Type, "", e.SessionID, e.Sidechain, e.Injected, e.Text, e.ToolCalls, e.ToolResults, e.Usage, e.Extension, e.Problem}
		if !e.Time.IsZero() {
			r.Time = e.Time.UTC().Format(time.RFC3339Nano)
		}
		if err := enc.Encode(r); err != nil {
			panic(err)
		}
	}
	return b.Bytes()
}

func readAll(t testing.TB, data []byte, f Format, opts Options) ([]Entry, *Reader) {
	t.Helper()
	r := NewReader(bytes.NewReader(data), f, opts)
	entries, err := r.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	return entries, r
}

func TestGolden(t *testing.T) {
	for _, fx := range fixtures {
		t.Run(fx.file, func(t *testing.T) {
			entries, _ := readAll(t, readFixture(t, fx.file), fx.format, Options{})
			got := render(entries)
			golden := filepath.Join("testdata", strings.TrimSuffix(fx.file, ".jsonl")+".golden")
			if fx.golden != "" {
				golden = filepath.Join("testdata", fx.golden)
			}
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s differs from %s (go test ./sessionlog -update rewrites it):\n%s", fx.file, golden, lineDiff(want, got))
			}
		})
	}
}

// lineDiff shows the first differing line of two renderings.
func lineDiff(want, got []byte) string {
	w, g := strings.Split(string(want), "\n"), strings.Split(string(got), "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return "want: " + a + "\n got: " + b
		}
	}
	return ""
}

// TestDocExample reads the native example in docs/session-log.md.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "session-log.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```jsonl\n")
	example, _, ok2 := strings.Cut(rest, "```")
	if !ok || !ok2 {
		t.Fatal("no jsonl example in docs/session-log.md")
	}
	entries, _ := readAll(t, []byte(example), Native, Options{})
	tokens, _ := usageSum(entries)
	var kinds []string
	for _, e := range entries {
		kinds = append(kinds, string(e.Kind))
	}
	want := "meta meta message message tool_result tool_call usage tool_result tool_result message message extension compaction"
	if tokens != 38500 || strings.Join(kinds, " ") != want || !entries[1].Injected {
		t.Errorf("doc example: %d tokens, kinds %s", tokens, kinds)
	}
}
