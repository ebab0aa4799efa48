package memory

import (
	"strings"

	"github.com/yoimem/git-yoimem/internal/inject"
	"github.com/yoimem/git-yoimem/record"
)

// Expansion is the result of expanding #slug references in a text.
type Expansion struct {
	Text     string   // the text, with the referenced records appended
	Expanded []string // slugs expanded, in order of first reference
	Refused  []string // slugs of records with user_invocable: false
	Unknown  []string // slugs that name no knowledge record
}

// Expand appends, after the text, the body of each knowledge record the
// text references as #slug (first reference order, once each), in an
// injected block (internal/inject: the body escaped, so that it cannot
// close the block). The text itself is left as it is. Records with
// user_invocable: false are not expanded. A referenced record over the
// size limit is an error (a *record.TooLargeError): the prompt would
// otherwise go on without it, unsaid.
func Expand(snap record.Snapshot, text string) (Expansion, error) {
	ex := Expansion{Text: text}
	seen := map[string]bool{}
	var b strings.Builder
	for _, r := range record.Refs([]byte(text)) {
		if seen[r.Slug] {
			continue
		}
		seen[r.Slug] = true
		path := record.PathFor(record.KindKnowledge, r.Slug)
		content, err := snap.Read(path)
		if tooLarge(err) {
			return Expansion{}, err
		}
		if err != nil {
			ex.Unknown = append(ex.Unknown, r.Slug)
			continue
		}
		rec, _, err := record.Decode(path, content)
		if err != nil {
			ex.Unknown = append(ex.Unknown, r.Slug)
			continue
		}
		if !rec.UserInvocable {
			ex.Refused = append(ex.Refused, r.Slug)
			continue
		}
		b.WriteString("\n\n")
		b.WriteString(inject.Block(inject.OpenKnowledge(r.Slug), string(rec.Body())))
		ex.Expanded = append(ex.Expanded, r.Slug)
	}
	if b.Len() > 0 {
		ex.Text = strings.TrimRight(text, "\n") + b.String() + "\n"
	}
	return ex, nil
}
