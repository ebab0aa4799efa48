package rules

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strings"
	"unicode"

	"github.com/yoimem/git-yoimem/record"
)

// hashPrefix names a topic with nothing ASCII in it: topic-<8 hex>.
const hashPrefix = "topic"

// topicSlug is the stable slug of a topic: its words, lower-cased and
// folded to ASCII where a letter has an ASCII base (é → e, ß → ss,
// full-width Ｓ → s), joined by hyphens and cut at a word boundary to fit
// record.MaxSlugLen. When letters remain that do not fold (Japanese, for
// one), the first 8 hex digits of the SHA-256 of the lower-cased topic
// are appended, or make the slug (topic-<hash>) when no ASCII word is
// left: SQLiteの採用 and SQLiteの廃止 stay two records. "" when the topic
// has no letter or digit at all.
func topicSlug(topic string) string {
	norm := strings.ToLower(strings.Join(strings.Fields(topic), " "))
	words, dropped := asciiWords(norm)
	if !dropped {
		return joinWords(words, record.MaxSlugLen)
	}
	sum := sha256.Sum256([]byte(norm))
	hash := hex.EncodeToString(sum[:4])
	if len(words) == 0 {
		return hashPrefix + "-" + hash
	}
	return joinWords(words, record.MaxSlugLen-len(hash)-1) + "-" + hash
}

// asciiWords splits s into runs of ASCII letters and digits after folding;
// dropped reports a letter or digit that has no ASCII form.
func asciiWords(s string) (words []string, dropped bool) {
	var cur strings.Builder
	flush := func() {
		if cur.Len() > 0 {
			words = append(words, cur.String())
			cur.Reset()
		}
	}
	for _, r := range s {
		f, ok := foldRune(unicode.ToLower(r))
		switch {
		case ok:
			cur.WriteString(f)
		case unicode.IsLetter(r) || unicode.IsNumber(r):
			dropped = true
			flush()
		default:
			flush()
		}
	}
	flush()
	return words, dropped
}

// joinWords joins words with hyphens, as many as fit in max characters; a
// first word longer than max is cut.
func joinWords(words []string, max int) string {
	var b strings.Builder
	for _, w := range words {
		switch {
		case b.Len() == 0 && len(w) > max:
			return w[:max]
		case b.Len() > 0 && b.Len()+1+len(w) > max:
			return b.String()
		case b.Len() > 0:
			b.WriteByte('-')
		}
		b.WriteString(w)
	}
	return b.String()
}

// foldRune maps a lower-case rune to its ASCII letters or digit; ok is
// false for anything else.
func foldRune(r rune) (string, bool) {
	switch {
	case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
		return string(r), true
	case r >= 'ａ' && r <= 'ｚ': // full-width forms
		return string(r - 'ａ' + 'a'), true
	case r >= '０' && r <= '９':
		return string(r - '０' + '0'), true
	case r < 0xC0 || r > 0x17F:
		return "", false
	}
	s := latinFold(r)
	return s, s != ""
}

// latinFold folds the lower-case letters of Latin-1 and Latin Extended-A
// to their ASCII base letters.
func latinFold(r rune) string {
	switch r {
	case 'à', 'á', 'â', 'ã', 'ä', 'å', 'ā', 'ă', 'ą':
		return "a"
	case 'ç', 'ć', 'ĉ', 'ċ', 'č':
		return "c"
	case 'ď', 'đ', 'ð':
		return "d"
	case 'è', 'é', 'ê', 'ë', 'ē', 'ĕ', 'ė', 'ę', 'ě':
		return "e"
	case 'ĝ', 'ğ', 'ġ', 'ģ':
		return "g"
	case 'ĥ', 'ħ':
		return "h"
	case 'ì', 'í', 'î', 'ï', 'ĩ', 'ī', 'ĭ', 'į', 'ı':
		return "i"
	case 'ĵ':
		return "j"
	case 'ķ', 'ĸ':
		return "k"
	case 'ĺ', 'ļ', 'ľ', 'ŀ', 'ł':
		return "l"
	case 'ñ', 'ń', 'ņ', 'ň', 'ŉ', 'ŋ':
		return "n"
	case 'ò', 'ó', 'ô', 'õ', 'ö', 'ø', 'ō', 'ŏ', 'ő':
		return "o"
	case 'ŕ', 'ŗ', 'ř':
		return "r"
	case 'ś', 'ŝ', 'ş', 'š', 'ſ':
		return "s"
	case 'ţ', 'ť', 'ŧ':
		return "t"
	case 'ù', 'ú', 'û', 'ü', 'ũ', 'ū', 'ŭ', 'ů', 'ű', 'ų':
		return "u"
	case 'ŵ':
		return "w"
	case 'ý', 'ÿ', 'ŷ':
		return "y"
	case 'ź', 'ż', 'ž':
		return "z"
	case 'ß':
		return "ss"
	case 'æ':
		return "ae"
	case 'œ':
		return "oe"
	case 'þ':
		return "th"
	case 'ĳ':
		return "ij"
	}
	return ""
}

// topicKey is what near-identical slugs share: their words without
// fillers, singular, sorted. retry-policy, Retry Policies and
// policy-for-the-retry have one key. It is the linter's similar-slugs
// rule without its one-typo case, which is not an equivalence (a ~ b and
// b ~ c, yet a ≁ c) and would let a second run place a topic elsewhere
// than the first. "" when nothing but fillers remains.
func topicKey(slug string) string {
	words := keyWords(slug)
	slices.Sort(words)
	return strings.Join(words, "-")
}

// keyWords are a slug's words without fillers, singular, in order.
func keyWords(slug string) []string {
	var out []string
	for _, w := range strings.Split(slug, "-") {
		if w == "" || record.IsFillerWord(w) {
			continue
		}
		out = append(out, record.SingularWord(w))
	}
	return out
}
