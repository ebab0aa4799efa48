package recmerge

import (
	"slices"
	"strings"
)

// Conflict-marker lines; the labels name the sides as git's do.
const (
	markerOurs   = "<<<<<<< ours"
	markerSep    = "======="
	markerTheirs = ">>>>>>> theirs"
)

// merge3 merges ours and theirs, both edits of base, line by line (the
// diff3 algorithm of Khanna, Kunal and Pierce): a region changed on one
// side takes that side, a region changed the same way on both takes it
// once, and a region changed differently on both becomes a conflict
// between markers. With union, a region where both sides only inserted
// lines at one place keeps both insertions (unionInsert) instead. nl is
// the file's line break, for marker lines and for a last line that lacks
// one when more follows. It reports whether any conflict was left.
func merge3(base, ours, theirs, nl string, union bool) (string, bool) {
	w := &lineWriter{nl: nl}
	conflict := false
	for _, c := range chunks(splitLines(base), splitLines(ours), splitLines(theirs), nl) {
		if c.stable {
			w.stable(c)
		} else if resolve(w, c, union) {
			conflict = true
		}
	}
	return w.out.String(), conflict
}

// chunk is a region of the three texts: stable when both sides kept the
// base lines (by lineKey; a side may differ in a last line's break), else
// the base lines and what each side has in their place.
type chunk struct {
	stable             bool
	base, ours, theirs []string
}

// chunks splits the texts into alternating stable and unstable chunks.
// An unstable chunk runs to the next base line both sides kept, so a
// deletion both sides made and insertions both made after the next kept
// line fall into separate chunks.
func chunks(o, a, b []string, nl string) []chunk {
	ko := lineKeys(o, nl)
	ma, mb := matches(ko, lineKeys(a, nl)), matches(ko, lineKeys(b, nl))
	var out []chunk
	lo, la, lb := 0, 0, 0
	for lo < len(o) || la < len(a) || lb < len(b) {
		i := 0
		for lo+i < len(o) && ma[lo+i] == la+i && mb[lo+i] == lb+i {
			i++
		}
		if i > 0 {
			out = append(out, chunk{stable: true, base: o[lo : lo+i], ours: a[la : la+i], theirs: b[lb : lb+i]})
			lo, la, lb = lo+i, la+i, lb+i
			continue
		}
		next := lo
		for next < len(o) && (ma[next] < 0 || mb[next] < 0) {
			next++
		}
		ea, eb := len(a), len(b)
		if next < len(o) {
			ea, eb = ma[next], mb[next]
		}
		out = append(out, chunk{base: o[lo:next], ours: a[la:ea], theirs: b[lb:eb]})
		lo, la, lb = next, ea, eb
	}
	return out
}

// resolve writes one unstable chunk and reports whether it conflicts.
func resolve(w *lineWriter, c chunk, union bool) bool {
	switch {
	case slices.Equal(c.ours, c.base), slices.Equal(c.ours, c.theirs):
		w.lines(c.theirs)
		return false
	case slices.Equal(c.theirs, c.base):
		w.lines(c.ours)
		return false
	case union && len(c.base) == 0:
		w.lines(unionInsert(c.ours, c.theirs, w.nl))
		return false
	}
	w.line(markerOurs + w.nl)
	w.lines(c.ours)
	w.line(markerSep + w.nl)
	w.lines(c.theirs)
	w.line(markerTheirs + w.nl)
	return true
}

// lineWriter writes merged lines; a line that lacks a break and is
// followed by more gets nl, so two last lines never run together.
type lineWriter struct {
	out strings.Builder
	nl  string
}

func (w *lineWriter) line(l string) {
	if s := w.out.String(); s != "" && s[len(s)-1] != '\n' {
		w.out.WriteString(w.nl)
	}
	w.out.WriteString(l)
}

func (w *lineWriter) lines(ls []string) {
	for _, l := range ls {
		w.line(l)
	}
}

// stable writes a stable chunk: each line as base has it, unless a side
// changed its line break (a last line given or stripped of one), which
// is then taken as that side has it, ours first.
func (w *lineWriter) stable(c chunk) {
	for i, l := range c.base {
		switch {
		case c.ours[i] != l:
			l = c.ours[i]
		case c.theirs[i] != l:
			l = c.theirs[i]
		}
		w.line(l)
	}
}
