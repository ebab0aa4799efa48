package lint

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/sergi/go-diff/diffmatchpatch"
	"github.com/yoimem/git-yoimem/record"
)

// Actor says who proposes a change: automation (the memory tools,
// consolidation) is held to rules a human editing files is not.
type Actor int

// Actors.
const (
	Human Actor = iota
	Automation
)

// Check lints the snapshot as it would be after cs. It reports findings on
// the changed paths, records elsewhere that the change breaks (a deleted
// knowledge record still referenced, a deleted decision still named by
// replaced_by), and the proposal rules: path safety, the write area for
// automation, creating an existing slug, and information loss.
func Check(base record.Snapshot, cs *record.ChangeSet, actor Actor, opts Options) Report {
	return CheckOverlay(record.NewOverlay(base), cs, actor, opts)
}

// CheckOverlay is Check on the snapshot cur makes, without building it:
// the changed paths are looked up through the overlay, so that the cost
// follows the change (and, for a delete, the records that mention it), not
// the size of the memory.
func CheckOverlay(cur *record.Overlay, cs *record.ChangeSet, actor Actor, opts Options) Report {
	var out []Finding
	after := cur.With(cs)
	var targets []record.Entry
	var deleted []string
	for _, c := range cs.Changes() {
		fs, ok := changeFindings(cur, c, actor, opts)
		out = append(out, fs...)
		if !ok {
			continue
		}
		if c.Op == record.OpDelete {
			deleted = append(deleted, c.Path)
		} else if e, ok := after.Lookup(c.Path); ok {
			targets = append(targets, e)
		}
	}
	rep := lintTargets(after, targets, opts)
	out = append(out, rep.Findings...)
	if len(deleted) > 0 {
		out = append(out, brokenByDeletes(after, deleted, opts)...)
	}
	if deletesSummary(after, deleted) {
		out = append(out, summaryMissing(true))
	}
	sortFindings(out)
	return Report{Findings: out, Files: rep.Files}
}

// PathFinding checks a path a tool or change wants to write, relative to
// .yoi/: absolute paths, "..", empty elements and backslashes are refused.
// It returns nil for a clean path.
func PathFinding(path string) *Finding {
	if _, err := record.CleanRel(path); err != nil {
		return &Finding{Path: path, Line: 1, Col: 1, Severity: Error, Rule: RulePathUnsafe, Message: err.Error()}
	}
	return nil
}

func changeFindings(base record.View, c record.Change, actor Actor, opts Options) ([]Finding, bool) {
	add := func(rule, format string, args ...any) []Finding {
		return []Finding{{Path: c.Path, Line: 1, Col: 1, Severity: Error, Rule: rule, Message: fmt.Sprintf(format, args...)}}
	}
	if f := PathFinding(c.Path); f != nil {
		return []Finding{*f}, false
	}
	loc := record.Classify(c.Path)
	if actor == Automation {
		switch {
		case loc.Area == record.AreaWorkflow:
			return add(RuleWorkflowWrite, "automation may not write under .yoi/workflow/; workflows change only by human edits"), false
		case loc.Area != record.AreaRecord:
			return add(RuleWriteArea, "automation may write only records: memory/summary.md, memory/decisions/<slug>.md, memory/requests/<slug>.md, knowledge/<slug>.md"), false
		}
	}
	old, exists := base.Lookup(c.Path)
	if c.Op == record.OpPut && c.Create && exists {
		return add(RuleSlugExists, "%s already exists; update it instead of creating it", c.Path), false
	}
	if c.Op == record.OpPut && exists && old.Mode == record.ModeRegular && loc.Area == record.AreaRecord {
		if prev, err := base.ReadFile(c.Path); err == nil {
			return lossFindings(c, prev, opts), true
		}
	}
	return nil, true
}

