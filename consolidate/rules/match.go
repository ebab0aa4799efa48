package rules

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/yoimem/git-yoimem/record"
)

// Attempts carry no topic; the record of their topic is found from what
// was tried, by the first rule that finds one:
//
//  1. the slug of what was tried names a record, or a near-identical one
//     (as a topic does);
//  2. every word of a record's slug (fillers left out, singular) is a
//     word of what was tried, and the slug has two such words or one of
//     at least minWordLetters letters; the record with the most words
//     wins;
//  3. a record's title that has letters a slug cannot carry (a Japanese
//     topic) of at least minTitleRunes characters appears in what was
//     tried, white space and case aside; the longest title wins.
//
// Ties go to a decision before a request, then to the first path. The
// rules read only the set of records, which a second run over the same
// entries sees unchanged, so an attempt lands where it did the first time.

// minWordLetters: a one-word slug shorter than this (go, ci, api) is too
// common a word to claim an attempt that merely mentions it.
const minWordLetters = 5

// minTitleRunes: shorter titles match too much text.
const minTitleRunes = 3

// attemptRecord is the record an attempt at what belongs to, or nil.
func (p *planner) attemptRecord(what string) *known {
	slug := topicSlug(what)
	if slug == "" {
		return nil
	}
	for _, kind := range []record.Kind{record.KindDecision, record.KindRequest} {
		if k := p.idx.match(kind, slug); k != nil {
			return k
		}
	}
	if k := p.idx.byWords(what); k != nil {
		return k
	}
	return p.idx.byTitle(what)
}

// better reports whether candidate a beats b on equal scores.
func better(a, b *known) bool {
	if a.kind != b.kind {
		return a.kind == record.KindDecision
	}
	return a.path < b.path
}

// byWords is rule 2.
func (idx *index) byWords(what string) *known {
	words, _ := asciiWords(strings.ToLower(what))
	have := map[string]bool{}
	for _, w := range words {
		if !record.IsFillerWord(w) {
			have[record.SingularWord(w)] = true
		}
	}
	var best *known
	for _, k := range idx.byPath {
		n := len(k.words)
		if n == 0 || n == 1 && len(k.words[0]) < minWordLetters {
			continue
		}
		all := true
		for _, w := range k.words {
			if !have[w] {
				all = false
				break
			}
		}
		if all && (best == nil || n > len(best.words) || n == len(best.words) && better(k, best)) {
			best = k
		}
	}
	return best
}

// byTitle is rule 3.
func (idx *index) byTitle(what string) *known {
	text := squash(what)
	var best *known
	bestLen := 0
	for _, k := range idx.byPath {
		if !foreignTitle(k.title) {
			continue
		}
		t := squash(k.title)
		n := utf8.RuneCountInString(t)
		if !strings.Contains(text, t) {
			continue
		}
		if best == nil || n > bestLen || n == bestLen && better(k, best) {
			best, bestLen = k, n
		}
	}
	return best
}

// squash lower-cases s and removes its white space.
func squash(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return unicode.ToLower(r)
	}, s)
}
