package rules

import (
	"strings"
	"unicode"

	"github.com/yoimem/git-yoimem/internal/secrets"
	"github.com/yoimem/git-yoimem/record"
)

// clean makes one staged text field a single line of record text: valid
// UTF-8, credentials redacted (before the line breaks go, so a key block
// is seen whole), control characters and line breaks turned into spaces,
// white space folded. Staged text is data: nothing in it is followed, and
// folded into a line it cannot open a heading, a code block or a second
// frontmatter.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	s = string(secrets.Redact([]byte(s)))
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool {
		return unicode.IsSpace(r) || unicode.IsControl(r)
	}), " ")
}

// safeLine is a line of new record text made safe to write: credentials
// the joined fields form are redacted, and a #slug naming no knowledge
// record is escaped (\#slug: Markdown shows #slug, the linter sees no
// reference) instead of becoming a dangling reference.
func safeLine(line string, isKnowledge func(slug string) bool) string {
	line = string(secrets.Redact([]byte(line)))
	refs := record.Refs([]byte(line))
	if len(refs) == 0 {
		return line
	}
	var b strings.Builder
	prev := 0
	for _, r := range refs {
		if isKnowledge(r.Slug) {
			continue
		}
		b.WriteString(line[prev:r.Offset])
		b.WriteByte('\\')
		prev = r.Offset
	}
	b.WriteString(line[prev:])
	return b.String()
}
