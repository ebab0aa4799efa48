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
// between markers, ending in nl. It reports whether any conflict was left.
func merge3(base, ours, theirs, nl string) (string, bool) {
	o, a, b := splitLines(base), splitLines(ours), splitLines(theirs)
	ma, mb := matches(o, a), matches(o, b)
	var out strings.Builder
	conflict := false
	lo, la, lb := 0, 0, 0
	for lo < len(o) || la < len(a) || lb < len(b) {
		i := 0
		for lo+i < len(o) && ma[lo+i] == la+i && mb[lo+i] == lb+i {
			i++
		}
		if i > 0 {
			for _, l := range o[lo : lo+i] {
				out.WriteString(l)
			}
			lo, la, lb = lo+i, la+i, lb+i
			continue
		}
		// The next base line both sides kept ends the unstable chunk.
		next := lo
		for next < len(o) && (ma[next] < 0 || mb[next] < 0) {
			next++
		}
		ea, eb := len(a), len(b)
		if next < len(o) {
			ea, eb = ma[next], mb[next]
		}
		if resolve(&out, o[lo:next], a[la:ea], b[lb:eb], nl) {
			conflict = true
		}
		lo, la, lb = next, ea, eb
	}
	return out.String(), conflict
}

// resolve writes one unstable chunk and reports whether it conflicts.
func resolve(out *strings.Builder, base, a, b []string, nl string) bool {
	switch {
	case slices.Equal(a, base), slices.Equal(a, b):
		writeLines(out, b, "")
		return false
	case slices.Equal(b, base):
		writeLines(out, a, "")
		return false
	}
	out.WriteString(markerOurs + nl)
	writeLines(out, a, nl)
	out.WriteString(markerSep + nl)
	writeLines(out, b, nl)
	out.WriteString(markerTheirs + nl)
	return true
}

// writeLines writes lines; with a non-empty nl a last line without a line
// break gets one (inside conflict markers, which must start a line).
func writeLines(out *strings.Builder, lines []string, nl string) {
	for _, l := range lines {
		out.WriteString(l)
	}
	if nl != "" && len(lines) > 0 && !strings.HasSuffix(lines[len(lines)-1], "\n") {
		out.WriteString(nl)
	}
}
