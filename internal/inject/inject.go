// Package inject is the one definition of the blocks git-yoimem puts into
// an agent's context: the always-on context and the #slug expansions.
// memory writes them; extract's session-log readers recognise them, to
// leave them out of what a model is asked to learn from.
//
// A block is exactly
//
//	<yoimem-memory kind="context">
//	…text…
//	</yoimem-memory>
//
// or, for a knowledge record, the opening line
// <yoimem-memory kind="knowledge" slug="retry-policy">. Both tags are
// whole lines. The text inside is escaped: every "<" that begins
// something a reader could take for the tag (an opening or closing
// yoimem-memory tag, in any letter case, with spaces after "<" or "/")
// is written "&lt;". Record text can then neither close the block early
// and go on as if it were the system speaking, nor open a block of its
// own; and the first closing line after an opening line is that block's
// end. The escape stays readable: "&lt;/yoimem-memory>".
//
// Strip removes only complete blocks of exactly this form. Text a person
// typed that merely mentions the tag, or an opening line never closed,
// is kept.
package inject

import "strings"

const (
	tag      = "yoimem-memory"
	openHead = "<" + tag + ` kind="`
	// Close is the closing line of every block.
	Close = "</" + tag + ">"
	// Escaped is what Escape writes for the "<" of a tag-like text.
	Escaped = "&lt;"
)

// OpenContext is the opening line of the always-on context.
func OpenContext() string { return openHead + `context">` }

// OpenKnowledge is the opening line of a knowledge record's expansion;
// slug must be a valid slug (lowercase letters, digits, hyphens).
func OpenKnowledge(slug string) string { return openHead + `knowledge" slug="` + slug + `">` }

// Block is open, text escaped, and the closing line, each on its own
// line; the result ends with the closing tag, without a newline.
func Block(open, text string) string {
	text = strings.TrimRight(Escape(text), "\n")
	if text == "" {
		return open + "\n" + Close
	}
	return open + "\n" + text + "\n" + Close
}

// Escape writes "&lt;" for every "<" that begins a yoimem-memory tag:
// "<", optional spaces, an optional "/", optional spaces, then
// "yoimem-memory" in any letter case.
func Escape(text string) string {
	if !strings.Contains(text, "<") {
		return text
	}
	var b strings.Builder
	last := 0
	for i := 0; i < len(text); i++ {
		if text[i] == '<' && looksLikeTag(text[i+1:]) {
			b.WriteString(text[last:i])
			b.WriteString(Escaped)
			last = i + 1
		}
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// looksLikeTag reports whether s, the text after a "<", continues like a
// yoimem-memory tag.
func looksLikeTag(s string) bool {
	s = strings.TrimLeft(s, " \t")
	if strings.HasPrefix(s, "/") {
		s = strings.TrimLeft(s[1:], " \t")
	}
	return len(s) >= len(tag) && strings.EqualFold(s[:len(tag)], tag)
}

// Strip removes the complete blocks this tool wrote from text and returns
// what is left and how many blocks were removed. A block starts with an
// opening line of exactly the form OpenContext or OpenKnowledge gives, at
// the start of text or of a line, and ends at the first line that is
// exactly Close. Nothing else is touched.
func Strip(text string) (string, int) {
	if !strings.Contains(text, openHead) {
		return text, 0
	}
	var b strings.Builder
	n, from := 0, 0
	for off := 0; ; {
		i := strings.Index(text[off:], openHead)
		if i < 0 {
			break
		}
		i += off
		end, ok := blockEnd(text, i)
		if !ok {
			off = i + len(openHead)
			continue
		}
		b.WriteString(text[from:i])
		from, off = end, end
		n++
	}
	if n == 0 {
		return text, 0
	}
	b.WriteString(text[from:])
	return b.String(), n
}

// blockEnd returns where the block that starts at i ends (after its
// closing line and that line's newline), if a block of ours starts there.
func blockEnd(text string, i int) (int, bool) {
	if i > 0 && text[i-1] != '\n' {
		return 0, false
	}
	nl := strings.IndexByte(text[i:], '\n')
	if nl < 0 {
		return 0, false
	}
	line := strings.TrimSuffix(text[i:i+nl], "\r")
	if !isOpenLine(line) {
		return 0, false
	}
	body := i + nl + 1
	// The closing line may follow at once (an empty block).
	for at := body - 1; ; {
		j := strings.Index(text[at:], "\n"+Close)
		if j < 0 {
			return 0, false
		}
		end := at + j + 1 + len(Close)
		switch {
		case end == len(text):
			return end, true
		case text[end] == '\n':
			return end + 1, true
		case strings.HasPrefix(text[end:], "\r\n"):
			return end + 2, true
		}
		at = end
	}
}

func isOpenLine(line string) bool {
	if line == OpenContext() {
		return true
	}
	slug, ok := strings.CutPrefix(line, openHead+`knowledge" slug="`)
	if !ok {
		return false
	}
	slug, ok = strings.CutSuffix(slug, `">`)
	return ok && validSlug(slug)
}

// validSlug: kebab-case, at most 64 characters (record's slug rule, kept
// here so that the readers need not import the record package).
func validSlug(s string) bool {
	if s == "" || len(s) > 64 || s[0] == '-' || s[len(s)-1] == '-' || strings.Contains(s, "--") {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}
