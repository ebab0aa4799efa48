package llm

import (
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/internal/tokens"
)

// TestUsageAdd: sums stop at 2^53 and counts out of range count 0, so a
// server or command reporting 2^63-1 tokens cannot wrap a sum around.
func TestUsageAdd(t *testing.T) {
	tests := []struct {
		name string
		a, b Usage
		want Usage
	}{
		{"small", Usage{1, 2}, Usage{3, 4}, Usage{4, 6}},
		{"at the limit", Usage{tokens.Max, 0}, Usage{0, tokens.Max}, Usage{tokens.Max, tokens.Max}},
		{"saturates", Usage{tokens.Max, tokens.Max}, Usage{1, tokens.Max}, Usage{tokens.Max, tokens.Max}},
		{"2^63-1 counts 0", Usage{1<<63 - 1, 1<<63 - 1}, Usage{5, 6}, Usage{5, 6}},
		{"negative counts 0", Usage{-2, -1 << 63}, Usage{5, 6}, Usage{5, 6}},
	}
	for _, tt := range tests {
		if got := tt.a.Add(tt.b); got != tt.want {
			t.Errorf("%s: %+v + %+v = %+v, want %+v", tt.name, tt.a, tt.b, got, tt.want)
		}
	}
}

// TestCommandEnvelopeUsageRange: the claude envelope's input, cache
// creation and cache read sum without overflow.
func TestCommandEnvelopeUsageRange(t *testing.T) {
	tests := []struct {
		name      string
		usage     string
		wantInput int64
		wantOut   int64
	}{
		{"2^63-1 input", `{"input_tokens":9223372036854775807,"cache_creation_input_tokens":1000,"cache_read_input_tokens":10,"output_tokens":9223372036854775807}`, 1010, 0},
		{"three at 2^53", `{"input_tokens":9007199254740992,"cache_creation_input_tokens":9007199254740992,"cache_read_input_tokens":9007199254740992,"output_tokens":3}`, tokens.Max, 3},
		{"negative", `{"input_tokens":-5,"cache_read_input_tokens":7,"output_tokens":-1}`, 7, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			body := "cat >/dev/null; cat <<'EOF'\n" + `{"type":"result","subtype":"success","is_error":false,"result":"ok","usage":` + tt.usage + "}\nEOF"
			resp, err := openCommand(t, body, Options{}).Call(quick(t), userRequest("hi"))
			if err != nil {
				t.Fatal(err)
			}
			if resp.Usage != (Usage{tt.wantInput, tt.wantOut}) {
				t.Errorf("usage %+v, want {%d %d}", resp.Usage, tt.wantInput, tt.wantOut)
			}
		})
	}
}

// TestFirstLines: what a command printed is quoted in an error as at most
// n lines of at most lineBytes each, control bytes escaped, never raw.
func TestFirstLines(t *testing.T) {
	long := strings.Repeat("x", 500)
	tests := []struct{ in, want string }{
		{"", "(no stderr)"},
		{"one\ntwo\n", "one\ntwo"},
		{"1\n2\n3\n4\n5\n6\n7", "1\n2\n3\n4\n5\n..."},
		{"bad\x00\x1b[31mred\x7f", `bad\x00\x1b[31mred\x7f`},
		{long, strings.Repeat("x", 300) + "... (500 bytes)"},
		{"tab\tok", "tab\tok"},
		{"crlf\r\nlines\r\n", "crlf\nlines"},
		{"\xff\xfe", `\xff\xfe`},
	}
	for _, tt := range tests {
		if got := firstLines(tt.in, 5); got != tt.want {
			t.Errorf("firstLines(%.40q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
