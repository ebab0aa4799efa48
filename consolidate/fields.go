package consolidate

import (
	"bytes"
	"fmt"

	"github.com/yoimem/git-yoimem/record"
	"go.yaml.in/yaml/v3"
)

// field is one frontmatter key the session sets.
type field struct {
	key   string
	value *yaml.Node
}

// setFields sets fields in content, each changing only its own lines.
func setFields(content []byte, kind record.Kind, fields ...field) ([]byte, error) {
	doc, err := record.Parse(content)
	if err != nil {
		return nil, err
	}
	for _, f := range fields {
		if _, err := doc.Set(f.key, f.value, record.Order(kind)); err != nil {
			return nil, fmt.Errorf("set %s: %w", f.key, err)
		}
	}
	return doc.Bytes(), nil
}

// finalize sets the fields the session owns on content, the new content of
// rel: its sources (a decision's or request's accumulated from the
// existing record and srcs, the newest c.KeepSources when a trim sets it;
// knowledge's last_sources, srcs when there are any), the source keys of
// other kinds (as the existing record has them, else none: see
// keepForeignSources), created_at (the existing record's, else now) and
// updated_at (now, unless nothing else changed: the trim is decided
// first, so a trim that only drops sources dates the record too).
func (s *Session) finalize(c Change, rel string, content []byte, existing *record.Record, srcs []record.Source) ([]byte, error) {
	if len(bytes.TrimSpace(content)) == 0 {
		return nil, s.refuse(c, "give the whole content of %s: frontmatter and body", record.DisplayPath(rel))
	}
	if _, err := record.Parse(content); err != nil {
		return nil, s.refuse(c, "the content of %s does not parse: %v", record.DisplayPath(rel), err)
	}
	kind := record.Classify(rel).Kind
	var fields []field
	created, updated := s.in.Now, s.in.Now
	if existing != nil {
		if !existing.CreatedAt.IsZero() {
			created = existing.CreatedAt
		}
		updated = existing.UpdatedAt
	}
	if kind != record.KindSummary || (existing != nil && !existing.CreatedAt.IsZero()) || existing == nil {
		fields = append(fields, field{record.KeyCreatedAt, record.TimeNode(created)})
	}
	switch kind {
	case record.KindDecision, record.KindRequest:
		var all []record.Source
		if existing != nil {
			all = append(all, existing.Sources...)
		}
		all = appendSource(all, srcs...)
		if c.KeepSources > 0 && len(all) > c.KeepSources {
			all = all[len(all)-c.KeepSources:]
		}
		fields = append(fields, field{record.KeySources, record.SourcesNode(all)})
	case record.KindKnowledge:
		last := srcs
		if len(last) == 0 && existing != nil {
			last = existing.LastSources
		}
		fields = append(fields, field{record.KeyLastSources, record.SourcesNode(last)})
	}
	fields = append(fields, field{record.KeyUpdatedAt, record.TimeNode(updated)})
	out, err := setFields(content, kind, fields...)
	if err != nil {
		return nil, s.refuse(c, "%s: %v", record.DisplayPath(rel), err)
	}
	if out, err = keepForeignSources(out, kind, existing); err != nil {
		return nil, s.refuse(c, "%s: %v", record.DisplayPath(rel), err)
	}
	if existing != nil && !bytes.Equal(out, existing.Doc.Bytes()) && !updated.Equal(s.in.Now) {
		if out, err = setFields(out, kind, field{record.KeyUpdatedAt, record.TimeNode(s.in.Now)}); err != nil {
			return nil, s.refuse(c, "%s: %v", record.DisplayPath(rel), err)
		}
	}
	return out, nil
}

// sourceKeys are the frontmatter keys that say where a record came from
// (docs/record-format.md, "Sources and last_sources"): code attaches them,
// never an engine.
var sourceKeys = []string{record.KeySources, record.KeyLastSources, record.KeyLastRewritten}

// keepForeignSources gives the source keys finalize does not set for kind
// (last_sources on a decision, sources on knowledge, the summary's
// last_rewritten_from_range, …) the value the existing record has, and
// removes those it does not have: a source an engine typed into the
// content never lands, under whatever key of the three.
func keepForeignSources(content []byte, kind record.Kind, existing *record.Record) ([]byte, error) {
	owned := map[record.Kind]string{record.KindDecision: record.KeySources, record.KindRequest: record.KeySources, record.KindKnowledge: record.KeyLastSources}[kind]
	doc, err := record.Parse(content)
	if err != nil {
		return nil, err
	}
	for _, key := range sourceKeys {
		if key == owned {
			continue
		}
		var was *yaml.Node
		if existing != nil && existing.Doc != nil {
			was = existing.Doc.Get(key)
		}
		if was != nil {
			_, err = doc.Set(key, was, record.Order(kind))
		} else {
			_, err = doc.Delete(key)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", key, err)
		}
	}
	return doc.Bytes(), nil
}
