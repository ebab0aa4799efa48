package sessionlog

import (
	"errors"
	"strings"
	"testing"
)

func TestDetect(t *testing.T) {
	for _, fx := range fixtures {
		data := readFixture(t, fx.file)
		for _, n := range []int{len(data), 64 << 10, 80} {
			head := data[:min(n, len(data))]
			if f, err := Detect(head); err != nil || f != fx.format {
				t.Errorf("%s, first %d bytes: %q %v, want %q", fx.file, len(head), f, err, fx.format)
			}
		}
	}
	tests := []struct {
		name string
		head string
		want Format
	}{
		{"claude code user line", `{"parentUuid":null,"isSidechain":false,"type":"user"` + "\n", ClaudeCode},
		{"claude code summary first", `{"type":"summary","summary":"x","leafUuid":"u"}` + "\n", ClaudeCode},
		{"claude code cut short", `{"parentUuid":"a","isSidechain":false,"userType":"external","message":{"content":"` + strings.Repeat("x", 100), ClaudeCode},
		{"codex session_meta", `{"timestamp":"2025-12-28T12:18:30.533Z","type":"session_meta","payload":{"id":"x"}}` + "\n", Codex},
		{"codex cut short", `{"timestamp":"2025-12-28T12:18:30.533Z","type":"session_meta","payload":{"base_instructions":{"text":"` + strings.Repeat("x", 100), Codex},
		{"native", `{"type":"session","ts":"2026-09-01T10:00:00Z","session_id":"s"}` + "\n", Native},
		{"after blank and junk lines", "\n\nnot json\n" + `{"type":"user","ts":"t","text":"x"}` + "\n", Native},
	}
	for _, tt := range tests {
		if f, err := Detect([]byte(tt.head)); err != nil || f != tt.want {
			t.Errorf("%s: %q %v, want %q", tt.name, f, err, tt.want)
		}
	}
	for _, bad := range []string{"", " \n\n", "hello\nworld\n", `{"a":1}` + "\n", "\x00\xff\xfe{", `[{"type":"user"}]` + "\n"} {
		if f, err := Detect([]byte(bad)); err == nil || !errors.Is(err, ErrUnknownFormat) {
			t.Errorf("Detect(%q) = %q, %v; want ErrUnknownFormat", bad, f, err)
		}
	}
}

func TestParseFormat(t *testing.T) {
	for _, f := range Formats() {
		if got, err := ParseFormat(string(f)); err != nil || got != f {
			t.Errorf("ParseFormat(%q) = %q, %v", f, got, err)
		}
	}
	for _, bad := range []string{"", "claude", "Codex", "jsonl"} {
		_, err := ParseFormat(bad)
		if err == nil || !strings.Contains(err.Error(), `"`+bad+`"`) || !strings.Contains(err.Error(), "native, claude-code, codex") {
			t.Errorf("ParseFormat(%q): %v", bad, err)
		}
	}
}
