package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/yoimem/git-yoimem/record"
)

// replacedByFindings checks replaced_by of the target decisions: the
// target exists, is not the record itself, and the chain does not loop.
func replacedByFindings(targets []record.Entry, idx *index, known map[string]*facts, opts Options) []Finding {
	var out []Finding
	lookup := func(slug string) *facts {
		if !idx.has(record.KindDecision, slug) {
			return nil
		}
		p := record.PathFor(record.KindDecision, slug)
		if f, ok := known[p]; ok {
			return f
		}
		f := decisionFacts(idx.view, p, opts)
		known[p] = f
		return f
	}
	for _, e := range targets {
		f := known[e.Path]
		if f == nil || f.replacedBy == "" {
			continue
		}
		add := func(rule, format string, args ...any) {
			out = append(out, Finding{Path: f.path, Line: f.rbLine, Col: f.rbCol, Severity: Error, Rule: rule, Message: fmt.Sprintf(format, args...)})
		}
		switch {
		case f.replacedBy == f.slug:
			add(RuleReplacedByTarget, "replaced_by names the record itself")
		case !idx.isRecord(f.replacedBy):
			add(RuleReplacedByTarget, "replaced_by: %s names no record (no decision, request or knowledge record has that slug)", f.replacedBy)
		default:
			if chain := cycleFrom(f, lookup); chain != nil {
				add(RuleReplacedByCycle, "replaced_by chain loops: %s", strings.Join(chain, " -> "))
			}
		}
	}
	return out
}

// cycleFrom follows replaced_by links from f and returns the chain when it
// comes back to f; a loop that does not include f is reported on its own
// members, not here.
func cycleFrom(f *facts, lookup func(string) *facts) []string {
	chain := []string{f.slug}
	seen := map[string]bool{f.slug: true}
	cur := f
	for cur != nil && cur.replacedBy != "" {
		next := cur.replacedBy
		chain = append(chain, next)
		if next == f.slug {
			return chain
		}
		if seen[next] {
			return nil
		}
		seen[next] = true
		cur = lookup(next)
	}
	return nil
}

// decisionFacts reads one decision's replaced_by outside the target set.
func decisionFacts(view record.View, p string, opts Options) *facts {
	if e, ok := view.Lookup(p); !ok || e.Mode != record.ModeRegular || (opts.MaxFileBytes > 0 && e.Size > opts.MaxFileBytes) {
		return &facts{path: p}
	}
	b, err := view.ReadFile(p)
	if err != nil {
		return &facts{path: p}
	}
	rec, _, err := record.Decode(p, b)
	if err != nil {
		return &facts{path: p}
	}
	return &facts{path: p, slug: rec.Slug, replacedBy: rec.ReplacedBy}
}

// similarSlugFindings reports clusters of look-alike slugs of one kind:
// the same words in another order or number (retry-policy,
// policies-retry), or one edit apart (retry-policy, retry-polcy).
func similarSlugFindings(targets []record.Entry, idx *index) []Finding {
	want := map[string]bool{}
	for _, e := range targets {
		want[e.Path] = true
	}
	var out []Finding
	for _, kind := range []record.Kind{record.KindDecision, record.KindRequest, record.KindKnowledge} {
		slugs := idx.slugs(kind)
		var groups [][]string
		if len(targets) < len(slugs)/16 {
			// A few files (a hook, a tool's write): compare them with the
			// rest instead of clustering every slug.
			groups = similarTo(slugs, kind, want)
		} else {
			groups = similarGroups(slugs)
		}
		for _, group := range groups {
			for _, s := range group {
				p := record.PathFor(kind, s)
				if !want[p] {
					continue
				}
				others := make([]string, 0, len(group)-1)
				for _, o := range group {
					if o != s {
						others = append(others, o)
					}
				}
				out = append(out, Finding{Path: p, Line: 1, Col: 1, Severity: Warning, Rule: RuleSimilarSlugs,
					Message: fmt.Sprintf("slug looks like %s: merge candidates", listSome(others, 5))})
			}
		}
	}
	return out
}

// listSome joins up to n names and counts the rest.
func listSome(names []string, n int) string {
	if len(names) <= n {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:n], ", "), len(names)-n)
}

