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
	vs := newVariantSet(n, len(slugs))
	for i, s := range slugs {
		k := keys.key(s)
		if o, ok := byKey[string(k)]; ok {
			uf.union(i, o)
		} else {
			byKey[string(k)] = i
		}
		if len(s) >= 10 { // short slugs one edit apart are usually different things (api-v1, api-v2)
			vs.add(s, i)
		}
	}
	vs.union(&uf)
	return uf.groups(slugs)
}

// variantSet holds the hashes of the slugs, and of each without one letter,
// in buckets by their top bits: one pass to count and one to place, where
// a Go map of a quarter million hashes costs a random probe each. Two
// slugs one edit apart share the slug or one of its single-letter
// deletions (symmetric deletion).
//
// In a bucket each is packed in a uint64: the hash shifted left by the
// bucket bits (the bits shifted out are the bucket's, the same for all in
// it), and the slug's index in the bits freed.
type variantSet struct {
	bits   int      // bucket bits; also the bits of a slug's index
	hashes []uint64 // in the order added
	slugs  []added  // whose hashes they are
	start  []int32  // counted in start[b+1]: where bucket b begins
}

// added says that the hashes up to end are of slug i (from the previous
// one's end).
type added struct{ i, end int32 }

// newVariantSet makes room for up to n hashes of slugs indexed below
// slugs, about four a bucket.
func newVariantSet(n, slugs int) *variantSet {
	b := max(1, bits.Len(uint(n/4)), bits.Len(uint(slugs)))
	return &variantSet{bits: b, hashes: make([]uint64, 0, n), start: make([]int32, 1<<b+1)}
}

func (v *variantSet) put(h uint64) {
	v.hashes = append(v.hashes, h)
	v.start[h>>(64-v.bits)+1]++
}

// add puts the hashes of s and of s without each letter (not a hyphen or
// digit) that hashWithout gives, computing each deletion from the hash of
// the bytes before it.
func (v *variantSet) add(s string, i int) {
	pre := uint64(fnvOffset) // FNV-1a of s[:skip]
	for skip := 0; skip < len(s); skip++ {
		if c := s[skip]; c != '-' && !isDigit(c) {
			h := pre
			for j := skip + 1; j < len(s); j++ {
				h = (h ^ uint64(s[j])) * fnvPrime
			}
			v.put((h ^ uint64(len(s)-1)) * fnvPrime)
		}
		pre = (pre ^ uint64(s[skip])) * fnvPrime
	}
	v.put((pre ^ uint64(len(s))) * fnvPrime)
	v.slugs = append(v.slugs, added{int32(i), int32(len(v.hashes))})
}

// union joins the slugs of equal hashes.
func (v *variantSet) union(uf *unionFind) {
	start := v.start
	for b := 1; b < len(start); b++ {
		start[b] += start[b-1]
	}
	// Placing moves each bucket's start to its end: bucket b then spans
	// start[b-1] to start[b].
	placed := make([]uint64, len(v.hashes))
	from := int32(0)
	for _, a := range v.slugs {
		for _, h := range v.hashes[from:a.end] {
			b := h >> (64 - v.bits)
			placed[start[b]] = h<<v.bits | uint64(a.i)
			start[b]++
		}
		from = a.end
	}
	lo := int32(0)
	for _, hi := range start[:len(start)-1] {
		v.unionBucket(uf, placed[lo:hi])
		lo = hi
	}
}

// unionBucket joins the slugs of one bucket's equal hashes: a bucket holds
// a few, compared pair by pair; a large one (many slugs sharing a
// variant) is sorted first.
func (v *variantSet) unionBucket(uf *unionFind, bucket []uint64) {
	mask := uint64(1)<<v.bits - 1
	if len(bucket) <= 8 {
		for j := 1; j < len(bucket); j++ {
			for k := 0; k < j; k++ {
				if bucket[j]>>v.bits == bucket[k]>>v.bits {
					uf.union(int(bucket[j]&mask), int(bucket[k]&mask))
					break
				}
			}
		}
		return
	}
	slices.Sort(bucket)
	for j := 1; j < len(bucket); j++ {
		if bucket[j]>>v.bits == bucket[j-1]>>v.bits {
			uf.union(int(bucket[j]&mask), int(bucket[j-1]&mask))
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
	for j := 1; j < len(k.spans); j++ { // insertion: a slug has a few words
		for m := j; m > 0 && bytes.Compare(word(k.spans[m]), word(k.spans[m-1])) < 0; m-- {
			k.spans[m], k.spans[m-1] = k.spans[m-1], k.spans[m]
		}
	}
	k.out = k.out[:0]
	for j, sp := range k.spans {
		if j > 0 {
			k.out = append(k.out, '-')
		}
		k.out = append(k.out, word(sp)...)
	}
	return k.out
}
