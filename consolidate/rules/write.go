package rules

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// change is the session change that writes a draft; ok is false when the
// draft changes nothing (every text already there, every source listed).
func (p *planner) change(d *draft) (consolidate.Change, bool, error) {
	if d.rec.tooBig != nil {
		return consolidate.Change{}, false, fmt.Errorf("rules engine: staged activity on the topic of %w; split the record or raise the limit", d.rec.tooBig)
	}
	if d.rec.readErr != nil {
		return consolidate.Change{}, false, fmt.Errorf("rules engine: read %s: %w", record.DisplayPath(d.rec.path), d.rec.readErr)
	}
	staging := p.naming(d)
	c := consolidate.Change{Path: d.rec.path, Staging: staging}
	if d.isNew {
		content, err := record.Render(&record.Record{Kind: d.rec.kind, CreatedAt: p.in.Now, UpdatedAt: p.in.Now, Status: d.status}, []byte(d.text()))
		if err != nil {
			return c, false, fmt.Errorf("rules engine: %s: %w", record.DisplayPath(d.rec.path), err)
		}
		c.Kind, c.Content = memlog.OpAdd, content
		c.Reason = d.reason(len(staging), "", true)
		return c, true, nil
	}
	doc, err := record.Parse(d.rec.content)
	if err != nil {
		// The session refuses it and names the record and the problem.
		c.Kind, c.Content, c.Reason = memlog.OpUpdate, d.rec.content, "staged activity on its topic"
		return c, true, nil
	}
	newStatus := ""
	if d.status != d.rec.status && d.rec.kind == record.KindDecision {
		if _, err := doc.Set(record.KeyStatus, record.StringNode(string(d.status)), record.Order(record.KindDecision)); err != nil {
			return c, false, fmt.Errorf("rules engine: %s: set status: %w", record.DisplayPath(d.rec.path), err)
		}
		newStatus = string(d.status)
	}
	if d.edited {
		if err := doc.SetBody([]byte(d.text())); err != nil {
			return c, false, fmt.Errorf("rules engine: %s: %w", record.DisplayPath(d.rec.path), err)
		}
	}
	if bytes.Equal(doc.Bytes(), d.rec.content) && len(staging) == 0 {
		return c, false, nil
	}
	c.Kind, c.Content = memlog.OpUpdate, doc.Bytes()
	c.Reason = d.reason(len(staging), newStatus, false)
	return c, true, nil
}

// naming lists the staging entries whose sources the record takes: each
// that contributed and is not listed yet, except one that added no text
// while a later entry of this run is listed already. That one was trimmed
// as the oldest by an earlier run over these entries (a source list is
// oldest first), and listing it again would put it last, make it the
// newest and have the trim drop another: the second run would undo the
// first.
func (p *planner) naming(d *draft) []string {
	listed := func(id string) bool {
		e, ok := p.s.Entry(id)
		return ok && slices.Contains(d.rec.sources, record.Source{SessionID: e.Source.SessionID, Range: e.Source.Range})
	}
	// Sources are listed oldest first: in staging order, whatever order
	// the entries' text was placed in.
	ids := slices.Clone(d.entries)
	slices.Sort(ids)
	last := -1
	for i, id := range ids {
		if listed(id) {
			last = i
		}
	}
	var out []string
	for i, id := range ids {
		if listed(id) || i < last && !d.fresh[id] {
			continue
		}
		out = append(out, id)
	}
	return out
}

// reason says what the run wrote into a record.
func (d *draft) reason(sources int, status string, isNew bool) string {
	w := d.written
	var parts []string
	count := func(n int, one, many string) {
		switch {
		case n == 1:
			parts = append(parts, "1 "+one)
		case n > 1:
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	count(w.decisions, "decision", "decisions")
	count(w.points, "discussion point", "discussion points")
	count(w.requests, "request", "requests")
	count(w.failed, "failed attempt", "failed attempts")
	count(w.worked, "attempt that worked", "attempts that worked")
	what := "staged again as it is written"
	if len(parts) > 0 {
		what = strings.Join(parts, ", ")
	}
	var b strings.Builder
	if isNew {
		fmt.Fprintf(&b, "new %s from staging: ", d.rec.kind)
	} else {
		b.WriteString("from staging: ")
	}
	b.WriteString(what)
	switch {
	case isNew && d.status != "":
		fmt.Fprintf(&b, "; status %s", d.status)
	case status != "":
		fmt.Fprintf(&b, "; now %s", status)
	}
	switch {
	case sources == 1:
		b.WriteString("; 1 source")
	case sources > 1:
		fmt.Fprintf(&b, "; %d sources", sources)
	}
	return b.String()
}
