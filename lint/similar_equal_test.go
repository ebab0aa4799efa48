package lint

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// referenceSimilarTo is similarTo as it was first written: every wanted
// slug compared with every other, pair by pair.
func referenceSimilarTo(slugs []string, kind record.Kind, want map[string]bool) [][]string {
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

// similar is the pairwise form of similarGroups' test, as the first
// similarTo used it.
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

// randomSlugs are slugs of a few words, with look-alikes: the same words
// in another order or number, one letter changed, dropped, added or
// swapped, digits and short slugs.
func randomSlugs(r *rand.Rand, n int) []string {
	words := strings.Fields("retry policy policies cache key keys log logs json sqlite use the of for ci budget api v1 v2 x y deploy deploys")
	seen := map[string]bool{}
	var out []string
	add := func(s string) {
		if s != "" && record.ValidateSlug(s) == nil && !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	for len(out) < n {
		var parts []string
		for i := 0; i < 1+r.IntN(4); i++ {
			parts = append(parts, words[r.IntN(len(words))])
		}
		s := strings.Join(parts, "-")
		add(s)
		b := []byte(s)
		i := r.IntN(len(b))
		switch r.IntN(5) {
		case 0:
			b[i] = byte('a' + r.IntN(26))
		case 1:
			b = append(b[:i], b[i+1:]...)
		case 2:
			b = append(b[:i], append([]byte{byte('a' + r.IntN(26))}, b[i:]...)...)
		case 3:
			if i+1 < len(b) {
				b[i], b[i+1] = b[i+1], b[i]
			}
		case 4:
			slices.Reverse(parts)
			b = []byte(strings.Join(parts, "-") + fmt.Sprint(r.IntN(3)))
		}
		add(string(b))
	}
	sort.Strings(out)
	return out
}

// TestSimilarToEqualsReference: the few-targets path finds, for random
// slugs, the groups the pairwise comparison finds.
func TestSimilarToEqualsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	found := 0
	for round := 0; round < 300; round++ {
		slugs := randomSlugs(r, 20+r.IntN(300))
		want := map[string]bool{}
		var wanted []string
		for i := 0; i < 1+r.IntN(4); i++ {
			s := slugs[r.IntN(len(slugs))]
			if !want[record.PathFor(record.KindKnowledge, s)] {
				want[record.PathFor(record.KindKnowledge, s)] = true
				wanted = append(wanted, s)
			}
		}
		ref := referenceSimilarTo(slugs, record.KindKnowledge, want)
		for _, ready := range []bool{true, false} { // listed for an overlay's memo, or for one use
			infos := func(yield func(slugInfo) bool) {
				for _, s := range slugs {
					info := slugInfo{path: record.PathFor(record.KindKnowledge, s), slug: s}
					if ready {
						info = newSlugInfo(info.path, s)
					}
					if !yield(info) {
						return
					}
				}
			}
			if got := similarTo(infos, wanted); !reflect.DeepEqual(got, ref) {
				t.Fatalf("round %d, ready %v: similarTo(%v) =\n%v\nwant\n%v", round, ready, wanted, got, ref)
			}
		}
		found += len(ref)
	}
	if found < 100 {
		t.Fatalf("only %d groups found in 300 rounds: the slugs are not alike enough to test anything", found)
	}
}

// referenceSimilarGroups is similarGroups as it was before the variants'
// hashes went into buckets: a Go map from each hash to its first slug.
func referenceSimilarGroups(slugs []string) [][]string {
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
		k := referenceWordKey(s)
		if o, ok := byKey[k]; ok {
			union(i, o)
		} else {
			byKey[k] = i
		}
		if len(s) < 10 {
			continue
		}
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

// referenceWordKey is wordKey as it was first written.
func referenceWordKey(s string) string {
	words := strings.Split(s, "-")
	kept := words[:0]
	for _, w := range words {
		if record.IsFillerWord(w) {
			continue
		}
		kept = append(kept, record.SingularWord(w))
	}
	sort.Strings(kept)
	return strings.Join(kept, "-")
}

// TestSimilarGroupsEqualsReference: the clustering of every slug finds,
// for random slugs with look-alikes, the groups of the map-based one.
func TestSimilarGroupsEqualsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	found := 0
	for round := 0; round < 300; round++ {
		slugs := randomSlugs(r, 1+r.IntN(2000))
		ref := referenceSimilarGroups(slugs)
		if got := similarGroups(slugs); !reflect.DeepEqual(got, ref) {
			t.Fatalf("round %d: similarGroups(%d slugs) =\n%v\nwant\n%v", round, len(slugs), got, ref)
		}
		found += len(ref)
	}
	if found < 1000 {
		t.Fatalf("only %d groups found in 300 rounds: the slugs are not alike enough to test anything", found)
	}
}

// TestWordKeyEqualsReference: wordKey normalizes random slugs, and slugs
// with filler words, empty words and plurals, as it was first written.
func TestWordKeyEqualsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	slugs := append(randomSlugs(r, 3000), "", "-", "a", "the-of", "a--b", "-x-", "policies-ies-series", "class-ss-bus-buses", "use-the-api-v1s", "keys-key-keyss")
	for _, s := range slugs {
		if got, want := wordKey(s), referenceWordKey(s); got != want {
			t.Errorf("wordKey(%q) = %q, want %q", s, got, want)
		}
	}
}

// corpusSlugs lists the slugs of each kind of the bench corpus of n
// records (when none is named).
func corpusSlugs(tb testing.TB, n int) map[record.Kind][]string {
	snap := record.MapSnapshot(benchCorpus(tb, n))
	out := map[record.Kind][]string{}
	for _, kind := range []record.Kind{record.KindDecision, record.KindRequest, record.KindKnowledge} {
		for _, s := range listSlugNames(snap, kind) {
			out[kind] = append(out[kind], s.slug)
		}
	}
	return out
}

