package recmerge

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/yoimem/git-yoimem/record"
	"go.yaml.in/yaml/v3"
)

// merger merges the frontmatter of ours and theirs into result, a copy of
// ours edited key by key.
type merger struct {
	kind                   record.Kind
	base, ours, theirs     *record.Document // base is nil when both sides added the file
	result                 *record.Document
	oursLater, theirsLater bool // which side's updated_at is later
	// conflicts are fields both sides set to different values that no rule
	// decides (replaced_by): reported in the body, between markers.
	conflicts []fieldConflict
}

// fieldConflict is a key both sides changed differently; the frontmatter
// holds the later side's value.
type fieldConflict struct {
	key          string
	ours, theirs *yaml.Node
}

func (m *merger) get(d *record.Document, key string) *yaml.Node {
	if d == nil {
		return nil
	}
	return d.Get(key)
}

// fields merges every key of either side, ours' keys first in their order.
func (m *merger) fields() error {
	res, err := record.Parse(m.ours.Bytes())
	if err != nil {
		return err
	}
	m.result = res
	ot, oOK := timeOf(m.ours.Get(record.KeyUpdatedAt))
	tt, tOK := timeOf(m.theirs.Get(record.KeyUpdatedAt))
	m.oursLater = oOK && (!tOK || ot.After(tt))
	m.theirsLater = tOK && (!oOK || tt.After(ot))
	keys := m.ours.Keys()
	seen := map[string]bool{}
	for _, k := range keys {
		seen[k] = true
	}
	for _, k := range m.theirs.Keys() {
		if !seen[k] {
			keys = append(keys, k)
		}
	}
	for _, k := range keys {
		if err := m.field(k); err != nil {
			return fmt.Errorf("field %s: %w", k, err)
		}
	}
	return nil
}

// field merges one key and writes the outcome into result.
func (m *merger) field(key string) error {
	b, o, t := m.get(m.base, key), m.ours.Get(key), m.theirs.Get(key)
	var v *yaml.Node
	switch key {
	case record.KeySources:
		v = union(o, t)
	case record.KeyUpdatedAt:
		v = pickTime(o, t, func(a, b time.Time) bool { return a.After(b) })
	case record.KeyCreatedAt:
		v = pickTime(o, t, func(a, b time.Time) bool { return a.Before(b) })
	case record.KeyStatus:
		v = strongerStatus(o, t)
	case record.KeyLastSources:
		v = m.later(b, o, t)
	case record.KeyReplacedBy:
		v = m.threeWay(b, o, t)
		if v == nil {
			// The status merge keeps replaced when either side has it,
			// so the record that replaces it is kept too.
			v = o
			if v == nil {
				v = t
			}
		}
		if o != nil && t != nil && !same(o, t) && !same(b, o) && !same(b, t) {
			m.conflicts = append(m.conflicts, fieldConflict{key: key, ours: o, theirs: t})
		}
	default:
		v = m.threeWay(b, o, t)
	}
	if v == nil {
		_, err := m.result.Delete(key)
		return err
	}
	_, err := m.result.Set(key, v, record.Order(m.kind))
	return err
}

// threeWay takes the side that changed the value from base; when both
// changed it differently, the side updated later (ours on a tie) wins, so
// the YAML never needs conflict markers. nil means the key is absent.
func (m *merger) threeWay(b, o, t *yaml.Node) *yaml.Node {
	switch {
	case same(o, t), same(b, t):
		return o
	case same(b, o):
		return t
	case o == nil && t != nil:
		// One side removed the key, the other changed it: the change is
		// kept (nothing is lost).
		return t
	case t == nil:
		return o
	}
	return m.later(b, o, t)
}

// later returns the value of the side whose updated_at is later; on a tie
// it falls back to three-way, and then to ours.
func (m *merger) later(b, o, t *yaml.Node) *yaml.Node {
	switch {
	case m.theirsLater:
		if t == nil {
			return o
		}
		return t
	case m.oursLater:
		if o == nil {
			return t
		}
		return o
	case same(b, o) && t != nil:
		return t
	case o == nil:
		return t
	}
	return o
}

// union is a sequence of ours' items then theirs' items that ours lacks,
// each once; a side that is not a sequence gives way to the other.
func union(o, t *yaml.Node) *yaml.Node {
	switch {
	case t == nil || t.Kind != yaml.SequenceNode:
		if o == nil {
			return t
		}
		return o
	case o == nil || o.Kind != yaml.SequenceNode:
		return t
	}
	out := *o
	out.Content = nil
	seen := map[string]bool{}
	for _, n := range append(append([]*yaml.Node(nil), o.Content...), t.Content...) {
		k := canonical(n)
		if seen[k] {
			continue
		}
		seen[k] = true
		out.Content = append(out.Content, n)
	}
	if len(out.Content) > 0 {
		out.Style &^= yaml.FlowStyle
		if o.Style&yaml.FlowStyle != 0 && len(o.Content) > 0 {
			out.Style |= yaml.FlowStyle
		}
	}
	return &out
}

// pickTime returns the side whose timestamp wins by better; a side that
// is not a timestamp gives way to one that is.
func pickTime(o, t *yaml.Node, better func(a, b time.Time) bool) *yaml.Node {
	ot, oOK := timeOf(o)
	tt, tOK := timeOf(t)
	switch {
	case !oOK && tOK, oOK && tOK && better(tt, ot):
		return t
	case o == nil:
		return t
	}
	return o
}

// statusRank orders decision statuses: replaced over resolved over open.
var statusRank = map[string]int{string(record.StatusOpen): 1, string(record.StatusResolved): 2, string(record.StatusReplaced): 3}

func strongerStatus(o, t *yaml.Node) *yaml.Node {
	if o == nil || (t != nil && statusRank[t.Value] > statusRank[o.Value]) {
		return t
	}
	return o
}

func timeOf(n *yaml.Node) (time.Time, bool) {
	if n == nil || n.Kind != yaml.ScalarNode {
		return time.Time{}, false
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02"} {
		if t, err := time.Parse(layout, n.Value); err == nil {
			return t, true
		}
	}
	return time.Time{}, false
}

// same reports whether two values are equal as data (nil: absent).
func same(a, b *yaml.Node) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	return canonical(a) == canonical(b)
}

// canonical is a value's data, independent of its YAML style.
func canonical(n *yaml.Node) string {
	var v any
	if err := n.Decode(&v); err != nil {
		return "!" + n.Tag + ":" + n.Value
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%T:%v", v, v)
	}
	return string(b)
}
