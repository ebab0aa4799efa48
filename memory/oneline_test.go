package memory

import (
	"strings"
	"testing"
)

// TestOneLine: a description on one line with single spaces is used as it
// is, without a copy (SessionStart puts hundreds in the context, in front
// of the user); any other is its words joined by single spaces.
func TestOneLine(t *testing.T) {
	for _, s := range []string{
		"", " ", "when you retry", " when", "when ", "when  you", "when\tyou", "when\nyou",
		"naïve café résumé", "a\u00a0b", "a\u0085b", "a\u2003b", "日本語 の 説明", "\xff bad utf8",
	} {
		if got, want := oneLine(s), strings.Join(strings.Fields(s), " "); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", s, got, want)
		}
	}
	s := strings.Repeat("when you change the retry loop ", 20) + "end"
	if n := testing.AllocsPerRun(10, func() { _ = oneLine(s) }); n != 0 {
		t.Errorf("oneLine of a one-line description made %v allocations, want 0", n)
	}
}
