package recmerge

import (
	"slices"
	"strings"
)

// unionInsert merges two insertions made at the same place of a record's
// body (the base region between them is empty): when one is a prefix or
// a suffix of the other, the longer one; else ours, then the lines of
// theirs that ours does not already hold, so a line both sides added is
// not doubled. Blank lines are always kept: they separate paragraphs,
// and two appended paragraphs must stay two. Lines compare by lineKey, so
// a last line without a break equals the same line with one.
func unionInsert(ours, theirs []string, nl string) []string {
	ko, kt := lineKeys(ours, nl), lineKeys(theirs, nl)
	switch {
	case slices.Equal(ko, kt):
		if endsLine(ours) {
			return ours
		}
		return theirs
	case len(ko) < len(kt) && (slices.Equal(kt[:len(ko)], ko) || slices.Equal(kt[len(kt)-len(ko):], ko)):
		return theirs
	case len(kt) < len(ko) && (slices.Equal(ko[:len(kt)], kt) || slices.Equal(ko[len(ko)-len(kt):], kt)):
		return ours
	}
	held := map[string]int{}
	for _, k := range ko {
		held[k]++
	}
	out := append([]string(nil), ours...)
	for i, k := range kt {
		if held[k] > 0 && strings.TrimSpace(k) != "" {
			held[k]--
			continue
		}
		out = append(out, theirs[i])
	}
	return out
}

// endsLine reports whether the last of lines ends in a line break.
func endsLine(lines []string) bool {
	return len(lines) == 0 || strings.HasSuffix(lines[len(lines)-1], "\n")
}
