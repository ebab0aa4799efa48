package memory

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// oneLine is s's words joined by single spaces. A description already so
// (nearly all) is returned as it is: no copy for each of the hundreds the
// always-on context lists.
func oneLine(s string) string {
	if isOneLine(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// isOneLine tells whether strings.Fields and a join by single spaces
// would give s back: no space (unicode.IsSpace) but single ' ' between
// words.
func isOneLine(s string) bool {
	prevSpace := true // a leading space is not one between words
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
		i += n
		if !unicode.IsSpace(r) {
			prevSpace = false
			continue
		}
		if r != ' ' || prevSpace {
			return false
		}
		prevSpace = true
	}
	return !prevSpace || s == ""
}
