// Package suggest finds what a mistyped word was meant to be: the "did
// you mean" of unknown commands, flags, operations and configuration keys.
package suggest

import (
	"strings"
	"unicode/utf8"
)

// Closest returns the candidates word is most likely a misspelling of:
// those the fewest edits away (Distance, case ignored; a word that begins
// a candidate counts as one edit), if that is few enough for the word's
// length: one edit for two or three letters, two for longer words,
// nothing for a single letter. Ties are all returned, in the candidates'
// order; nil when none is close.
func Closest(word string, candidates []string) []string {
	n := utf8.RuneCountInString(word)
	limit := 2
	switch {
	case n < 2:
		return nil
	case n <= 3:
		limit = 1
	}
	lw := strings.ToLower(word)
	return best(candidates, limit, func(c string) int {
		lc := strings.ToLower(c)
		d := Distance(lw, lc)
		if d > 1 && strings.HasPrefix(lc, lw) {
			d = 1
		}
		return d
	})
}

// Within returns the candidates at the smallest Distance from word (case
// ignored), if it is at most limit; ties are all returned, in order.
func Within(word string, candidates []string, limit int) []string {
	lw := strings.ToLower(word)
	return best(candidates, limit, func(c string) int { return Distance(lw, strings.ToLower(c)) })
}

func best(candidates []string, limit int, dist func(string) int) []string {
	var out []string
	least := limit
	for _, c := range candidates {
		switch d := dist(c); {
		case d > least:
		case d < least || out == nil:
			least, out = d, []string{c}
		default:
			out = append(out, c)
		}
	}
	return out
}

// Distance is the number of edits that turn a into b: inserting,
// deleting or replacing a character, or swapping two adjacent ones (the
// optimal string alignment distance), counted in runes.
func Distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	// Three rows: the one before the previous is needed for swaps.
	prev2 := make([]int, len(rb)+1)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(rb)]
}

// OrList joins names as "a", "a or b", "a, b or c".
func OrList(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}
