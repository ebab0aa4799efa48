package gitstore

import (
	"sort"
)

// PathSet is a set of paths, shared and never changed once built: the
// paths the new commits reachable from a commit change. Two tips with the
// same *PathSet were changed by the same commits' files.
type PathSet struct {
	paths map[string]struct{}
}

// Sorted returns the paths in order.
func (s *PathSet) Sorted() []string {
	out := make([]string, 0, len(s.paths))
	for p := range s.paths {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// Len is the number of paths.
func (s *PathSet) Len() int { return len(s.paths) }

// with returns s plus paths: s itself when it holds them all already, else
// a new set.
func (s *PathSet) with(paths func(yield func(string) bool)) *PathSet {
	var out *PathSet
	paths(func(p string) bool {
		if _, ok := s.paths[p]; ok {
			return true
		}
		if out == nil {
			out = &PathSet{paths: make(map[string]struct{}, len(s.paths)+1)}
			for q := range s.paths {
				out.paths[q] = struct{}{}
			}
		}
		out.paths[p] = struct{}{}
		return true
	})
	if out == nil {
		return s
	}
	return out
}

// Touched returns, for each new commit, the set of paths under Prefix that
// it and the new commits it reaches change: what a push of that commit
// changes in .yoi/. Sets are shared along history, so the cost follows the
// commits that change .yoi/, not the length of the history.
func (l *PushLog) Touched() []*PathSet {
	empty := &PathSet{}
	sets := make([]*PathSet, len(l.Commits))
	// Iterative post-order: a commit's set needs its parents' sets.
	type frame struct{ i, next int }
	var stack []frame
	for root := range l.Commits {
		if sets[root] != nil {
			continue
		}
		stack = append(stack[:0], frame{root, 0})
		for len(stack) > 0 {
			f := &stack[len(stack)-1]
			if f.next < len(l.parents[f.i]) {
				p := l.parents[f.i][f.next]
				f.next++
				if sets[p] == nil {
					stack = append(stack, frame{p, 0})
				}
				continue
			}
			sets[f.i] = l.merge(f.i, sets, empty)
			stack = stack[:len(stack)-1]
		}
	}
	return sets
}

// merge is commit i's set: its largest parent's set, plus the other
// parents' paths and its own files.
func (l *PushLog) merge(i int, sets []*PathSet, empty *PathSet) *PathSet {
	base := empty
	for _, p := range l.parents[i] {
		if len(sets[p].paths) > len(base.paths) {
			base = sets[p]
		}
	}
	out := base
	for _, p := range l.parents[i] {
		if sets[p] != base {
			out = out.with(func(yield func(string) bool) {
				for q := range sets[p].paths {
					if !yield(q) {
						return
					}
				}
			})
		}
	}
	return out.with(func(yield func(string) bool) {
		for _, f := range l.Commits[i].Files {
			if !yield(f) {
				return
			}
		}
	})
}
