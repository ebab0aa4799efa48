package review

import (
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/record"
)

// compare finds whether a record may have lost information between
// before and after (after is nil when removed): sources gone, or more
// than a third of the body's non-blank lines not found in the new body.
// why says what could not be compared ("" when all could).
func compare(rel string, before, after []byte, removed bool) (*Loss, string) {
	shown := record.DisplayPath(rel)
	old, _, err := record.Decode(rel, before)
	if err != nil {
		return nil, fmt.Sprintf("%s before the commit does not parse (%v): its loss is not measured", shown, err)
	}
	oldLines := bodyLines(old.Body())
	l := &Loss{Path: shown, Removed: removed, LostSources: sourcesOf(old), BodyLines: len(oldLines), RemovedLine: len(oldLines)}
	if removed {
		return l, ""
	}
	cur, _, err := record.Decode(rel, after)
	if err != nil {
		return nil, fmt.Sprintf("%s after the commit does not parse (%v): its loss is not measured", shown, err)
	}
	l.LostSources = missing(sourcesOf(old), sourcesOf(cur))
	l.RemovedLine = len(missing(oldLines, bodyLines(cur.Body())))
	if len(l.LostSources) == 0 && l.RemovedLine*3 <= l.BodyLines {
		return nil, ""
	}
	return l, ""
}

func sourcesOf(r *record.Record) []string {
	out := []string{}
	for _, s := range append(append([]record.Source{}, r.Sources...), r.LastSources...) {
		out = append(out, s.String())
	}
	return out
}

// bodyLines are the body's non-blank lines, trimmed.
func bodyLines(body []byte) []string {
	var out []string
	for _, l := range strings.Split(string(body), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// missing are the items of old that new lacks, counted as a multiset: a
// line kept once of two occurrences lost one.
func missing(old, new []string) []string {
	have := map[string]int{}
	for _, s := range new {
		have[s]++
	}
	out := []string{}
	for _, s := range old {
		if have[s] > 0 {
			have[s]--
			continue
		}
		out = append(out, s)
	}
	return out
}
