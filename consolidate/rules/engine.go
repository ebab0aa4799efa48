package rules

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/record"
)

// DefaultRecentWork is how many lines the summary's "## Recent work"
// section keeps when Engine.RecentWork is 0.
const DefaultRecentWork = 20

// Engine is the rules engine. The zero value is ready to use.
type Engine struct {
	// RecentWork bounds the summary's "## Recent work" section: the
	// newest lines are kept. 0 means DefaultRecentWork.
	RecentWork int
}

// Name is the engine's name in the Yoimem-Engine trailer.
func (Engine) Name() string { return "rules" }

// Model is empty: the rules engine uses none.
func (Engine) Model() string { return "" }

func (e Engine) recentWork() int {
	if e.RecentWork > 0 {
		return e.RecentWork
	}
	return DefaultRecentWork
}

// Run maps the session's staging entries onto records and tidies up,
// changing memory only through s. A change the session refuses in the
// mapping (a record over its cap, a record that does not parse) fails the
// run with the *consolidate.Refusal, so that nothing is committed and the
// staging is kept; a refused tidy-up is skipped.
func (e Engine) Run(ctx context.Context, s *consolidate.Session) error {
	in := s.Input()
	snap := s.Snapshot()
	idx, err := loadIndex(ctx, snap, in.Lint.MaxFileBytes)
	if err != nil {
		return err
	}
	p := &planner{s: s, in: in, idx: idx, drafts: map[string]*draft{}, isKnowledge: func(slug string) bool {
		e, ok := snap.Lookup(record.PathFor(record.KindKnowledge, slug))
		return ok && e.Mode == record.ModeRegular
	}}
	entries := slices.Clone(in.Entries)
	slices.SortStableFunc(entries, func(a, b extract.Staging) int { return cmp.Compare(a.ID, b.ID) })
	for _, en := range entries {
		if err := ctx.Err(); err != nil {
			return err
		}
		p.placeTopics(en)
	}
	// Attempts go last, when every record of this run's topics exists, so
	// that the first run and a second one see the same records.
	for _, en := range entries {
		p.placeAttempts(en)
	}
	if err := p.write(ctx, e.recentWork()); err != nil {
		return err
	}
	if err := trimSources(ctx, s, idx, in.Lint.SourcesWarn); err != nil {
		return err
	}
	return collapseChains(ctx, s, idx)
}

// planner maps one run's staging entries onto drafts.
type planner struct {
	s           *consolidate.Session
	in          *consolidate.Input
	idx         *index
	drafts      map[string]*draft
	recent      []recentLine // lines for the summary's recent work
	isKnowledge func(slug string) bool
}

// recentLine is an item for the summary and the staging entry it comes
// from.
type recentLine struct {
	line, entry string
}

// write applies the drafts and the summary's recent work, in path order.
func (p *planner) write(ctx context.Context, keep int) error {
	paths := make([]string, 0, len(p.drafts))
	for path := range p.drafts {
		paths = append(paths, path)
	}
	slices.Sort(paths)
	for _, path := range paths {
		c, ok, err := p.change(p.drafts[path])
		if err != nil {
			return err
		}
		if !ok {
			continue
		}
		if _, err := p.s.Apply(ctx, c); err != nil {
			return fmt.Errorf("rules engine: %w", err)
		}
	}
	return p.writeRecent(ctx, keep)
}
