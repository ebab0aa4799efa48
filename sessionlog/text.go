package sessionlog

import (
	"strings"
	"unicode/utf8"

	"github.com/yoimem/git-yoimem/internal/inject"
)

// SummaryBytes is the most bytes a ToolCall or ToolResult summary holds
// (plus the "…" that marks a cut).
const SummaryBytes = 200

// ellipsis marks a summary that was cut.
const ellipsis = "…"

// summarize shortens text for display: lines trimmed of white space,
// blank lines dropped, at most SummaryBytes bytes cut at a character
// boundary. cut says the text went on beyond what was given.
func summarize(text string, cut bool) string {
	var b strings.Builder
	for line := range strings.Lines(text) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		if b.Len()+len(line) > SummaryBytes {
			n := max(SummaryBytes-b.Len(), 0)
			for n > 0 && !utf8.RuneStart(line[n]) {
				n--
			}
			b.WriteString(line[:n])
			cut = true
			break
		}
		b.WriteString(line)
	}
	s := strings.TrimSpace(b.String())
	if cut && s != "" {
		s += ellipsis
	}
	return s
}

// summaryOf summarizes a raw JSON string value, decoding only its start.
func summaryOf(v []byte) string {
	s, cut := stringPrefix(v, 4*SummaryBytes)
	return summarize(s, cut)
}

// wrapper is a tag whose blocks are kept out of an entry's Text.
type wrapper struct {
	tag      string
	injected bool // text the harness or git-yoimem put there, not the user
}

// wrappers are the blocks harnesses wrap around text in user turns:
// Claude Code's slash commands, local command output, shell mode and
// reminders. git-yoimem's own blocks are not among them: only their exact
// form is recognised (internal/inject), so that a tag a person types stays
// theirs.
var wrappers = [...]wrapper{
	{"system-reminder", true},
	{"user-prompt-submit-hook", true},
	{"task-notification", true},
	{"local-command-caveat", true},
	{"environment_context", true},
	{"user_instructions", true},
	{"command-name", false},
	{"command-message", false},
	{"command-args", false},
	{"local-command-stdout", false},
	{"local-command-stderr", false},
	{"bash-input", false},
	{"bash-stdout", false},
	{"bash-stderr", false},
}

// interruptions are the markers Claude Code writes as a user turn when the
// user stops the agent; they carry no content.
var interruptions = [...]string{
	"[Request interrupted by user]",
	"[Request interrupted by user for tool use]",
}

// stripWrappers removes the wrapper blocks from text and reports whether
// any was removed and whether all that were removed were injected ones. An
// opening tag without its closing tag runs to the end of the text.
func stripWrappers(text string) (out string, stripped, injected bool) {
	if !strings.Contains(text, "<") {
		return text, false, false
	}
	var b strings.Builder
	injected = true
	rest, ours := inject.Strip(text)
	stripped = ours > 0
	for {
		i, w := nextWrapper(rest)
		if i < 0 {
			b.WriteString(rest)
			break
		}
		b.WriteString(rest[:i])
		stripped = true
		injected = injected && w.injected
		closing := "</" + w.tag + ">"
		j := strings.Index(rest[i:], closing)
		if j < 0 {
			break
		}
		rest = rest[i+j+len(closing):]
	}
	if !stripped {
		return text, false, false
	}
	return strings.TrimSpace(b.String()), true, injected
}

// nextWrapper finds the first opening wrapper tag in s.
func nextWrapper(s string) (int, wrapper) {
	for off := 0; ; {
		i := strings.IndexByte(s[off:], '<')
		if i < 0 {
			return -1, wrapper{}
		}
		i += off
		for _, w := range wrappers {
			rest := s[i+1:]
			if strings.HasPrefix(rest, w.tag) && len(rest) > len(w.tag) && (rest[len(w.tag)] == '>' || rest[len(w.tag)] == ' ') {
				return i, w
			}
		}
		off = i + 1
	}
}

// userEntry fills in a user turn from its text: meta when the agent or
// git-yoimem put it there (injected), else a message with its wrapper
// blocks removed, or meta when nothing typed is left.
func userEntry(text string, injected bool, e *Entry) {
	e.Role = RoleUser
	if injected {
		e.Kind, e.Injected, e.Text = KindMeta, true, text
		return
	}
	clean, noise, inj := userText(text)
	e.Kind, e.Text = KindMessage, clean
	if noise {
		e.Kind, e.Injected, e.Text = KindMeta, inj, text
	}
}

// userText classifies a user turn's text: the text with wrapper blocks
// removed, whether what remains is noise (nothing left, or an interruption
// marker), and whether the noise was injected rather than typed.
func userText(text string) (clean string, noise, injected bool) {
	clean, stripped, inj := stripWrappers(text)
	clean = strings.TrimSpace(clean)
	for _, m := range interruptions {
		if clean == m {
			return clean, true, false
		}
	}
	if clean == "" {
		return "", true, stripped && inj
	}
	return clean, false, false
}
