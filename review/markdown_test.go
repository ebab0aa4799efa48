package review

import (
	"strings"
	"testing"
)

// TestMarkdownEscapes: text from commit messages (subjects, reasons,
// categories, why a commit was skipped) reaches no terminal raw.
func TestMarkdownEscapes(t *testing.T) {
	esc := "\x1b[31m"
	r := Report{Range: "a..b", Commits: []Commit{{Commit: "c", Subject: "s" + esc, Engine: "rules" + esc,
		Groups:      []Group{{Name: "bogus" + esc, Ops: []Op{{Op: "trim", Path: ".yoi/knowledge/x.md", Reason: "r" + esc}}}},
		Unrecovered: []string{"u" + esc}}},
		Skipped: []Skipped{{Commit: "d", Subject: "t" + esc, Why: "w" + esc}}}
	md := Markdown(r)
	if strings.ContainsRune(md, 0x1b) {
		t.Errorf("a raw escape in:\n%q", md)
	}
	for _, want := range []string{`bogus\033[31m`, `w\033[31m`, `r\033[31m`} {
		if !strings.Contains(md, want) {
			t.Errorf("%q not in:\n%s", want, md)
		}
	}
}