// lossFindings compares an update with the previous text: a rewrite that
// removes much of the body, or drops sources, is worth a second look.
func lossFindings(c record.Change, prev []byte, opts Options) []Finding {
	oldRec, _, err1 := record.Decode(c.Path, prev)
	newRec, _, err2 := record.Decode(c.Path, c.Content)
	if err1 != nil || err2 != nil {
		return nil
	}
	var out []Finding
	oldBody, newBody := string(oldRec.Body()), string(newRec.Body())
	total := utf8.RuneCountInString(oldBody)
	if removed := removedChars(oldBody, newBody); opts.LossRatio > 0 && total >= 200 && float64(removed) > opts.LossRatio*float64(total) {
		out = append(out, Finding{Path: c.Path, Line: newRec.Doc.BodyLine(), Col: 1, Severity: Warning, Rule: RuleInformationLoss,
			Message: fmt.Sprintf("the update removes %d of %d characters of the previous text (%.0f%%); keep every claim, reason and source", removed, total, 100*float64(removed)/float64(total))})
	}
	if oldRec.Kind == record.KindDecision || oldRec.Kind == record.KindRequest {
		if lost := missingSources(oldRec.Sources, newRec.Sources); len(lost) > 0 {
			line, col := newRec.Doc.KeyPos(record.KeySources)
			out = append(out, Finding{Path: c.Path, Line: line, Col: col, Severity: Warning, Rule: RuleSourcesDropped,
				Message: fmt.Sprintf("the update drops %d source(s) the record had: %s", len(lost), strings.Join(lost, ", "))})
		}
	}
	return out
}

func removedChars(a, b string) int {
	dmp := diffmatchpatch.New()
	ca, cb, lines := dmp.DiffLinesToChars(a, b)
	diffs := dmp.DiffCharsToLines(dmp.DiffMain(ca, cb, false), lines)
	n := 0
	for _, d := range diffs {
		if d.Type == diffmatchpatch.DiffDelete {
			n += utf8.RuneCountInString(d.Text)
		}
	}
	return n
}

func missingSources(old, cur []record.Source) []string {
	have := map[record.Source]bool{}
	for _, s := range cur {
		have[s] = true
	}
	var lost []string
	for _, s := range old {
		if !have[s] {
			lost = append(lost, s.String())
		}
	}
	return lost
}

// brokenByDeletes finds records that reference a deleted knowledge record
// or name a deleted decision in replaced_by.
func brokenByDeletes(after record.View, deleted []string, opts Options) []Finding {
	var needles [][]byte
	for _, p := range deleted {
		loc := record.Classify(p)
		switch loc.Kind {
		case record.KindKnowledge:
			needles = append(needles, []byte("#"+loc.Slug))
		case record.KindDecision, record.KindRequest:
			needles = append(needles, []byte(loc.Slug))
		}
	}
	if len(needles) == 0 {
		return nil
	}
	var suspects []record.Entry
	after.Scan("", func(e record.Entry) bool {
		if e.Mode != record.ModeRegular || record.Classify(e.Path).Area != record.AreaRecord {
			return true
		}
		b, err := after.ReadFile(e.Path)
		if err != nil {
			return true
		}
		for _, n := range needles {
			if bytes.Contains(b, n) {
				suspects = append(suspects, e)
				break
			}
		}
		return true
	})
	var out []Finding
	for _, f := range lintTargets(after, suspects, opts).Findings {
		if f.Rule == RuleKnowledgeRef || f.Rule == RuleReplacedByTarget {
			out = append(out, f)
		}
	}
	return out
}

// Changed lints the files changed in a snapshot (staged for a commit, or
// changed by pushed commits) against the whole snapshot, plus the records
// the deleted paths leave pointing at nothing. Cost follows the number of
// changed files, but for deletes, which look for references everywhere.
func Changed(snap record.Snapshot, changed, deleted []string, opts Options) Report {
	want := make(map[string]bool, len(changed))
	for _, p := range changed {
		want[p] = true
	}
	rep := Tree(snap, opts, func(p string) bool { return want[p] })
	if len(deleted) > 0 {
		rep.Findings = append(rep.Findings, brokenByDeletes(snap, deleted, opts)...)
		if deletesSummary(snap, deleted) {
			rep.Findings = append(rep.Findings, summaryMissing(true))
		}
		sortFindings(rep.Findings)
	}
	return rep
}
