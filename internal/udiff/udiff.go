// Package udiff writes unified diffs (as git diff and diff -u print them)
// of two texts, from sergi/go-diff's line diff: for showing a change set
// that is not committed (consolidate --dry-run) or two outcomes of the
// same run (consolidate --replay).
package udiff

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// DefaultContext is the lines of context around a change, as git's.
const DefaultContext = 3

// line is one line of the edit script: ' ' kept, '-' removed, '+' added.
type line struct {
	op   byte
	text string // without its line break
	eol  bool   // it ends with a line break
}

// Unified is the diff of a (named from) and b (named to) with context
// lines around each change, in hunks: "--- from", "+++ to", then
// "@@ -l,n +l,n @@" and the lines. Equal texts give "". A line without a
// final line break is followed by "\ No newline at end of file".
func Unified(from, to string, a, b []byte, context int) string {
	if string(a) == string(b) {
		return ""
	}
	script := edits(string(a), string(b))
	var out strings.Builder
	fmt.Fprintf(&out, "--- %s\n+++ %s\n", from, to)
	for _, h := range hunks(script, context) {
		writeHunk(&out, script, h)
	}
	return out.String()
}

// edits is the line edit script from a to b.
func edits(a, b string) []line {
	dmp := diffmatchpatch.New()
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	var script []line
	for _, d := range diffs {
		op := byte(' ')
		switch d.Type {
		case diffmatchpatch.DiffDelete:
			op = '-'
		case diffmatchpatch.DiffInsert:
			op = '+'
		}
		for _, l := range splitLines(d.Text) {
			script = append(script, line{op: op, text: strings.TrimSuffix(l, "\n"), eol: strings.HasSuffix(l, "\n")})
		}
	}
	return script
}

// splitLines splits s after each line break; the last line may lack one.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// span is a hunk: script[start:end].
type span struct{ start, end int }

// hunks groups the changed lines with up to context lines around them;
// changes closer than twice the context share a hunk.
func hunks(script []line, context int) []span {
	var out []span
	for i := 0; i < len(script); i++ {
		if script[i].op == ' ' {
			continue
		}
		start := max(0, i-context)
		end := min(len(script), i+1+context)
		if n := len(out); n > 0 && start <= out[n-1].end {
			out[n-1].end = end
		} else {
			out = append(out, span{start, end})
		}
		i = max(i, end-context-1) // the next change is looked for after this one
	}
	return out
}

// writeHunk writes one hunk with its header. Line numbers count from 1;
// a side with no line in the hunk is numbered by the line before it.
func writeHunk(out *strings.Builder, script []line, h span) {
	oldStart, newStart := 1, 1
	for _, l := range script[:h.start] {
		if l.op != '+' {
			oldStart++
		}
		if l.op != '-' {
			newStart++
		}
	}
	oldLen, newLen := 0, 0
	for _, l := range script[h.start:h.end] {
		if l.op != '+' {
			oldLen++
		}
		if l.op != '-' {
			newLen++
		}
	}
	fmt.Fprintf(out, "@@ -%s +%s @@\n", rangeOf(oldStart, oldLen), rangeOf(newStart, newLen))
	for _, l := range script[h.start:h.end] {
		out.WriteByte(l.op)
		out.WriteString(l.text)
		out.WriteByte('\n')
		if !l.eol {
			out.WriteString("\\ No newline at end of file\n")
		}
	}
}

// rangeOf is one side of a hunk header: "l" for one line, "l,n"
// otherwise, and the line before when n is 0.
func rangeOf(start, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", start-1)
	case 1:
		return fmt.Sprintf("%d", start)
	}
	return fmt.Sprintf("%d,%d", start, n)
}
