package extract

import (
	"strconv"
	"strings"

	"github.com/yoimem/git-yoimem/internal/secrets"
	"github.com/yoimem/git-yoimem/sessionlog"
)

// RenderOptions bound what one entry contributes to the transcript.
type RenderOptions struct {
	// MaxEntryChars caps one entry's text (a pasted file, a long answer);
	// the rest is replaced by a visible marker, never cut silently. 0:
	// 16,000.
	MaxEntryChars int
	// MaxSummaryChars caps a tool call's or result's summary. 0: 160.
	MaxSummaryChars int
}

func (o RenderOptions) entryChars() int   { return orDefault(o.MaxEntryChars, 16000) }
func (o RenderOptions) summaryChars() int { return orDefault(o.MaxSummaryChars, 160) }

func orDefault(v, def int) int {
	if v > 0 {
		return v
	}
	return def
}

// Rendered is the transcript of a range for the model.
type Rendered struct {
	Text     string
	Entries  int // entries shown
	Dropped  int // entries left out: injected, meta, reasoning, usage, other
	Redacted int // credentials replaced
}

// Render writes the conversation of entries as plain lines for the model.
// Kept: what the user and the assistant wrote, tool calls and results as
// their short summaries, compaction boundaries. Left out: text injected by
// the harness or this tool, metadata, reasoning, usage lines, extensions.
// Credentials are redacted.
func Render(entries []sessionlog.Entry, opts RenderOptions) Rendered {
	var b strings.Builder
	var r Rendered
	compacted := false // a boundary just written: Codex writes two lines for one
	for i := range entries {
		e := &entries[i]
		if e.Kind == sessionlog.KindCompaction && compacted {
			r.Dropped++
			continue
		}
		if renderEntry(&b, e, opts, &r.Redacted) {
			r.Entries++
			compacted = e.Kind == sessionlog.KindCompaction
		} else {
			r.Dropped++
		}
	}
	// Each piece was redacted before its cap (a cap inside a credential
	// would leave its first part undetectable); this pass is a backstop.
	r.Text = redactCount(b.String(), &r.Redacted)
	return r
}

// redactCount redacts the credentials in s and adds their number to n.
func redactCount(s string, n *int) string {
	m := secrets.Find([]byte(s))
	if len(m) == 0 {
		return s
	}
	*n += len(m)
	return string(secrets.Redact([]byte(s)))
}

// renderEntry writes one entry and reports whether it was kept.
func renderEntry(b *strings.Builder, e *sessionlog.Entry, opts RenderOptions, redacted *int) bool {
	if e.Injected {
		return false
	}
	who := string(e.Role)
	if e.Sidechain {
		who = "sub-agent " + who
	}
	switch e.Kind {
	case sessionlog.KindMessage, sessionlog.KindToolCall:
		kept := false
		if text := strings.TrimSpace(e.Text); text != "" {
			b.WriteString(who)
			b.WriteString(": ")
			b.WriteString(capText(redactCount(text, redacted), opts.entryChars()))
			b.WriteByte('\n')
			kept = true
		}
		for _, c := range e.ToolCalls {
			b.WriteString(who)
			b.WriteString(" called ")
			b.WriteString(oneLine(redactCount(c.Name, redacted), 80))
			if s := oneLine(redactCount(c.Summary, redacted), opts.summaryChars()); s != "" {
				b.WriteString(": ")
				b.WriteString(s)
			}
			b.WriteByte('\n')
			kept = true
		}
		return kept
	case sessionlog.KindToolResult:
		for _, res := range e.ToolResults {
			if e.Sidechain {
				b.WriteString("sub-agent ")
			}
			if res.IsError {
				b.WriteString("tool error")
			} else {
				b.WriteString("tool result")
			}
			b.WriteString(" (")
			b.WriteString(strconv.Itoa(res.Bytes))
			b.WriteString(" bytes)")
			if s := oneLine(redactCount(res.Summary, redacted), opts.summaryChars()); s != "" {
				b.WriteString(": ")
				b.WriteString(s)
			}
			b.WriteByte('\n')
		}
		return len(e.ToolResults) > 0
	case sessionlog.KindCompaction:
		b.WriteString("--- the agent's context was compacted here ---\n")
		return true
	}
	return false
}

// capText keeps the first n characters of s and says how much was left out.
func capText(s string, n int) string {
	head, cut := prefix(s, n)
	if !cut {
		return s
	}
	return head + " […" + strconv.Itoa(len(s)-len(head)) + " more bytes not shown]"
}

// oneLine joins a summary's lines and caps it at n characters.
func oneLine(s string, n int) string {
	head, cut := prefix(strings.Join(strings.Fields(s), " "), n)
	if cut {
		return head + "…"
	}
	return head
}

// prefix is the first n characters of s, and whether that left any out.
func prefix(s string, n int) (string, bool) {
	for i := range s {
		if n == 0 {
			return s[:i], true
		}
		n--
	}
	return s, false
}
