package rules

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// trimSources trims every decision's and request's sources over limit
// (lint.Options.SourcesWarn, yoimem.lint.sourcesWarn) to the newest limit,
// the oldest dropped first: a trim, category noisy. Git history keeps the
// rest. A locked or protected record is left as it is. limit 0 turns it
// off, as it turns off the linter's warning.
func trimSources(ctx context.Context, s *consolidate.Session, idx *index, limit int) error {
	if limit <= 0 {
		return nil
	}
	changed := map[string]bool{}
	for _, c := range s.Changes().Changes() {
		changed[c.Path] = true
	}
	snap := s.Snapshot()
	for _, path := range sortedPaths(idx) {
		if k := idx.byPath[path]; k.tooBig != nil || s.Input().Locked[path] || s.Protected(path) || !changed[path] && len(k.sources) <= limit {
			continue
		}
		b, err := snap.Read(path)
		if err != nil {
			continue // not there any more, or not a file: nothing to trim
		}
		rec, _, err := record.Decode(path, b)
		if err != nil || len(rec.Sources) <= limit {
			continue
		}
		n := len(rec.Sources)
		_, err = s.Apply(ctx, consolidate.Change{
			Kind: memlog.OpTrim, Path: path, Content: b, KeepSources: limit,
			Categories: []memlog.Category{memlog.CategoryNoisy},
			Reason: fmt.Sprintf("%d sources, over yoimem.lint.sourcesWarn (%d): the oldest %d dropped, the newest %d kept; git history keeps the rest",
				n, limit, n-limit, limit),
		})
		if err := skipRefused(err); err != nil {
			return err
		}
	}
	return nil
}

// collapseChains points every replaced decision at the live record at the
// end of its replaced_by chain (A replaced by B, B by C: A's replaced_by
// becomes C): a replace, category superseded. A chain that loops or ends
// at no record is the linter's to report and is left alone, as is a
// locked record.
func collapseChains(ctx context.Context, s *consolidate.Session, idx *index) error {
	for _, path := range sortedPaths(idx) {
		k := idx.byPath[path]
		if k.kind != record.KindDecision || k.status != record.StatusReplaced || s.Input().Locked[path] || k.tooBig != nil {
			continue
		}
		next, ok := idx.byPath[record.PathFor(record.KindDecision, k.replacedBy)]
		if !ok || next.status != record.StatusReplaced {
			continue // names a live record already, or no decision
		}
		end := idx.live(next)
		if end.status == record.StatusReplaced || end.path == path {
			continue // a loop, or a chain that ends at no record
		}
		_, err := s.Apply(ctx, consolidate.Change{
			Kind: memlog.OpReplace, Path: path, Target: end.path,
			Categories: []memlog.Category{memlog.CategorySuperseded},
			Reason:     fmt.Sprintf("chain collapsed: %s is itself replaced; replaced_by now names the live record %s", k.replacedBy, end.slug),
		})
		if err := skipRefused(err); err != nil {
			return err
		}
	}
	return nil
}

// skipRefused: a tidy-up the session refuses is skipped; any other error
// ends the run.
func skipRefused(err error) error {
	var r *consolidate.Refusal
	if errors.As(err, &r) {
		return nil
	}
	return err
}

func sortedPaths(idx *index) []string {
	out := make([]string, 0, len(idx.byPath))
	for p := range idx.byPath {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}
