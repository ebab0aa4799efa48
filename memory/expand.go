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
	// Slash is the slug of the /slug command the text begins with, when
	// it names a knowledge record file ("" otherwise: an agent CLI's own
	// command, left alone). It is first in whichever list it went to.
	Slash string
}

// Expand appends, after the text, the body of each knowledge record the
// text invokes (first reference order, once each), in an injected block
// (internal/inject: the body escaped, so that it cannot close the block):
// the record a leading /slug command names (SlashCommand), then those it
// references as #slug. The text itself is left as it is. Records with
// user_invocable: false are not expanded. A referenced record over the
// size limit is an error (a *record.TooLargeError): the prompt would
// otherwise go on without it, unsaid.
func Expand(snap record.Snapshot, text []byte) (Expansion, error) {
	var ex Expansion
	seen := map[string]bool{}
	var b strings.Builder
	slugs := make([]string, 0, 4)
	if slug, ok := SlashCommand(text); ok && isFile(snap, record.PathFor(record.KindKnowledge, slug)) {
		ex.Slash = slug
		slugs = append(slugs, slug)
	}
	for _, r := range record.Refs(text) {
		slugs = append(slugs, r.Slug)
	}
	for _, slug := range slugs {
		if seen[slug] {
			continue
		}
		seen[slug] = true
		if err := ex.add(&b, snap, slug); err != nil {
			return Expansion{}, err
		}
	}
	ex.Blocks = b.String()
	return ex, nil
}

// add expands one slug into b, or lists it as refused or unknown.
func (ex *Expansion) add(b *strings.Builder, snap record.Snapshot, slug string) error {
	path := record.PathFor(record.KindKnowledge, slug)
	content, err := snap.Read(path)
	if tooLarge(err) {
		return err
	}
	var rec *record.Record
	if err == nil {
		rec, _, err = record.Decode(path, content)
	}
	switch {
	case err != nil:
		ex.Unknown = append(ex.Unknown, slug)
	case !rec.UserInvocable:
		ex.Refused = append(ex.Refused, slug)
	default:
		b.WriteString("\n\n")
		b.WriteString(inject.Block(inject.OpenKnowledge(slug), string(rec.Body())))
		ex.Expanded = append(ex.Expanded, slug)
	}
	return nil
}

// SlashCommand is the slug of the /slug command a prompt begins with
// (after blank space): a slash, a valid slug, then blank space or the end
// ("/deploy-steps to staging"). ok is false for anything else: no slash
// first, a path ("/etc/hosts"), a name that is no slug. Whether a record
// has that slug is the caller's question: agent CLIs have slash commands
// of their own, which must pass untouched.
func SlashCommand(text []byte) (slug string, ok bool) {
	rest, found := bytes.CutPrefix(bytes.TrimLeft(text, " \t\r\n"), []byte("/"))
	if !found {
		return "", false
	}
	end := bytes.IndexAny(rest, " \t\r\n")
	if end < 0 {
		end = len(rest)
	}
	slug = string(rest[:end])
	if record.ValidateSlug(slug) != nil {
		return "", false
	}
	return slug, true
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

// isFile reports whether snap holds a regular file at path.
func isFile(snap record.Snapshot, path string) bool {
	e, ok := snap.Lookup(path)
	return ok && e.Mode == record.ModeRegular
}
