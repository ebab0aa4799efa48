package memory

import (
	"bytes"
	"io"
	"strings"

	"github.com/yoimem/git-yoimem/internal/inject"
	"github.com/yoimem/git-yoimem/record"
)

// Expansion is the result of expanding #slug references in a text: what
// to append to it. It does not hold the text, which may be long.
type Expansion struct {
	Blocks   string   // the referenced records' blocks, each after a blank line
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
func Expand(snap record.Snapshot, text []byte) (Expansion, error) {
	var ex Expansion
	seen := map[string]bool{}
	var b strings.Builder
	for _, r := range record.Refs(text) {
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
	ex.Blocks = b.String()
	return ex, nil
}

// Write writes text with the blocks appended: the text unchanged when
// there are none, else without its trailing newlines, the blocks, and one
// newline.
func (ex Expansion) Write(w io.Writer, text []byte) error {
	if ex.Blocks == "" {
		_, err := w.Write(text)
		return err
	}
	if _, err := w.Write(bytes.TrimRight(text, "\n")); err != nil {
		return err
	}
	_, err := io.WriteString(w, ex.Blocks+"\n")
	return err
}

// Text is text with the blocks appended, as Write writes it.
func (ex Expansion) Text(text []byte) string {
	var b strings.Builder
	_ = ex.Write(&b, text) // a strings.Builder does not fail
	return b.String()
}
