package recmerge

import (
	"slices"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
)

// splitLines splits s after each "\n"; the last line may lack one. A line
// keeps its terminator ("\r\n" included), so a merge keeps line endings.
func splitLines(s string) []string {
	var out []string
	for s != "" {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			return append(out, s)
		}
		out = append(out, s[:i+1])
		s = s[i+1:]
	}
	return out
}

// lineKeys returns the lines as they compare: the last line, when it
// lacks a break, with nl added, so "x" at the end of a file matches the
// same line followed by more in another version of it.
func lineKeys(lines []string, nl string) []string {
	if len(lines) == 0 || strings.HasSuffix(lines[len(lines)-1], "\n") {
		return lines
	}
	keys := slices.Clone(lines)
	keys[len(keys)-1] += nl
	return keys
}

// matches returns, for each line of base, the index of the line of side it
// is kept as in a line diff from base to side, or -1 when it is deleted.
func matches(base, side []string) []int {
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0 // an exact diff: the merge must not depend on the clock
	ra, rb, _ := dmp.DiffLinesToRunes(strings.Join(base, ""), strings.Join(side, ""))
	m := make([]int, len(base))
	i, j := 0, 0
	for _, d := range dmp.DiffMainRunes(ra, rb, false) {
		n := len([]rune(d.Text))
		switch d.Type {
		case diffmatchpatch.DiffEqual:
			for k := 0; k < n; k++ {
				m[i+k] = j + k
			}
			i, j = i+n, j+n
		case diffmatchpatch.DiffDelete:
			for k := 0; k < n; k++ {
				m[i+k] = -1
			}
			i += n
		case diffmatchpatch.DiffInsert:
			j += n
		}
	}
	return m
}
