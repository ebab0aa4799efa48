package agent

import (
	"fmt"
	"strings"
	"unicode/utf16"

	"github.com/yoimem/git-yoimem/internal/quote"
)

// Context is text for the model in parts, so that an encoder over an
// agent's cap knows what it may leave out: the Summary is kept whole
// when it fits, Parts are left out from the last, and a visible line
// names what was left out. It is never cut silently.
type Context struct {
	Summary string
	Parts   []Part // in order of importance, the most important first
	// Hint ends the notice with where the left-out text can be read, e.g.
	// "run `git yoimem context` to read them".
	Hint string
	// SummaryName is what the notice calls a cut summary ("the summary"
	// when empty): a summary that carries more than the summary says so.
	SummaryName string
}

// Part is one piece of context with the name the notice gives it when it
// is left out (e.g. "knowledge descriptions", "#retry").
type Part struct {
	Name string
	Text string
}

// sep joins the summary and the parts.
const sep = "\n\n"

// Empty tells whether there is no text at all.
func (c Context) Empty() bool { return c.Text() == "" }

// Text is the whole context: the summary and the parts, blank lines
// between, empty pieces skipped.
func (c Context) Text() string {
	return join(c.Summary, c.Parts)
}

func join(summary string, parts []Part) string {
	var pieces []string
	if summary != "" {
		pieces = append(pieces, summary)
	}
	for _, p := range parts {
		if p.Text != "" {
			pieces = append(pieces, p.Text)
		}
	}
	return strings.Join(pieces, sep)
}

// Len is the length of s as agents written in JavaScript count it
// (UTF-16 code units), which is never less than its characters: caps
// such as Claude Code's 10,000 characters are checked with it.
func Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r)
	}
	return n
}

// Fit returns the context within limit (counted by Len) and the names of
// what it left out. Within the limit it is Text. Over it, parts are left
// out from the last until the rest and a notice naming them fit; when the
// summary alone is too long it is cut at a line end and "the rest of the
// summary" is named too. Only when limit cannot hold even the notice is
// the notice itself shortened.
func (c Context) Fit(limit int) (string, []string) {
	whole := c.Text()
	if Len(whole) <= limit {
		return whole, nil
	}
	var left []Part
	for k := len(c.Parts) - 1; k >= 0; k-- {
		if c.Parts[k].Text == "" {
			continue
		}
		left = append([]Part{c.Parts[k]}, left...)
		text := c.notice(left, limit)
		if kept := join(c.Summary, c.Parts[:k]); kept != "" {
			text = kept + sep + text
		}
		if Len(text) <= limit {
			return text, names(left)
		}
	}
	return c.cutSummary(limit, left)
}

// cutSummary keeps the summary's first lines that fit with the notice.
func (c Context) cutSummary(limit int, left []Part) (string, []string) {
	name := c.SummaryName
	if name == "" {
		name = "the summary"
	}
	rest := Part{Name: "the rest of " + name, Text: c.Summary}
	all := append([]Part{rest}, left...)
	notice := c.notice(all, limit) // an upper bound: the rest only gets shorter
	room := limit - Len(notice) - Len(sep)
	kept := prefixLines(c.Summary, room)
	all[0].Text = c.Summary[len(kept):]
	notice = c.notice(all, limit)
	if kept == "" {
		return clip(notice, limit), names(all)
	}
	return kept + sep + notice, names(all)
}

// prefixLines is the longest run of whole lines of s within room.
func prefixLines(s string, room int) string {
	if room <= 0 {
		return ""
	}
	n, end := 0, 0
	for i, r := range s {
		n += utf16.RuneLen(r)
		if n > room {
			break
		}
		if r == '\n' {
			end = i
		}
	}
	if end == 0 {
		return clip(s, room) // one long line: cut at a character
	}
	return s[:end]
}

// clip cuts s to limit by Len, at a character boundary.
func clip(s string, limit int) string {
	n := 0
	for i, r := range s {
		n += utf16.RuneLen(r)
		if n > limit {
			return s[:i]
		}
	}
	return s
}

func (c Context) notice(left []Part, limit int) string {
	items := make([]string, len(left))
	for i, p := range left {
		items[i] = fmt.Sprintf("%s (%s characters)", p.Name, quote.Thousands(int64(Len(p.Text))))
	}
	s := "[git-yoimem: left out to stay within the agent's limit of " + quote.Thousands(int64(limit)) +
		" characters of hook output: " + strings.Join(items, ", ")
	if c.Hint != "" {
		s += "; " + c.Hint
	}
	return s + "]"
}

func names(parts []Part) []string {
	out := make([]string, len(parts))
	for i, p := range parts {
		out[i] = p.Name
	}
	return out
}

// Shorten returns s within limit (counted by Len): s itself, or its
// first lines (or characters) and a visible line saying how much of what
// was left out, e.g. "the rest of the reason (1,204 characters)".
func Shorten(s string, limit int, what string) string {
	text, _ := Context{Summary: s, SummaryName: what}.Fit(limit)
	return text
}
