package lint

import (
	"sync"
	"sync/atomic"

	"github.com/yoimem/git-yoimem/record"
)

// index is what the listing alone tells about the snapshot. Lookups go
// through the view (a snapshot's sorted entries, an overlay's changes over
// them): no maps over 10,000 paths for a hook that lints one file.
type index struct {
	view record.View
}

func newIndex(view record.View) *index { return &index{view: view} }

// has reports whether a record of kind with slug exists as a file.
func (x *index) has(kind record.Kind, slug string) bool {
	e, ok := x.view.Lookup(record.PathFor(kind, slug))
	return ok && e.Mode == record.ModeRegular
}

// isRecord reports whether any record (not the summary) has the slug.
func (x *index) isRecord(slug string) bool {
	return x.has(record.KindDecision, slug) || x.has(record.KindRequest, slug) || x.has(record.KindKnowledge, slug)
}

// Tree lints the snapshot. When only is non-nil, findings are reported for
// the paths it selects alone, while references and replaced_by chains are
// still checked against the whole snapshot; the cost then follows the
// number of selected files.
func Tree(snap record.Snapshot, opts Options, only func(path string) bool) Report {
	targets := snap.Entries // read, never changed: no copy of the listing
	if only != nil {
		targets = nil
		for _, e := range snap.Entries {
			if only(e.Path) {
				targets = append(targets, e)
			}
		}
	}
	rep := lintTargets(snap, targets, opts)
	if only == nil && !hasSummary(snap) {
		rep.Findings = append(rep.Findings, summaryMissing(false))
		sortFindings(rep.Findings)
	}
	return rep
}

// lintTargets lints the target entries of view, in path order, against
// the whole view.
func lintTargets(view record.View, targets []record.Entry, opts Options) Report {
	idx := newIndex(view)
	// Slug clusters need only the listing: find them while files are read.
	similar := make(chan []Finding, 1)
	go func() {
		if opts.SimilarSlugs {
			similar <- similarSlugFindings(targets, idx)
		} else {
			similar <- nil
		}
	}()
	results := lintEntries(targets, idx, opts)
	var out []Finding
	facts := map[string]*facts{}
	for i := range results {
		out = append(out, results[i].findings...)
		if results[i].facts != nil {
			facts[results[i].facts.path] = results[i].facts
		}
	}
	out = append(out, replacedByFindings(targets, idx, facts, opts)...)
	out = append(out, <-similar...)
	sortFindings(out)
	files := 0
	for _, e := range targets {
		if record.Classify(e.Path).Area == record.AreaRecord {
			files++
		}
	}
	return Report{Findings: out, Files: files}
}

func lintEntries(targets []record.Entry, idx *index, opts Options) []fileResult {
	results := make([]fileResult, len(targets))
	workers := opts.workers()
	if workers > len(targets) {
		workers = len(targets)
	}
	if workers <= 1 {
		var w worker
		for i, e := range targets {
			results[i] = w.lintFile(e, idx, opts)
		}
		return results
	}
	// Workers claim files by an atomic counter: a channel send per file
	// costs more in scheduler wake-ups than a small record takes to lint.
	var next atomic.Int64
	var wg sync.WaitGroup
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var w worker
			for {
				i := int(next.Add(1) - 1)
				if i >= len(targets) {
					return
				}
				results[i] = w.lintFile(targets[i], idx, opts)
			}
		}()
	}
	wg.Wait()
	return results
}
