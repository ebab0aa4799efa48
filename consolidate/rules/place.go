package rules

import (
	"slices"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/record"
)

// Section headings the engine writes.
const (
	headDecided   = "## Decided"
	headDiscussed = "## Discussed"
	headAsked     = "## Asked"
	headTried     = "## Tried"
)

// placeTopics maps an entry's discussions, decisions and requests onto
// their records. Discussions go first: an entry that discussed a topic and
// decided it leaves it resolved.
func (p *planner) placeTopics(en extract.Staging) {
	for _, d := range en.Activity.Discussions {
		p.discussion(en, d)
	}
	for _, d := range en.Activity.Decisions {
		p.decision(en, d)
	}
	for _, r := range en.Activity.Requests {
		p.request(en, r)
	}
}

// target is the draft a topic's text goes to: the record of its slug or a
// near-identical one (a replaced decision's live successor), else a new
// record. It returns the locked record instead when that is where the
// topic belongs, and neither for a topic with no letter or digit.
func (p *planner) target(kind record.Kind, topic string) (d *draft, locked string) {
	slug := topicSlug(topic)
	if slug == "" {
		return nil, ""
	}
	k := p.idx.match(kind, slug)
	if k == nil && p.in.Locked[record.PathFor(kind, slug)] {
		return nil, record.PathFor(kind, slug) // locked before it exists
	}
	if k == nil {
		k = &known{path: record.PathFor(kind, slug), kind: kind, slug: slug, title: p.safe(topic)}
		p.idx.add(k)
		d := newDraft(k, true)
		d.body = []string{"# " + k.title}
		p.drafts[k.path] = d
		return d, ""
	}
	return p.draftOf(k)
}

// draftOf returns the draft of an existing record (its live successor for
// a replaced decision), or its path when it is locked.
func (p *planner) draftOf(k *known) (*draft, string) {
	if k.kind == record.KindDecision {
		k = p.idx.live(k)
	}
	if p.in.Locked[k.path] {
		return nil, k.path
	}
	if d, ok := p.drafts[k.path]; ok {
		return d, ""
	}
	if k.content == nil && k.tooBig == nil {
		k.content, k.readErr = p.s.View().ReadFile(k.path)
	}
	d := newDraft(k, false)
	p.drafts[k.path] = d
	return d, ""
}

// safe is staged text as one safe line of record text.
func (p *planner) safe(s string) string { return safeLine(clean(s), p.isKnowledge) }

// field is one labelled part of what an entry says of a topic: a value,
// or a list of values.
type field struct {
	label string // "" for a bare list (a discussion's points)
	value string
	list  []string
}

// lines renders fields as a block of list items.
func lines(fs []field) []string {
	var out []string
	for _, f := range fs {
		switch {
		case f.list == nil:
			out = append(out, "- "+f.label+": "+f.value)
		case f.label == "":
			for _, v := range f.list {
				out = append(out, "- "+v)
			}
		default:
			out = append(out, "- "+f.label+":")
			for _, v := range f.list {
				out = append(out, "  - "+v)
			}
		}
	}
	return out
}

// oneLine renders fields on one line, for the summary.
func oneLine(fs []field) string {
	var parts []string
	for _, f := range fs {
		label := strings.ToLower(f.label)
		if label == "" {
			label = "points"
		}
		v := f.value
		if f.list != nil {
			v = strings.Join(f.list, " | ")
		}
		parts = append(parts, label+": "+v)
	}
	return strings.Join(parts, "; ")
}

// text adds a labelled value when it says something.
func (p *planner) text(fs []field, label, s string) []field {
	if v := p.safe(s); v != "" {
		fs = append(fs, field{label: label, value: v})
	}
	return fs
}

// list adds a labelled list of the values that say something.
func (p *planner) list(fs []field, label string, ss []string) []field {
	var vs []string
	for _, s := range ss {
		if v := p.safe(s); v != "" {
			vs = append(vs, v)
		}
	}
	if len(vs) > 0 {
		fs = append(fs, field{label: label, list: vs})
	}
	return fs
}

// topicField is the topic as worded by this entry, when it is worded
// otherwise than the record's title (case and white space aside), so that
// no wording is lost.
func (p *planner) topicField(d *draft, label, topic string) []field {
	if t := p.safe(topic); t != "" && squash(t) != squash(d.rec.title) {
		return []field{{label: label, value: t}}
	}
	return nil
}

