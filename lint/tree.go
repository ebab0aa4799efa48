package lint

import (
	"sync"
	"sync/atomic"

	"github.com/yoimem/git-yoimem/record"
)

// index is what the listing alone tells about the snapshot.
type index struct {
	snap      record.Snapshot
	knowledge map[string]bool
	slugs     map[string]bool                   // every record slug, any kind
	decisions map[string]string                 // slug -> path
	bySlug    map[record.Kind][]string          // record slugs per kind, listing order
	paths     map[record.Kind]map[string]string // kind -> slug -> path
}

func newIndex(snap record.Snapshot) *index {
	idx := &index{
		snap:      snap,
		knowledge: map[string]bool{},
		slugs:     map[string]bool{},
		decisions: map[string]string{},
		bySlug:    map[record.Kind][]string{},
		paths:     map[record.Kind]map[string]string{},
	}
	for _, e := range snap.Entries {
		if e.Mode != record.ModeRegular {
			continue
		}
		loc := record.Classify(e.Path)
		if loc.Area != record.AreaRecord || loc.Kind == record.KindSummary || loc.SlugErr != nil {
			continue
		}
		idx.slugs[loc.Slug] = true
		idx.bySlug[loc.Kind] = append(idx.bySlug[loc.Kind], loc.Slug)
		if idx.paths[loc.Kind] == nil {
			idx.paths[loc.Kind] = map[string]string{}
		}
		idx.paths[loc.Kind][loc.Slug] = e.Path
		switch loc.Kind {
		case record.KindKnowledge:
			idx.knowledge[loc.Slug] = true
		case record.KindDecision:
			idx.decisions[loc.Slug] = e.Path
		}
	}
	return idx
}

// Tree lints the snapshot. When only is non-nil, findings are reported for
// the paths it selects alone, while references and replaced_by chains are
// still checked against the whole snapshot; the cost then follows the
// number of selected files.
func Tree(snap record.Snapshot, opts Options, only func(path string) bool) Report {
	idx := newIndex(snap)
	var targets []record.Entry
	for _, e := range snap.Entries {
		if only == nil || only(e.Path) {
			targets = append(targets, e)
		}
	}
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
		for i, e := range targets {
			results[i] = lintFile(e, idx, opts)
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
			for {
				i := int(next.Add(1) - 1)
				if i >= len(targets) {
					return
				}
				results[i] = lintFile(targets[i], idx, opts)
			}
		}()
	}
	wg.Wait()
	return results
}
