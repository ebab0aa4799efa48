package eval

import (
	"regexp"
	"strings"
	"sync"
)

// Text is compared normalised: case folded, markdown emphasis, code
// spans' backticks, bullets, numbered-list marks, block quotes and
// headings' hashes dropped, runs of white space (newlines and CRLF
// included) one space. A claim survives however a record formats it.

var (
	// listMark is compiled on first use, not at every command's start (a
	// once-value, not mutable state).
	listMark = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*(?:[-*+]|\d+[.)]|>|#{1,6})\s+`) })
	emphasis = strings.NewReplacer("**", "", "__", "", "*", "", "_", "", "`", "", "~~", "")
)

// normalize is s as text conditions compare it.
func normalize(s string) string {
	lines := strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	for i, l := range lines {
		for {
			cut := listMark().ReplaceAllString(l, "")
			if cut == l {
				break
			}
			l = cut
		}
		lines[i] = l
	}
	s = emphasis.Replace(strings.Join(lines, "\n"))
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}
