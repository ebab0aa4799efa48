package rules

import (
	"slices"
	"strings"

	"github.com/yoimem/git-yoimem/record"
)

// draft is a record as this run makes it: its body grows
// only by sections and lines whose exact text is not there yet, which is
// what makes a second run over the same entries change nothing.
type draft struct {
	rec    *known
	isNew  bool
	body   []string // the body's lines, without their line ends
	nl     string   // the record's line end
	status record.Status
	// edited: body differs from the record's; until then the body's bytes
	// are left as they are (a missing final line end, say).
	edited bool

	entries []string        // staging IDs that contributed, in order
	fresh   map[string]bool // those that added text
	written tally           // what this run added, for the reason
}

// tally counts what a run wrote into a record, for its reason.
type tally struct {
	decisions, points, requests, failed, worked int
}

func newDraft(rec *known, isNew bool) *draft {
	d := &draft{rec: rec, isNew: isNew, nl: "\n", status: rec.status, fresh: map[string]bool{}}
	body := ""
	if doc, err := record.Parse(rec.content); err == nil {
		body, d.nl = string(doc.Body()), doc.Newline()
	}
	d.body = splitLines(body)
	return d
}

// splitLines splits text into lines without their line ends ("\n" or
// "\r\n"); a final line end gives no empty last line.
func splitLines(text string) []string {
	var out []string
	for line := range strings.Lines(text) {
		out = append(out, strings.TrimRight(strings.TrimSuffix(line, "\n"), "\r"))
	}
	return out
}

// text is the body with the record's line ends.
func (d *draft) text() string {
	if len(d.body) == 0 {
		return ""
	}
	return strings.Join(d.body, d.nl) + d.nl
}

// touch records that entry id contributed, and whether it added text.
func (d *draft) touch(id string, added bool) {
	if !slices.Contains(d.entries, id) {
		d.entries = append(d.entries, id)
	}
	if added {
		d.fresh[id] = true
	}
}

// hasBlock reports whether lines appear in the body one after another.
func (d *draft) hasBlock(lines []string) bool {
	if len(lines) == 0 {
		return true
	}
	for i := 0; i+len(lines) <= len(d.body); i++ {
		if slices.Equal(d.body[i:i+len(lines)], lines) {
			return true
		}
	}
	return false
}

func (d *draft) hasLine(line string) bool { return slices.Contains(d.body, line) }

// appendSection adds a heading and its lines at the end of the body, a
// blank line before each.
func (d *draft) appendSection(heading string, lines []string) {
	for len(d.body) > 0 && strings.TrimSpace(d.body[len(d.body)-1]) == "" {
		d.body = d.body[:len(d.body)-1]
	}
	if len(d.body) > 0 {
		d.body = append(d.body, "")
	}
	d.body = append(d.body, heading, "")
	d.body = append(d.body, lines...)
	d.edited = true
}

// section finds the lines of the "## name" section: the heading's index
// and the index after the section's last line (the next heading, or the
// end). ok is false when there is no such section.
func (d *draft) section(heading string) (at, end int, ok bool) {
	at = slices.Index(d.body, heading)
	if at < 0 {
		return 0, 0, false
	}
	end = at + 1
	for end < len(d.body) && !isHeading(d.body[end]) {
		end++
	}
	return at, end, true
}

// isHeading: an ATX heading line, # to ######, then a space.
func isHeading(line string) bool {
	n := 0
	for n < len(line) && n < 7 && line[n] == '#' {
		n++
	}
	return n >= 1 && n <= 6 && n < len(line) && line[n] == ' '
}

// addItem adds an item line to the "## name" section unless an item with
// the same key is there; it creates the section at the end when there is
// none. It reports whether it added the line.
func (d *draft) addItem(heading, line string) bool {
	at, end, ok := d.section(heading)
	if !ok {
		d.appendSection(heading, []string{line})
		return true
	}
	key := itemKey(line)
	for _, l := range d.body[at+1 : end] {
		if isItem(l) && itemKey(l) == key {
			return false
		}
	}
	last := end
	for last > at+1 && strings.TrimSpace(d.body[last-1]) == "" {
		last--
	}
	insert := []string{line}
	if last == at+1 {
		insert = []string{"", line} // a heading with nothing under it yet
	}
	d.body = slices.Insert(d.body, last, insert...)
	d.edited = true
	return true
}
