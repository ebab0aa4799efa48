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
		infos := func(yield func(slugInfo) bool) {
			for _, s := range slugs {
				if !yield(newSlugInfo(record.PathFor(record.KindKnowledge, s), s)) {
					return
				}
			}
		}
		if got := similarTo(infos, wanted); !reflect.DeepEqual(got, ref) {
			t.Fatalf("round %d: similarTo(%v) =\n%v\nwant\n%v", round, wanted, got, ref)
		}
		found += len(ref)
	}
	if found < 100 {
		t.Fatalf("only %d groups found in 300 rounds: the slugs are not alike enough to test anything", found)
	}
}
