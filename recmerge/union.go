package recmerge

import (
	"slices"
	"strings"
)

// unionInsert merges two insertions made at the same place of a record's
// body (the base region between them is empty): when one is a prefix or
// a suffix of the other, the longer one; else ours, then theirs, each
// whole. An insertion is a unit (a dated section with its heading,
// options and rationale; a paragraph): taking out of theirs the lines
// ours happens to hold too would stitch a section together from the
// lines that differ. Lines compare by lineKey, so a last line without a
// break equals the same line with one.
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
	return append(append([]string(nil), ours...), theirs...)
}

// endsLine reports whether the last of lines ends in a line break.
func endsLine(lines []string) bool {
	return len(lines) == 0 || strings.HasSuffix(lines[len(lines)-1], "\n")
}
