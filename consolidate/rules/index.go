package rules

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/yoimem/git-yoimem/record"
)

// known is what the engine knows of one decision or request: from the
// base, or a record this run adds.
type known struct {
	path       string
	kind       record.Kind
	slug       string
	key        string   // topicKey(slug)
	words      []string // keyWords(slug)
	title      string   // the first "# " heading, as written
	status     record.Status
	replacedBy string
	sources    []record.Source
	// content is the record's content, read when a draft of it is made
	// (the index keeps the bytes of no record: a memory holds thousands);
	// nil for a record this run adds.
	content []byte
	readErr error // reading content failed
	// tooBig is set, and content not read, for a record over the
	// linter's file-size limit: a change to it fails the run.
	tooBig *record.TooLargeError
}

// index holds the decisions and requests of the memory, by path and by
// topic key.
type index struct {
	byPath map[string]*known
	byKey  map[record.Kind]map[string][]*known
}

// loadIndex reads every decision and request of snap. A record that does
// not parse is indexed by its slug alone: a change to it is refused by
// the session, which names it. A record over maxBytes (0: no limit) is
// not read at all.
func loadIndex(ctx context.Context, snap record.Snapshot, maxBytes int64) (*index, error) {
	idx := &index{byPath: map[string]*known{}, byKey: map[record.Kind]map[string][]*known{
		record.KindDecision: {}, record.KindRequest: {},
	}}
	for i, e := range snap.Entries {
		if i%256 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		loc := record.Classify(e.Path)
		if e.Mode != record.ModeRegular || loc.SlugErr != nil || (loc.Kind != record.KindDecision && loc.Kind != record.KindRequest) {
			continue
		}
		k := &known{path: e.Path, kind: loc.Kind, slug: loc.Slug}
		if k.tooBig = tooBig(e, maxBytes); k.tooBig != nil {
			idx.add(k)
			continue
		}
		b, err := snap.Read(e.Path)
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", record.DisplayPath(e.Path), err)
		}
		if rec, _, err := record.Decode(e.Path, b); err == nil {
			k.title = title(rec.Body())
			k.status, k.replacedBy, k.sources = rec.Status, rec.ReplacedBy, rec.Sources
		}
		idx.add(k)
	}
	return idx, nil
}

func (idx *index) add(k *known) {
	k.key = topicKey(k.slug)
	k.words = keyWords(k.slug)
	idx.byPath[k.path] = k
	if k.key != "" {
		idx.byKey[k.kind][k.key] = append(idx.byKey[k.kind][k.key], k)
	}
}

// match finds the record of kind a slug names: the record of that slug,
// else the one whose slug is near-identical (same topicKey; the first by
// path when several are). nil when none is.
func (idx *index) match(kind record.Kind, slug string) *known {
	if k, ok := idx.byPath[record.PathFor(kind, slug)]; ok {
		return k
	}
	var best *known
	for _, k := range idx.byKey[kind][topicKey(slug)] {
		if best == nil || k.path < best.path {
			best = k
		}
	}
	return best
}

// live follows replaced_by from a decision to the record that replaces it
// at the end of the chain: the decision a new word on its topic belongs
// to. A chain that loops or leaves the decisions ends where it can.
func (idx *index) live(k *known) *known {
	seen := map[string]bool{k.path: true}
	for k.status == record.StatusReplaced && k.replacedBy != "" {
		next, ok := idx.byPath[record.PathFor(record.KindDecision, k.replacedBy)]
		if !ok || seen[next.path] {
			break
		}
		seen[next.path] = true
		k = next
	}
	return k
}

// title is the text of a body's first "# " heading line, a copy: the
// index keeps it, not the body.
func title(body []byte) string {
	for line := range bytes.Lines(body) {
		line = bytes.TrimRight(line, "\r\n")
		if t, ok := bytes.CutPrefix(line, []byte("# ")); ok {
			return string(bytes.TrimSpace(t))
		}
	}
	return ""
}

// foreignTitle reports whether a title has letters the slug cannot carry
// (a Japanese topic): such records are found by their title.
func foreignTitle(t string) bool {
	if utf8.RuneCountInString(t) < minTitleRunes {
		return false
	}
	_, dropped := asciiWords(strings.ToLower(t))
	return dropped
}

// tooBig is the error for an entry over the linter's file-size limit.
func tooBig(e record.Entry, maxBytes int64) *record.TooLargeError {
	if maxBytes <= 0 || e.Size <= maxBytes {
		return nil
	}
	return &record.TooLargeError{Path: e.Path, Size: e.Size, Limit: maxBytes, Setting: "yoimem.lint.maxFileBytes"}
}