// similarTo returns, for each wanted slug of kind, the group of it and the
// slugs similar to it.
func similarTo(slugs []string, kind record.Kind, want map[string]bool) [][]string {
	var groups [][]string
	for _, s := range slugs {
		if !want[record.PathFor(kind, s)] {
			continue
		}
		sig := initials(s)
		group := []string{s}
		for _, o := range slugs {
			if o == s {
				continue
			}
			// Same words in any order share their initials; one edit apart
			// means nearly the same length. Anything else is not similar,
			// and is rejected here without allocating.
			near := len(s) >= 10 && len(o) >= 10 && len(s)-len(o) <= 1 && len(o)-len(s) <= 1
			if (near || initials(o) == sig) && similar(s, o) {
				group = append(group, o)
			}
		}
		if len(group) > 1 {
			sort.Strings(group[1:])
			groups = append(groups, group)
		}
	}
	return groups
}

// initials counts the first letters of a slug's words, filler words left
// out: equal for slugs whose wordKeys are equal.
func initials(s string) [36]uint8 {
	var c [36]uint8
	for len(s) > 0 {
		w := s
		if i := strings.IndexByte(s, '-'); i >= 0 {
			w, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		switch w {
		case "", "a", "an", "the", "of", "for", "to", "and", "in", "on", "with", "by":
			continue
		}
		switch b := w[0]; {
		case b >= 'a' && b <= 'z':
			c[b-'a']++
		case b >= '0' && b <= '9':
			c[26+b-'0']++
		}
	}
	return c
}

// similar is the pairwise form of similarGroups' test.
func similar(a, b string) bool {
	if wordKey(a) == wordKey(b) {
		return true
	}
	if len(a) < 10 || len(b) < 10 || len(a)-len(b) > 1 || len(b)-len(a) > 1 {
		return false
	}
	va, vb := variants(a), variants(b)
	for _, x := range va {
		for _, y := range vb {
			if x == y {
				return true
			}
		}
	}
	return false
}

// variants are the hashes similarGroups indexes a slug under.
func variants(s string) []uint64 {
	out := []uint64{hashWithout(s, -1)}
	for i := 0; i < len(s); i++ {
		if s[i] != '-' && !isDigit(s[i]) {
			out = append(out, hashWithout(s, i))
		}
	}
	return out
}

// similarGroups partitions slugs into groups of two or more similar ones.
func similarGroups(slugs []string) [][]string {
	parent := make([]int, len(slugs))
	for i := range parent {
		parent[i] = i
	}
	find := func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	union := func(a, b int) {
		if ra, rb := find(a), find(b); ra != rb {
			parent[ra] = rb
		}
	}
	byKey := make(map[string]int, len(slugs))
	byVariant := make(map[uint64]int, len(slugs)*8)
	for i, s := range slugs {
		k := wordKey(s)
		if o, ok := byKey[k]; ok {
			union(i, o)
		} else {
			byKey[k] = i
		}
		if len(s) < 10 {
			continue // short slugs one edit apart are usually different things (api-v1, api-v2)
		}
		// Symmetric deletion: two slugs one edit apart share the slug or
		// one of its single-letter deletions. Variants are hashed, not
		// built, to keep this cheap for 10,000 slugs.
		for skip := -1; skip < len(s); skip++ {
			if skip >= 0 && (s[skip] == '-' || isDigit(s[skip])) {
				continue
			}
			h := hashWithout(s, skip)
			if o, ok := byVariant[h]; ok {
				union(i, o)
			} else {
				byVariant[h] = i
			}
		}
	}
	groups := map[int][]string{}
	for i, s := range slugs {
		r := find(i)
		groups[r] = append(groups[r], s)
	}
	var out [][]string
	for _, g := range groups {
		if len(g) > 1 {
			sort.Strings(g)
			out = append(out, g)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}

// hashWithout is the FNV-1a hash of s without the byte at skip (-1: all of
// s), with the length mixed in so that different deletions rarely collide.
func hashWithout(s string, skip int) uint64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		if i != skip {
			h = (h ^ uint64(s[i])) * 1099511628211
		}
	}
	n := len(s)
	if skip >= 0 {
		n--
	}
	return (h ^ uint64(n)) * 1099511628211
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// wordKey normalizes a slug to its sorted, singular words without filler.
func wordKey(s string) string {
	words := strings.Split(s, "-")
	kept := words[:0]
	for _, w := range words {
		switch w {
		case "a", "an", "the", "of", "for", "to", "and", "in", "on", "with", "by":
			continue
		}
		kept = append(kept, singular(w))
	}
	sort.Strings(kept)
	return strings.Join(kept, "-")
}

func singular(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}
