package tokens

import (
	"strings"
	"testing"
)

// TestEstimate: about four ASCII characters a token, one a token for
// every other character (CJK, kana, hangul, accented letters, emoji), and
// one for a byte that is not UTF-8.
func TestEstimate(t *testing.T) {
	tests := []struct {
		name string
		text string
		want int64
	}{
		{"empty", "", 0},
		{"one ASCII character", "a", 1},
		{"four ASCII characters", "abcd", 1},
		{"five ASCII characters", "abcde", 2},
		{"English", "Retry idempotent calls twice, with backoff.\n", 11},
		{"Japanese", "統合は一日一回", 7},
		{"mixed", "retry: 再試行は二回まで", 2 + 8},
		{"accented", "café", 1 + 1},
		{"emoji", "ok 👍", 1 + 1},
		{"invalid UTF-8", "ab\xff\xfe", 1 + 2},
		{"4000 ASCII characters", strings.Repeat("x", 4000), 1000},
		{"4000 kanji", strings.Repeat("字", 4000), 4000},
	}
	for _, tt := range tests {
		if got := Estimate([]byte(tt.text)); got != tt.want {
			t.Errorf("%s: Estimate(%q) = %d, want %d", tt.name, tt.text, got, tt.want)
		}
	}
}
