package record

import "strings"

// Slug words: how two slugs are found to name one subject. The linter's
// similar-slugs rule and the rules engine's topic matching compare slugs
// by their words without fillers, singular; they must agree, or the
// engine would add records the linter then flags.

// IsFillerWord: a slug word left out when slugs are compared
// (export-orders-as-csv and export-the-orders-to-csv name one subject).
func IsFillerWord(w string) bool {
	switch w {
	case "a", "an", "the", "of", "for", "to", "and", "in", "on", "with", "by", "as":
		return true
	}
	return false
}

// SingularWord is a slug word's singular as the comparison takes it:
// policies → policy, keys → key, class stays class.
func SingularWord(w string) string {
	switch {
	case len(w) > 4 && strings.HasSuffix(w, "ies"):
		return w[:len(w)-3] + "y"
	case len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss"):
		return w[:len(w)-1]
	}
	return w
}