// addBlock appends a section with the topic's wording and fs unless the
// lines of fs are in the record already (then the same thing was said,
// however the topic was worded); a block of nothing but the topic's
// wording is added unless that line is there. It reports whether it
// added text.
func (d *draft) addBlock(heading string, topic, fs []field) bool {
	block := lines(fs)
	if len(block) == 0 {
		block = lines(topic)
	}
	if d.hasBlock(block) {
		return false
	}
	d.appendSection(heading, lines(append(topic, fs...)))
	return true
}

func firstOf(s ...string) string {
	for _, x := range s {
		if clean(x) != "" {
			return x
		}
	}
	return ""
}

func (p *planner) decision(en extract.Staging, dec extract.Decision) {
	topic := firstOf(dec.Topic, dec.Chosen, dec.Rationale)
	var fs []field
	fs = p.text(fs, "Chosen", dec.Chosen)
	fs = p.list(fs, "Options", dec.Options)
	fs = p.text(fs, "Rationale", dec.Rationale)
	d, locked := p.target(record.KindDecision, topic)
	if locked != "" {
		p.lockedLine(en, locked, "decided", topic, fs)
		return
	}
	if d == nil {
		return
	}
	added := d.addBlock(dated(headDecided, en.CreatedAt), p.topicField(d, "Topic", dec.Topic), fs)
	if added {
		d.written.decisions++
	}
	if d.status == "" || d.status == record.StatusOpen {
		d.status = record.StatusResolved
	}
	d.touch(en.ID, added)
}

func (p *planner) discussion(en extract.Staging, dis extract.Discussion) {
	topic := firstOf(append([]string{dis.Topic}, dis.Points...)...)
	fs := p.list(nil, "", dis.Points)
	d, locked := p.target(record.KindDecision, topic)
	if locked != "" {
		p.lockedLine(en, locked, "discussed", topic, fs)
		return
	}
	if d == nil {
		return
	}
	if d.isNew && d.status == "" {
		d.status = record.StatusOpen // a new topic nobody decided yet
	}
	var fresh []string
	for _, pt := range lines(fs) {
		if !d.hasLine(pt) && !slices.Contains(fresh, pt) {
			fresh = append(fresh, pt)
		}
	}
	if len(fresh) > 0 {
		d.appendSection(dated(headDiscussed, en.CreatedAt), append(lines(p.topicField(d, "Topic", dis.Topic)), fresh...))
		d.written.points += len(fresh)
	}
	d.touch(en.ID, len(fresh) > 0)
}

func (p *planner) request(en extract.Staging, req extract.Request) {
	topic := firstOf(req.Intent, req.Target, req.Summary)
	var fs []field
	fs = p.text(fs, "Target", req.Target)
	fs = p.text(fs, "Summary", req.Summary)
	d, locked := p.target(record.KindRequest, topic)
	if locked != "" {
		p.lockedLine(en, locked, "asked", topic, fs)
		return
	}
	if d == nil {
		return
	}
	added := d.addBlock(dated(headAsked, en.CreatedAt), p.topicField(d, "Intent", req.Intent), fs)
	if added {
		d.written.requests++
	}
	d.touch(en.ID, added)
}

// placeAttempts folds each attempt into the record of its topic, or lists
// it in the summary's recent work when no record matches.
func (p *planner) placeAttempts(en extract.Staging) {
	for _, a := range en.Activity.Attempts {
		what, result := p.safe(a.What), p.safe(a.Result)
		if what == "" && result == "" {
			continue
		}
		text := "worked"
		if !a.Success {
			text = "failed"
		}
		if what != "" {
			text += ": " + what
		}
		if result != "" {
			text += " — result: " + result
		}
		line := itemLine(en.CreatedAt, text)
		var d *draft
		if k := p.attemptRecord(a.What); k != nil {
			d, _ = p.draftOf(k)
		}
		if d == nil {
			p.recent = append(p.recent, recentLine{line: line, entry: en.ID})
			continue
		}
		added := d.addItem(headTried, line)
		if added {
			if a.Success {
				d.written.worked++
			} else {
				d.written.failed++
			}
		}
		d.touch(en.ID, added)
	}
}

// lockedLine lists a topic's text that belongs to a locked record in the
// summary's recent work: the record is left as it is, and the next
// session still sees what was said.
func (p *planner) lockedLine(en extract.Staging, path, verb, topic string, fs []field) {
	text := verb + " (" + record.DisplayPath(path) + " is locked, left as is): " + p.safe(topic)
	if len(fs) > 0 {
		text += " — " + oneLine(fs)
	}
	p.recent = append(p.recent, recentLine{line: itemLine(en.CreatedAt, text), entry: en.ID})
}

// dated is a section heading with the day the entry was staged.
func dated(heading string, t time.Time) string {
	if t.IsZero() {
		return heading
	}
	return heading + " " + t.UTC().Format(dateLayout)
}
