package agent

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/record"
)

// entries are a run's staging entries with their short names: e1, e2, …
// in ID (time) order. The model names entries by these (or by their IDs):
// a recorded run then replays over entries whose IDs were made anew.
type entries struct {
	list  []extract.Staging
	index map[string]int // ID -> position
}

func newEntries(list []extract.Staging) entries {
	es := entries{list: list, index: map[string]int{}}
	for i, e := range list {
		es.index[e.ID] = i
	}
	return es
}

// alias is the short name of the entry at position i.
func alias(i int) string { return "e" + strconv.Itoa(i+1) }

// lookup finds an entry by its ID, its short name, or its staging path
// (.yoi/memory/_staging/<id>.json, with or without .yoi/).
func (es entries) lookup(name string) (int, bool) {
	name = strings.TrimSpace(name)
	if i, ok := es.index[name]; ok {
		return i, true
	}
	if rel, err := record.ToolPath(name); err == nil {
		if id, ok := strings.CutPrefix(rel, record.StagingDir+"/"); ok {
			if i, ok := es.index[strings.TrimSuffix(id, ".json")]; ok {
				return i, true
			}
		}
	}
	if n, ok := strings.CutPrefix(name, "e"); ok {
		if k, err := strconv.Atoi(n); err == nil && k >= 1 && k <= len(es.list) && n == strconv.Itoa(k) {
			return k - 1, true
		}
	}
	return 0, false
}

// names says how the entries are named, for an error.
func (es entries) names() string {
	switch len(es.list) {
	case 0:
		return "this run has no staging entries"
	case 1:
		return "this run's only entry is e1"
	}
	return fmt.Sprintf("this run's entries are e1 to e%d (or their ids)", len(es.list))
}

// head is an entry's first line: its short name, ID and source.
func head(i int, e extract.Staging) string {
	line := fmt.Sprintf("%s: staging entry %s, session %s entries %d-%d", alias(i), oneLine(e.ID), oneLine(e.Source.SessionID), e.Source.Range[0], e.Source.Range[1])
	if e.Agent != "" {
		line += ", " + oneLine(e.Agent)
	}
	if !e.CreatedAt.IsZero() {
		line += ", staged " + e.CreatedAt.UTC().Format(time.RFC3339)
	}
	return line + "\n"
}

// renderEntry is an entry's whole text: its head and its activity, one
// item per block, every field labelled.
func renderEntry(i int, e extract.Staging) string {
	var b strings.Builder
	b.WriteString(head(i, e))
	a := e.Activity
	if a.Empty() {
		b.WriteString("(nothing to save)\n")
	}
	if len(a.Decisions) > 0 {
		b.WriteString("decisions:\n")
		for _, d := range a.Decisions {
			field(&b, "- topic", d.Topic)
			field(&b, "  options", strings.Join(d.Options, " | "))
			field(&b, "  chosen", d.Chosen)
			field(&b, "  rationale", d.Rationale)
		}
	}
	if len(a.Discussions) > 0 {
		b.WriteString("discussions:\n")
		for _, d := range a.Discussions {
			field(&b, "- topic", d.Topic)
			for _, p := range d.Points {
				field(&b, "  point", p)
			}
		}
	}
	if len(a.Attempts) > 0 {
		b.WriteString("attempts:\n")
		for _, t := range a.Attempts {
			outcome := "failed"
			if t.Success {
				outcome = "succeeded"
			}
			field(&b, "- "+outcome, t.What)
			field(&b, "  result", t.Result)
		}
	}
	if len(a.Requests) > 0 {
		b.WriteString("requests:\n")
		for _, q := range a.Requests {
			field(&b, "- intent", q.Intent)
			field(&b, "  target", q.Target)
			field(&b, "  summary", q.Summary)
		}
	}
	return b.String()
}

// field writes "label: value" on one line: the value's own line breaks
// become spaces, so that no value can pass for another field.
func field(b *strings.Builder, label, value string) {
	b.WriteString(label + ": " + oneLine(value) + "\n")
}

// oneLine folds every run of white space, line breaks included, into one
// space.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// indexLine is what the first message says of an entry it does not show.
func indexLine(i int, e extract.Staging) string {
	a := e.Activity
	return fmt.Sprintf("- %s: session %s entries %d-%d: %s, %s, %s, %s; read it with memory_read %s\n",
		alias(i), oneLine(e.Source.SessionID), e.Source.Range[0], e.Source.Range[1],
		count(len(a.Decisions), "decision"), count(len(a.Discussions), "discussion"),
		count(len(a.Attempts), "attempt"), count(len(a.Requests), "request"), alias(i))
}

// more is "1 more entry", "2 more entries".
func more(n int, noun string) string {
	c := count(n, noun)
	i := strings.IndexByte(c, ' ')
	return c[:i] + " more" + c[i:]
}

// count is "1 entry", "2 entries": n and the noun, plural unless n is 1.
func count(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "y"):
		noun = strings.TrimSuffix(noun, "y") + "ies"
	default:
		noun += "s"
	}
	return strconv.Itoa(n) + " " + noun
}
