package eval

import (
	"bytes"
	"fmt"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// Result is what a run left, as the checks read it: the .yoi/ trees
// before and after (.yoi/-relative path to content), the operations of
// the run's commit message(s) and whether it committed.
type Result struct {
	Before    map[string][]byte
	After     map[string][]byte
	Ops       []memlog.Op
	Committed bool
}

// Outcome is one expectation checked: Reason says, on a failure, what
// was found instead.
type Outcome struct {
	Name     string `json:"name"`
	Category string `json:"category"`
	Passed   bool   `json:"passed"`
	Reason   string `json:"reason,omitempty"`
}

// Check checks every expectation of sc against res, in order.
func Check(sc *Scenario, res Result) []Outcome {
	records := recordPaths(res.After)
	out := make([]Outcome, 0, len(sc.Expect))
	for _, e := range sc.Expect {
		var reason string
		switch {
		case e.Commit != nil:
			reason = checkCommit(*e.Commit, res.Committed)
		case e.Op != nil:
			reason = checkOps(e, res)
		default:
			reason = checkRecords(e, records, res)
		}
		out = append(out, Outcome{Name: e.Name, Category: e.Category, Passed: reason == "", Reason: reason})
	}
	return out
}

// recordPaths are the record files of a tree (memory/ and knowledge/),
// sorted.
func recordPaths(tree map[string][]byte) []string {
	var out []string
	for p := range tree {
		if record.Classify(p).Area == record.AreaRecord {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}

func checkCommit(want, got bool) string {
	switch {
	case want && !got:
		return "the run made no memory commit"
	case !want && got:
		return "the run made a memory commit"
	}
	return ""
}

// quantify gives the verdict of an expectation ("" passes) from the
// candidates that satisfy every condition (matched) and the failures of
// the closest one that does not.
func quantify(e Expectation, what string, matched []string, closest string) string {
	switch {
	case e.Exists != nil && !*e.Exists:
		if len(matched) > 0 {
			return fmt.Sprintf("%s satisfies every condition, want none", strings.Join(matched, ", "))
		}
		return ""
	case e.Count != nil:
		if len(matched) != *e.Count {
			if len(matched) == 0 {
				return fmt.Sprintf("no %s satisfies every condition, want %d%s", what, *e.Count, closestSuffix(closest))
			}
			return fmt.Sprintf("%d %ss match, want %d: %s", len(matched), what, *e.Count, strings.Join(matched, ", "))
		}
		return ""
	}
	if len(matched) > 0 {
		return ""
	}
	return closest
}

func closestSuffix(c string) string {
	if c == "" {
		return ""
	}
	return " (" + c + ")"
}

// checkRecords checks a record expectation against the result's records.
func checkRecords(e Expectation, records []string, res Result) string {
	var cands, matched []string
	closest, fewest := "", -1
	for _, p := range records {
		if !matchGlob(e.Record, p) {
			continue
		}
		cands = append(cands, p)
		fails := recordFailures(e, p, res)
		if len(fails) == 0 {
			matched = append(matched, record.DisplayPath(p))
			continue
		}
		if fewest < 0 || len(fails) < fewest {
			closest, fewest = record.DisplayPath(p)+": "+strings.Join(fails, "; "), len(fails)
		}
	}
	if e.Untouched && len(cands) == 0 {
		if _, ok := res.Before[e.Record]; ok {
			return record.DisplayPath(e.Record) + " is gone, want it untouched"
		}
	}
	if len(cands) == 0 {
		if (e.Exists != nil && !*e.Exists) || (e.Count != nil && *e.Count == 0) {
			return ""
		}
		return "no record matches " + e.Record
	}
	if len(cands) > 1 && closest != "" {
		closest += fmt.Sprintf(" (%d records match %s)", len(cands), e.Record)
	}
	return quantify(e, "record", matched, closest)
}

// recordFailures lists the conditions record p fails.
func recordFailures(e Expectation, p string, res Result) []string {
	content := res.After[p]
	var fails []string
	if e.Untouched {
		before, ok := res.Before[p]
		switch {
		case !ok:
			fails = append(fails, "not in the tree before the run, want it untouched")
		case !bytes.Equal(before, content):
			fails = append(fails, "changed, want it untouched")
		}
	}
	if len(e.Fields) > 0 || len(e.Sources) > 0 {
		fails = append(fails, frontmatterFailures(e, p, content)...)
	}
	if len(e.Text) > 0 || len(e.NotText) > 0 {
		norm := normalize(string(content))
		for _, t := range e.Text {
			if !strings.Contains(norm, normalize(t)) {
				fails = append(fails, fmt.Sprintf("no text %q", t))
			}
		}
		for _, t := range e.NotText {
			if strings.Contains(norm, normalize(t)) {
				fails = append(fails, fmt.Sprintf("holds text %q", t))
			}
		}
	}
	return fails
}

// frontmatterFailures checks fields and sources.
func frontmatterFailures(e Expectation, p string, content []byte) []string {
	doc, err := record.Parse(content)
	if err != nil {
		return []string{"frontmatter does not parse: " + err.Error()}
	}
	var fails []string
	keys := make([]string, 0, len(e.Fields))
	for k := range e.Fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		want := e.Fields[k]
		n := doc.Get(k)
		switch {
		case n == nil:
			fails = append(fails, fmt.Sprintf("no %s, want %s", k, want))
		case n.Kind != yaml.ScalarNode:
			fails = append(fails, fmt.Sprintf("%s is not a scalar, want %s", k, want))
		case !matchValue(want, n.Value):
			fails = append(fails, fmt.Sprintf("%s is %s, want %s", k, n.Value, want))
		}
	}
	if len(e.Sources) > 0 {
		have := sessionIDs(doc)
		var missing []string
		for _, s := range e.Sources {
			if !have[s] {
				missing = append(missing, s)
			}
		}
		if len(missing) > 0 {
			fails = append(fails, "sources lack "+strings.Join(missing, ", "))
		}
	}
	return fails
}

// sessionIDs are the session ids of a record's sources and last_sources.
func sessionIDs(doc *record.Document) map[string]bool {
	ids := map[string]bool{}
	for _, key := range []string{"sources", "last_sources"} {
		n := doc.Get(key)
		if n == nil || n.Kind != yaml.SequenceNode {
			continue
		}
		for _, item := range n.Content {
			if item.Kind != yaml.MappingNode {
				continue
			}
			for i := 0; i+1 < len(item.Content); i += 2 {
				if item.Content[i].Value == "session_id" {
					ids[item.Content[i+1].Value] = true
				}
			}
		}
	}
	return ids
}

// checkOps checks an op expectation against the run's operations.
func checkOps(e Expectation, res Result) string {
	var matched []string
	closest, fewest := "", -1
	for _, op := range res.Ops {
		fails := opFailures(*e.Op, op)
		if len(fails) == 0 {
			matched = append(matched, formatOp(op))
			continue
		}
		if fewest < 0 || len(fails) < fewest {
			closest, fewest = formatOp(op)+": "+strings.Join(fails, "; "), len(fails)
		}
	}
	if len(res.Ops) == 0 {
		if (e.Exists != nil && !*e.Exists) || (e.Count != nil && *e.Count == 0) {
			return ""
		}
		if !res.Committed {
			return "no memory commit, so no operation"
		}
		return "the commit message has no operation"
	}
	if reason := quantify(e, "operation", matched, closest); reason != "" {
		if e.Exists == nil && e.Count == nil {
			return "no operation matches; closest: " + reason
		}
		return reason
	}
	return ""
}

// opFailures lists what op lacks of c.
func opFailures(c OpCond, op memlog.Op) []string {
	var fails []string
	if c.Kind != "" && string(op.Kind) != c.Kind {
		fails = append(fails, fmt.Sprintf("kind %s, want %s", op.Kind, c.Kind))
	}
	if c.Path != "" && !matchGlob(c.Path, op.Path) {
		fails = append(fails, "path does not match "+c.Path)
	}
	if c.Target != "" && !matchGlob(c.Target, op.Target) {
		fails = append(fails, "target does not match "+c.Target)
	}
	for _, want := range c.Categories {
		found := false
		for _, got := range op.Categories {
			found = found || string(got) == want
		}
		if !found {
			fails = append(fails, "no category "+want)
		}
	}
	if c.Reason && strings.TrimSpace(op.Reason) == "" {
		fails = append(fails, "no reason")
	}
	return fails
}

// formatOp is an operation as the commit message writes it.
func formatOp(op memlog.Op) string {
	s := string(op.Kind) + " " + record.DisplayPath(op.Path)
	if op.Target != "" {
		s += " -> " + record.DisplayPath(op.Target)
	}
	if len(op.Categories) > 0 {
		cs := make([]string, len(op.Categories))
		for i, c := range op.Categories {
			cs[i] = string(c)
		}
		s += " [" + strings.Join(cs, ",") + "]"
	}
	return s
}