// TestSimilarGroupsCorpus: on the bench corpus's slugs too (10,000 records,
// with look-alikes, unless YOIMEM_BENCH_CORPUS names a corpus).
func TestSimilarGroupsCorpus(t *testing.T) {
	for kind, slugs := range corpusSlugs(t, 10000) {
		ref := referenceSimilarGroups(slugs)
		if got := similarGroups(slugs); !reflect.DeepEqual(got, ref) {
			t.Fatalf("%s: %d groups, want %d:\n%v\nwant\n%v", kind, len(got), len(ref), got, ref)
		}
		t.Logf("%s: %d slugs, %d groups", kind, len(slugs), len(ref))
	}
}

// BenchmarkSimilarGroups clusters the bench corpus's slugs, every kind.
func BenchmarkSimilarGroups(b *testing.B) {
	all := corpusSlugs(b, 10000)
	b.ReportAllocs()
	for b.Loop() {
		for _, slugs := range all {
			similarGroups(slugs)
		}
	}
}

// TestVariantsOfEqualHashWithout: the hashes similarGroups computes from
// prefixes are hashWithout's, the ones similarTo compares.
func TestVariantsOfEqualHashWithout(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for _, s := range append(randomSlugs(r, 500), "", "a", "-", "9", "retry-policy-v2") {
		vs := newVariantSet(len(s)+1, 1)
		vs.add(s, 0)
		got := vs.hashes
		want := variants(s)
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%q: hashes %x, want %x", s, got, want)
		}
	}
}

// BenchmarkSimilarGroupsReference is BenchmarkSimilarGroups with the
// map-based reference, to compare the two in one run.
func BenchmarkSimilarGroupsReference(b *testing.B) {
	all := corpusSlugs(b, 10000)
	b.ReportAllocs()
	for b.Loop() {
		for _, slugs := range all {
			referenceSimilarGroups(slugs)
		}
	}
}

// TestRecordSlugIsListedSlug: recordSlug classifies once what listedSlug
// tells kind by kind.
func TestRecordSlugIsListedSlug(t *testing.T) {
	paths := []string{
		"memory/summary.md", "memory/decisions/use-sqlite.md", "memory/requests/faster-ci.md", "knowledge/retry-policy.md",
		"knowledge/Bad_Slug.md", "knowledge/sub/x.md", "knowledge/x.txt", "memory/decisions/.md", "memory/other/x.md", "README.md", "knowledge/a.md",
	}
	for _, p := range paths {
		for _, mode := range []record.Mode{record.ModeRegular, record.ModeSymlink} {
			e := record.Entry{Path: p, Mode: mode}
			kind, slug, ok := recordSlug(e)
			for _, k := range []record.Kind{record.KindDecision, record.KindRequest, record.KindKnowledge} {
				want, wantOK := listedSlug(e, k)
				if gotOK := ok && kind == k; gotOK != wantOK || wantOK && slug != want {
					t.Errorf("%s (mode %v) as %s: recordSlug = %s %q %v, listedSlug = %q %v", p, mode, k, kind, slug, ok, want, wantOK)
				}
			}
		}
	}
}

// referenceSimilarSlugFindings is similarSlugFindings as it was before
// recordSlug and the targeted paths: a set of every target's path, and each
// target's path classified for each kind.
func referenceSimilarSlugFindings(targets []record.Entry, idx *index) []Finding {
	want := map[string]bool{}
	wanted := map[record.Kind][]string{}
	for _, e := range targets {
		want[e.Path] = true
		for _, kind := range []record.Kind{record.KindDecision, record.KindRequest, record.KindKnowledge} {
			if slug, ok := listedSlug(e, kind); ok {
				wanted[kind] = append(wanted[kind], slug)
			}
		}
	}
	var out []Finding
	for _, kind := range []record.Kind{record.KindDecision, record.KindRequest, record.KindKnowledge} {
		if len(wanted[kind]) == 0 {
			continue
		}
		n, slugs := idx.slugs(kind)
		var groups [][]string
		if len(targets) < n/16 {
			groups = similarTo(slugs, wanted[kind])
		} else {
			var all []string
			for s := range slugs {
				all = append(all, s.slug)
			}
			groups = referenceSimilarGroups(all)
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

// TestSimilarSlugFindingsEqualsReference: on trees of random slugs of
// every kind, with the summary and files that are no records, for every
// target set from a few files to all of them.
func TestSimilarSlugFindingsEqualsReference(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	found := 0
	for round := 0; round < 60; round++ {
		files := map[string][]byte{"memory/summary.md": nil, "knowledge/Bad_Slug.md": nil, "README.md": nil}
		for _, kind := range []record.Kind{record.KindDecision, record.KindRequest, record.KindKnowledge} {
			for _, s := range randomSlugs(r, 1+r.IntN(400)) {
				files[record.PathFor(kind, s)] = nil
			}
		}
		snap := record.MapSnapshot(files)
		idx := newIndex(snap)
		for _, every := range []int{1, 2, 7, 40, 1000} {
			var targets []record.Entry
			for i, e := range snap.Entries {
				if i%every == round%every {
					targets = append(targets, e)
				}
			}
			got, want := similarSlugFindings(targets, idx), referenceSimilarSlugFindings(targets, idx)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("round %d, every %d: %d findings\n%v\nwant %d\n%v", round, every, len(got), got, len(want), want)
			}
			found += len(want)
		}
	}
	if found < 1000 {
		t.Fatalf("only %d findings: the trees test too little", found)
	}
}
