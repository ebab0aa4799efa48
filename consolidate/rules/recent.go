package rules

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// headRecent is the summary's section of recent work.
const headRecent = "## Recent work"

// writeRecent merges the run's recent-work lines into the summary's
// "## Recent work" section: its items (list lines) and the new ones, one
// per thing said (the newest date kept), oldest first, the newest keep of
// them kept. Lines in the section that are not items stay above them. A
// locked summary is left as it is.
func (p *planner) writeRecent(ctx context.Context, keep int) error {
	if len(p.recent) == 0 || p.in.Locked[record.SummaryPath] {
		return nil
	}
	old, exists, err := p.readSummary(p.in.Lint.MaxFileBytes)
	if err != nil {
		return err
	}
	d := &draft{rec: &known{path: record.SummaryPath, kind: record.KindSummary, content: old}, nl: "\n", body: []string{"# Summary"}}
	if exists {
		d = newDraft(d.rec, false)
	}
	var lines []string
	var staging []string
	for _, r := range p.recent {
		lines = append(lines, r.line)
		if !slices.Contains(staging, r.entry) {
			staging = append(staging, r.entry)
		}
	}
	added, dropped := d.mergeRecent(lines, keep)
	if added == 0 && dropped == 0 {
		return nil
	}
	reason := fmt.Sprintf("recent work: %d %s added", added, plural(added, "line", "lines"))
	if dropped > 0 {
		reason += fmt.Sprintf(", %d older %s dropped (the newest %d kept; git history has the rest)", dropped, plural(dropped, "line", "lines"), keep)
	}
	c := consolidate.Change{Kind: memlog.OpUpdate, Path: record.SummaryPath, Staging: staging, Reason: reason}
	if exists {
		doc, err := record.Parse(old)
		if err != nil {
			c.Content = old // the session refuses it, naming the problem
		} else if err := doc.SetBody([]byte(d.text())); err != nil {
			return fmt.Errorf("rules engine: %s: %w", record.DisplayPath(record.SummaryPath), err)
		} else {
			c.Content = doc.Bytes()
		}
	} else {
		c.Kind = memlog.OpAdd
		if c.Content, err = record.Render(&record.Record{Kind: record.KindSummary, CreatedAt: p.in.Now, UpdatedAt: p.in.Now}, []byte(d.text())); err != nil {
			return fmt.Errorf("rules engine: %s: %w", record.DisplayPath(record.SummaryPath), err)
		}
	}
	if _, err := p.s.Apply(ctx, c); err != nil {
		return fmt.Errorf("rules engine: %w", err)
	}
	return nil
}

// readSummary reads the summary as the session has it now, unless it is
// over maxBytes.
func (p *planner) readSummary(maxBytes int64) ([]byte, bool, error) {
	snap := p.s.Snapshot()
	e, ok := snap.Lookup(record.SummaryPath)
	if !ok || e.Mode != record.ModeRegular {
		return nil, false, nil
	}
	if err := tooBig(e, maxBytes); err != nil {
		return nil, false, fmt.Errorf("rules engine: recent work for %w; shorten the summary or raise the limit", err)
	}
	b, err := snap.Read(record.SummaryPath)
	if err != nil {
		return nil, false, fmt.Errorf("read %s: %w", record.DisplayPath(record.SummaryPath), err)
	}
	return b, true, nil
}

// mergeRecent merges lines into the recent-work section (creating it at
// the end of the body) and reports how many lines are new there and how
// many old ones were dropped to keep the newest keep. The result depends
// only on the set of items, so merging the same lines again changes
// nothing.
func (d *draft) mergeRecent(lines []string, keep int) (added, dropped int) {
	at, end, ok := d.section(headRecent)
	if !ok {
		d.appendSection(headRecent, nil)
		at, end = len(d.body)-2, len(d.body)
	}
	var prose, items []string
	for _, l := range d.body[at+1 : end] {
		if isItem(l) {
			items = append(items, l)
		} else {
			prose = append(prose, l)
		}
	}
	merged := newestByKey(append(slices.Clone(items), lines...))
	slices.SortFunc(merged, compareItems)
	if len(merged) > keep {
		merged = merged[len(merged)-keep:]
	}
	for _, l := range merged {
		if !slices.Contains(items, l) {
			added++
		}
	}
	// Dropped: the old items not kept, duplicates among them included.
	dropped = len(items) - (len(merged) - added)
	if added == 0 && dropped == 0 {
		return 0, 0
	}
	section := []string{headRecent, ""}
	if p := trimBlank(prose); len(p) > 0 {
		section = append(append(section, p...), "")
	}
	section = append(section, merged...)
	if end < len(d.body) {
		section = append(section, "")
	}
	d.body = slices.Concat(d.body[:at], section, d.body[end:])
	d.edited = true
	return added, dropped
}

// newestByKey keeps one item per thing said: the one with the newest date.
func newestByKey(items []string) []string {
	best := map[string]string{}
	var order []string
	for _, l := range items {
		k := itemKey(l)
		cur, seen := best[k]
		if !seen {
			order = append(order, k)
		}
		if !seen || compareItems(l, cur) > 0 {
			best[k] = l
		}
	}
	out := make([]string, 0, len(order))
	for _, k := range order {
		out = append(out, best[k])
	}
	return out
}

func trimBlank(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
