package sessionlog

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	tokencount "github.com/yoimem/git-yoimem/internal/tokens"
)

// TestUsageOutOfRange: a token counter is a whole number from 0 to 2^53;
// anything else (negative, larger, a fraction, an exponent, a string)
// counts 0, and the sums of a call and of a scan stop at 2^53 instead of
// overflowing.
func TestUsageOutOfRange(t *testing.T) {
	const max = "9007199254740992" // 2^53
	cc := func(in, creation, read string) string {
		return `{"type":"assistant","message":{"model":"m","content":[],"usage":{"input_tokens":` + in +
			`,"cache_creation_input_tokens":` + creation + `,"cache_read_input_tokens":` + read + `,"output_tokens":1}}}`
	}
	native := func(in string) string { return `{"type":"usage","input_tokens":` + in + `,"output_tokens":1}` }
	codex := func(total, last string) string {
		info := `{"total_token_usage":{"input_tokens":` + total + `}}`
		if last != "" {
			info = `{"total_token_usage":{"input_tokens":` + total + `},"last_token_usage":{"input_tokens":` + last + `}}`
		}
		return `{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":` + info + `}}`
	}
	tests := []struct {
		name   string
		format Format
		lines  []string
		want   int64
	}{
		{"2^53 is kept", Native, []string{native(max)}, tokencount.Max},
		{"2^53+1 counts 0", Native, []string{native("9007199254740993")}, 0},
		{"2^63-1 counts 0", Native, []string{native("9223372036854775807")}, 0},
		{"2^63 counts 0", Native, []string{native("9223372036854775808")}, 0},
		{"negative counts 0", Native, []string{native("-1")}, 0},
		{"fraction counts 0", Native, []string{native("1.5")}, 0},
		{"exponent counts 0", Native, []string{native("1e3")}, 0},
		{"string counts 0", Native, []string{native(`"12"`)}, 0},
		{"zero", Native, []string{native("0")}, 0},
		{"calls saturate", Native, []string{native(max), native(max), native("1")}, tokencount.Max},
		{"claude 2^63-1 plus cache", ClaudeCode, []string{cc("9223372036854775807", "1000", "10")}, 1010},
		{"claude three fields saturate", ClaudeCode, []string{cc(max, max, max)}, tokencount.Max},
		{"claude just under", ClaudeCode, []string{cc("9007199254740990", "1", "1")}, tokencount.Max},
		{"claude over by one", ClaudeCode, []string{cc("9007199254740990", "2", "1")}, tokencount.Max},
		{"codex last out of range", Codex, []string{codex("5", "9223372036854775807")}, 0},
		{"codex totals out of range", Codex, []string{codex("9223372036854775807", "")}, 0},
		{"codex totals at 2^53", Codex, []string{codex(max, "")}, tokencount.Max},
	}
	// A saved id with a negative total (the state file is machine-local,
	// yet may be damaged) does not make the difference overflow.
	t.Run("codex saved total negative", func(t *testing.T) {
		data := []byte(codex(max, "") + "\n")
		c, err := CountTokens(bytes.NewReader(data), Codex, Options{Seen: []string{"total:-9223372036854775808:0:0"}})
		if err != nil {
			t.Fatal(err)
		}
		if c.InputTokens != tokencount.Max {
			t.Errorf("CountTokens %d, want %d", c.InputTokens, tokencount.Max)
		}
	})
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data := []byte(strings.Join(tt.lines, "\n") + "\n")
			entries, _ := readAll(t, data, tt.format, Options{})
			got, _ := usageSum(entries)
			c, err := CountTokens(bytes.NewReader(data), tt.format, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want || c.InputTokens != tt.want {
				t.Errorf("reader %d, CountTokens %d; want %d", got, c.InputTokens, tt.want)
			}
			for _, e := range entries {
				if u := e.Usage; u != nil && (u.InputTokens < 0 || u.InputTokens > tokencount.Max || u.OutputTokens < 0 || u.OutputTokens > tokencount.Max) {
					t.Errorf("entry %d usage %+v out of range", e.Index, *u)
				}
			}
		})
	}
}

// TestCountTokensSaturates: many calls near the limit never wrap around.
func TestCountTokensSaturates(t *testing.T) {
	var b strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&b, `{"type":"usage","message_id":"m%d","input_tokens":%d}`+"\n", i, tokencount.Max)
	}
	c, err := CountTokens(strings.NewReader(b.String()), Native, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if c.InputTokens != tokencount.Max || c.Calls != 2000 {
		t.Fatalf("%d tokens in %d calls, want %d in 2000", c.InputTokens, c.Calls, tokencount.Max)
	}
}
