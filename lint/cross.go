package lint

import (
	"fmt"
	"iter"
	"slices"
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
// policies-retry), or one edit apart (retry-policy, retry-polcy). Only
// the kinds of the targets are listed.
func similarSlugFindings(targets []record.Entry, idx *index) []Finding {
	wanted := map[record.Kind][]string{}
	for _, e := range targets {
		if kind, slug, ok := recordSlug(e); ok {
			wanted[kind] = append(wanted[kind], slug)
		}
	}
	type kindGroups struct {
		kind   record.Kind
		groups [][]string
	}
	var found []kindGroups
	// targeted tells, of the paths in a group, those of targets: the
	// groups are few, and the targets may be thousands.
	targeted := map[string]bool{}
	for _, kind := range []record.Kind{record.KindDecision, record.KindRequest, record.KindKnowledge} {
		if len(wanted[kind]) == 0 {
			continue
		}
		n, slugs := idx.slugs(kind)
		var groups [][]string
		if len(targets) < n/16 {
			// A few files (a hook, a tool's write): compare them with the
			// rest instead of clustering every slug.
			groups = similarTo(slugs, wanted[kind])
		} else {
			var all []string
			for s := range slugs {
				all = append(all, s.slug)
			}
			groups = similarGroups(all)
		}
		for _, group := range groups {
			for _, s := range group {
				targeted[record.PathFor(kind, s)] = false
			}
		}
		found = append(found, kindGroups{kind, groups})
	}
	if len(targeted) == 0 {
		return nil
	}
	for _, e := range targets {
		if _, ok := targeted[e.Path]; ok {
			targeted[e.Path] = true
		}
	}
	var out []Finding
	for _, kg := range found {
		for _, group := range kg.groups {
			for _, s := range group {
				p := record.PathFor(kg.kind, s)
				if !targeted[p] {
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

// similarTo returns, for each wanted slug (one of slugs), the group of it
// and the slugs similar to it, in the order of slugs. Each other slug is
// looked at once, against all the wanted ones: its initials first (the
// same words in any order share them), and only for a wanted slug of
// nearly the same length and nearly the same letters are the variants
// of both hashed (one edit apart).
func similarTo(slugs iter.Seq[slugInfo], wanted []string) [][]string {
	ws := make([]*wantedSlug, len(wanted))
	for i, s := range wanted {
		ws[i] = &wantedSlug{info: newSlugInfo("", s), key: wordKey(s), variants: variants(s), at: -1}
	}
	var buf []uint64
	i := -1
	for o := range slugs {
		i++
		if !o.ready {
			o = newSlugInfo(o.path, o.slug)
		}
		key, vs := "", []uint64(nil)
		for _, w := range ws {
			if w.info.slug == o.slug {
				w.at = i
				continue
			}
			if o.sig == w.info.sig {
				if key == "" {
					key = wordKey(o.slug)
				}
				if key == w.key {
					w.group = append(w.group, o.slug)
					continue
				}
			}
			// Two slugs one edit apart have nearly the same length and
			// differ by at most one letter each way: most of the rest are
			// ruled out before hashing.
			if len(o.slug) < 10 || len(w.info.slug) < 10 || len(o.slug)-len(w.info.slug) > 1 || len(w.info.slug)-len(o.slug) > 1 || !nearLetters(o.letters, w.info.letters) {
				continue
			}
			if vs == nil {
				buf = appendVariants(buf[:0], o.slug)
				vs = buf
			}
			if shareAny(vs, w.variants) {
				w.group = append(w.group, o.slug)
			}
		}
	}
	slices.SortFunc(ws, func(a, b *wantedSlug) int { return a.at - b.at })
	var groups [][]string
	for _, w := range ws {
		if len(w.group) > 0 {
			sort.Strings(w.group)
			groups = append(groups, append([]string{w.info.slug}, w.group...))
		}
	}
	return groups
}

// wantedSlug is a slug similarTo looks for, with what the comparisons
// need of it, and the similar slugs found.
type wantedSlug struct {
	info     slugInfo
	key      string
	variants []uint64
	at       int // its index in the slugs
	group    []string
}

// letterCounts counts a slug's letters, digits and hyphens (at most 64
// bytes: a longer one is no slug).
func letterCounts(s string) [37]uint8 {
	var c [37]uint8
	for i := 0; i < len(s); i++ {
		switch b := s[i]; {
		case b >= 'a' && b <= 'z':
			c[b-'a']++
		case b >= '0' && b <= '9':
			c[26+b-'0']++
		default:
			c[36]++ // '-' and anything else: a slug has no other bytes
		}
	}
	return c
}

// nearLetters reports whether two slugs' counts differ by at most two in
// all: one deletion from each leaves the same letters.
func nearLetters(a, b [37]uint8) bool {
	d := 0
	for i := range a {
		d += max(int(a[i])-int(b[i]), int(b[i])-int(a[i]))
		if d > 2 {
			return false
		}
	}
	return true
}

func shareAny(a, b []uint64) bool {
	for _, x := range a {
		for _, y := range b {
			if x == y {
				return true
			}
		}
	}
	return false
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
		if w == "" || record.IsFillerWord(w) {
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

// variants are the hashes similarGroups indexes a slug under.
func variants(s string) []uint64 { return appendVariants(nil, s) }

func appendVariants(out []uint64, s string) []uint64 {
	out = append(out, hashWithout(s, -1))
	for i := 0; i < len(s); i++ {
		if s[i] != '-' && !isDigit(s[i]) {
			out = append(out, hashWithout(s, i))
		}
	}
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
