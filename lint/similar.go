package lint

import (
	"bytes"
	"math/bits"
	"slices"
	"strings"

	"github.com/yoimem/git-yoimem/record"
)

const (
	fnvOffset = 14695981039346656037
	fnvPrime  = 1099511628211
)

// similarGroups partitions slugs into groups of two or more similar ones:
// the same wordKey, or (slugs of 10 bytes or more) one edit apart. The
// groups are sorted, and ordered by their first slug.
func similarGroups(slugs []string) [][]string {
	uf := newUnionFind(len(slugs))
	byKey := make(map[string]int, len(slugs))
	var keys wordKeyer
	n := 0
	for _, s := range slugs {
		if len(s) >= 10 {
			n += len(s) + 1
		}
	}
	vs := make([]variant, 0, n)
	for i, s := range slugs {
		k := keys.key(s)
		if o, ok := byKey[string(k)]; ok {
			uf.union(i, o)
		} else {
			byKey[string(k)] = i
		}
		if len(s) >= 10 { // short slugs one edit apart are usually different things (api-v1, api-v2)
			vs = appendVariantsOf(vs, s, int32(i))
		}
	}
	// Symmetric deletion: two slugs one edit apart share the slug or one
	// of its single-letter deletions. The hashes go into buckets by their
	// top bits, one pass to count and one to place, where a Go map of a
	// quarter million hashes costs a random probe each.
	unionEqual(&uf, vs)
	return uf.groups(slugs)
}

// variant is the hash of a slug, or of it without one letter, and the
// slug's index.
type variant struct {
	h uint64
	i int32
}

// appendVariantsOf appends the hashes of s and of s without each letter
// (not a hyphen or digit) that hashWithout gives, computing each deletion
// from the hash of the bytes before it.
func appendVariantsOf(vs []variant, s string, i int32) []variant {
	pre := uint64(fnvOffset) // FNV-1a of s[:skip]
	for skip := 0; skip < len(s); skip++ {
		if c := s[skip]; c != '-' && !isDigit(c) {
			h := pre
			for j := skip + 1; j < len(s); j++ {
				h = (h ^ uint64(s[j])) * fnvPrime
			}
			vs = append(vs, variant{(h ^ uint64(len(s)-1)) * fnvPrime, i})
		}
		pre = (pre ^ uint64(s[skip])) * fnvPrime
	}
	return append(vs, variant{(pre ^ uint64(len(s))) * fnvPrime, i})
}

// unionEqual joins the slugs of variants with equal hashes.
func unionEqual(uf *unionFind, vs []variant) {
	if len(vs) < 2 {
		return
	}
	shift := 64 - max(1, bits.Len(uint(len(vs)/4))) // about four a bucket
	start := make([]int32, (1<<(64-shift))+1)
	for _, v := range vs {
		start[v.h>>shift+1]++
	}
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	placed := make([]variant, len(vs))
	next := slices.Clone(start[:len(start)-1])
	for _, v := range vs {
		b := v.h >> shift
		placed[next[b]] = v
		next[b]++
	}
	for b := 0; b+1 < len(start); b++ {
		bucket := placed[start[b]:start[b+1]]
		if len(bucket) < 2 {
			continue
		}
		slices.SortFunc(bucket, func(x, y variant) int {
			switch {
			case x.h < y.h:
				return -1
			case x.h > y.h:
				return 1
			}
			return 0
		})
		for j := 1; j < len(bucket); j++ {
			if bucket[j].h == bucket[j-1].h {
				uf.union(int(bucket[j].i), int(bucket[j-1].i))
			}
		}
	}
}

// unionFind is a disjoint-set forest over slug indexes.
type unionFind struct{ parent []int32 }

func newUnionFind(n int) unionFind {
	p := make([]int32, n)
	for i := range p {
		p[i] = int32(i)
	}
	return unionFind{p}
}

func (u *unionFind) find(i int) int {
	p := u.parent
	for int(p[i]) != i {
		p[i] = p[p[i]]
		i = int(p[i])
	}
	return i
}

func (u *unionFind) union(a, b int) {
	if ra, rb := u.find(a), u.find(b); ra != rb {
		u.parent[ra] = int32(rb)
	}
}

// groups returns the sets of two or more slugs, each sorted, ordered by
// their first slug.
func (u *unionFind) groups(slugs []string) [][]string {
	size := make([]int32, len(slugs))
	for i := range slugs {
		size[u.find(i)]++
	}
	at := map[int]int{} // root -> index in out
	var out [][]string
	for i, s := range slugs {
		r := u.find(i)
		if size[r] < 2 {
			continue
		}
		g, ok := at[r]
		if !ok {
			g = len(out)
			at[r] = g
			out = append(out, make([]string, 0, size[r]))
		}
		out[g] = append(out[g], s)
	}
	for _, g := range out {
		slices.Sort(g)
	}
	slices.SortFunc(out, func(a, b []string) int { return strings.Compare(a[0], b[0]) })
	return out
}

// wordKey normalizes a slug to its sorted, singular words without filler.
func wordKey(s string) string {
	var k wordKeyer
	return string(k.key(s))
}

// wordKeyer builds wordKeys in buffers it keeps from one slug to the next.
type wordKeyer struct {
	words []byte   // the singular words, one after the other
	spans [][2]int // each word's bounds in words
	out   []byte
}

// key returns s's wordKey, valid until the next call.
func (k *wordKeyer) key(s string) []byte {
	k.words, k.spans = k.words[:0], k.spans[:0]
	for rest := s; ; {
		w := rest
		i := strings.IndexByte(rest, '-')
		if i >= 0 {
			w, rest = rest[:i], rest[i+1:]
		}
		if !record.IsFillerWord(w) {
			from := len(k.words)
			k.words = append(k.words, record.SingularWord(w)...)
			k.spans = append(k.spans, [2]int{from, len(k.words)})
		}
		if i < 0 {
			break
		}
	}
	word := func(sp [2]int) []byte { return k.words[sp[0]:sp[1]] }
	slices.SortFunc(k.spans, func(a, b [2]int) int { return bytes.Compare(word(a), word(b)) })
	k.out = k.out[:0]
	for j, sp := range k.spans {
		if j > 0 {
			k.out = append(k.out, '-')
		}
		k.out = append(k.out, word(sp)...)
	}
	return k.out
}
