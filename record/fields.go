package record

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Frontmatter keys (docs/record-format.md).
const (
	KeyCreatedAt       = "created_at"
	KeyUpdatedAt       = "updated_at"
	KeyStatus          = "status"
	KeyReplacedBy      = "replaced_by"
	KeySources         = "sources"
	KeyKind            = "kind"
	KeyDescription     = "description"
	KeyModelInvokation = "model_invokation"
	// KeyModelInvocation is read as an alias of KeyModelInvokation so that
	// records exported to SKILL.md-style tools stay interoperable.
	KeyModelInvocation = "model_invocation"
	KeyUserInvocable   = "user_invocable"
	KeyLastSources     = "last_sources"
	KeyLastRewritten   = "last_rewritten_from_range"
)

// Order returns the canonical key order of a kind, used when a key is added.
func Order(kind Kind) []string {
	switch kind {
	case KindSummary:
		return []string{KeyCreatedAt, KeyUpdatedAt, KeyLastRewritten}
	case KindDecision:
		return []string{KeyCreatedAt, KeyUpdatedAt, KeyStatus, KeyReplacedBy, KeySources}
	case KindRequest:
		return []string{KeyCreatedAt, KeyUpdatedAt, KeySources}
	case KindKnowledge:
		return []string{KeyKind, KeyDescription, KeyModelInvokation, KeyUserInvocable, KeyCreatedAt, KeyUpdatedAt, KeyLastSources}
	}
	return nil
}

// Required returns the keys the linter requires for a kind
// (docs/record-format.md, docs/lint-rules.md).
func Required(kind Kind) []string {
	switch kind {
	case KindSummary:
		return []string{KeyUpdatedAt}
	case KindDecision:
		// The plan lists created_at, updated_at and sources; status is an
		// enum when present (a decision without one reads as open).
		return []string{KeyCreatedAt, KeyUpdatedAt, KeySources}
	case KindRequest:
		return []string{KeyCreatedAt, KeyUpdatedAt, KeySources}
	case KindKnowledge:
		return []string{KeyKind, KeyDescription, KeyModelInvokation, KeyUserInvocable, KeyLastSources, KeyCreatedAt, KeyUpdatedAt}
	}
	return nil
}

// Source points at the session-log entries a record came from.
type Source struct {
	SessionID string `json:"session_id"`
	Range     [2]int `json:"range"`
}

// String renders a source as session:start-end.
func (s Source) String() string {
	return fmt.Sprintf("%s:%d-%d", s.SessionID, s.Range[0], s.Range[1])
}

// TimeLayout is how timestamps are written: RFC 3339 in UTC.
const TimeLayout = "2006-01-02T15:04:05Z"

// StringNode returns a YAML string scalar, quoted only when it must be.
func StringNode(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

// BoolNode returns a YAML boolean.
func BoolNode(b bool) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
}

// TimeNode returns a YAML timestamp in UTC, second precision.
func TimeNode(t time.Time) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!timestamp", Value: t.UTC().Format(TimeLayout)}
}

func intNode(i int) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!int", Value: strconv.Itoa(i)}
}

// SourceNode renders one source as a flow mapping: {session_id: x, range: [a, b]}.
func SourceNode(s Source) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Style: yaml.FlowStyle, Content: []*yaml.Node{
		StringNode("session_id"), StringNode(s.SessionID),
		StringNode("range"), {Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Content: []*yaml.Node{intNode(s.Range[0]), intNode(s.Range[1])}},
	}}
}

// SourcesNode renders a block sequence with one flow mapping per line, so
// adding a source adds one line to the diff.
func SourcesNode(srcs []Source) *yaml.Node {
	n := &yaml.Node{Kind: yaml.SequenceNode}
	if len(srcs) == 0 {
		n.Style = yaml.FlowStyle
	}
	for _, s := range srcs {
		n.Content = append(n.Content, SourceNode(s))
	}
	return n
}

// FieldError is a frontmatter value that breaks the schema. Rule is the
// linter rule id.
type FieldError struct {
	Rule      string
	Key       string
	Line, Col int
	Msg       string
}

// Rule ids of field errors.
const (
	RuleRequired      = "required-field"
	RuleFieldType     = "field-type"
	RuleStatusEnum    = "status-enum"
	RuleReplacedByReq = "replaced-by-required"
	RuleAliasConflict = "field-alias-conflict"
)

type decoder struct {
	doc  *Document
	errs []FieldError
	// sourceBuf, when not nil, is memory a Decoder lends for the one list
	// of sources a record has; sources leaves the list's memory there.
	sourceBuf []Source
}

func (dc *decoder) fail(rule, key string, n *yaml.Node, format string, args ...any) {
	line, col := dc.doc.Pos(n)
	if n == nil {
		line, col = dc.doc.KeyPos(key)
	}
	dc.errs = append(dc.errs, FieldError{Rule: rule, Key: key, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)})
}

func isNull(n *yaml.Node) bool {
	return n == nil || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

func (dc *decoder) str(key string, n *yaml.Node) (string, bool) {
	if isNull(n) {
		return "", false
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!str" {
		dc.fail(RuleFieldType, key, n, "%s must be a string; quote the value", key)
		return "", false
	}
	return n.Value, true
}

func (dc *decoder) boolean(key string, n *yaml.Node) (bool, bool) {
	if isNull(n) {
		return false, false
	}
	if n.Kind != yaml.ScalarNode || n.ShortTag() != "!!bool" {
		dc.fail(RuleFieldType, key, n, "%s must be true or false, not %s", key, describe(n))
		return false, false
	}
	b, err := strconv.ParseBool(strings.ToLower(n.Value))
	if err != nil {
		dc.fail(RuleFieldType, key, n, "%s must be true or false, not %q", key, n.Value)
		return false, false
	}
	return b, true
}

func (dc *decoder) timestamp(key string, n *yaml.Node) (time.Time, bool) {
	if isNull(n) {
		return time.Time{}, false
	}
	if n.Kind != yaml.ScalarNode || (n.ShortTag() != "!!timestamp" && n.ShortTag() != "!!str") {
		dc.fail(RuleFieldType, key, n, "%s must be an RFC 3339 time in UTC like 2026-01-02T15:04:05Z, not %s", key, describe(n))
		return time.Time{}, false
	}
	t, err := time.Parse(time.RFC3339, n.Value)
	if err != nil {
		dc.fail(RuleFieldType, key, n, "%s must be an RFC 3339 time in UTC like 2026-01-02T15:04:05Z, not %q", key, n.Value)
		return time.Time{}, false
	}
	if _, off := t.Zone(); off != 0 {
		dc.fail(RuleFieldType, key, n, "%s must be in UTC (end in Z), not %q", key, n.Value)
		return time.Time{}, false
	}
	return t, true
}

func (dc *decoder) sources(key string, n *yaml.Node) ([]Source, bool) {
	if isNull(n) {
		return nil, false
	}
	if n.Kind != yaml.SequenceNode {
		dc.fail(RuleFieldType, key, n, "%s must be a list of {session_id, range: [start, end]}, not %s", key, describe(n))
		return nil, false
	}
	var out []Source
	if dc.sourceBuf != nil {
		out = slices.Grow(dc.sourceBuf[:0], len(n.Content))
		defer func() { dc.sourceBuf = out[:0] }()
	} else {
		out = make([]Source, 0, len(n.Content))
	}
	for i, item := range n.Content {
		if s, ok := dc.source(key, i, item); ok {
			out = append(out, s)
		}
	}
	return out, true
}

// sourceName is how messages name a source: key, or key[i] for the i-th
// of a list (i >= 0). Only a message builds it.
func sourceName(key string, i int) string {
	if i < 0 {
		return key
	}
	return fmt.Sprintf("%s[%d]", key, i)
}

// source reads the source under key (the i-th of its list when i >= 0).
func (dc *decoder) source(key string, i int, n *yaml.Node) (Source, bool) {
	if n.Kind != yaml.MappingNode {
		name := sourceName(key, i)
		dc.fail(RuleFieldType, name, n, "%s must be a mapping {session_id, range: [start, end]}, not %s", name, describe(n))
		return Source{}, false
	}
	var s Source
	var haveID, haveRange bool
	before := len(dc.errs)
	for j := 0; j+1 < len(n.Content); j += 2 {
		k, v := n.Content[j].Value, n.Content[j+1]
		switch k {
		case "session_id":
			if v.Kind != yaml.ScalarNode || v.ShortTag() == "!!null" || v.Value == "" {
				name := sourceName(key, i)
				dc.fail(RuleFieldType, name, v, "%s.session_id must be a non-empty string", name)
				continue
			}
			s.SessionID, haveID = v.Value, true
		case "range":
			s.Range, haveRange = dc.rangeValue(key, i, v)
		}
	}
	if len(dc.errs) > before {
		return Source{}, false
	}
	if !haveID {
		name := sourceName(key, i)
		dc.fail(RuleRequired, name, n, "%s needs session_id", name)
		return Source{}, false
	}
	if !haveRange {
		name := sourceName(key, i)
		dc.fail(RuleRequired, name, n, "%s needs range: [start, end]", name)
		return Source{}, false
	}
	return s, true
}

// rangeValue reads the range of the source under key (see source).
func (dc *decoder) rangeValue(key string, i int, n *yaml.Node) ([2]int, bool) {
	bad := func() ([2]int, bool) {
		name := sourceName(key, i) + ".range"
		dc.fail(RuleFieldType, name, n, "%s must be [start, end] with whole numbers 0 <= start <= end", name)
		return [2]int{}, false
	}
	if n.Kind != yaml.SequenceNode || len(n.Content) != 2 {
		return bad()
	}
	var r [2]int
	for k, c := range n.Content {
		if c.Kind != yaml.ScalarNode || c.ShortTag() != "!!int" {
			return bad()
		}
		v, err := strconv.ParseInt(c.Value, 0, 64)
		if err != nil || v < 0 || v > 1<<31 {
			return bad()
		}
		r[k] = int(v)
	}
	if r[0] > r[1] {
		return bad()
	}
	return r, true
}

func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.SequenceNode:
		return "a list"
	case yaml.MappingNode:
		return "a mapping"
	}
	switch n.ShortTag() {
	case "!!int", "!!float":
		return "the number " + n.Value
	case "!!bool":
		return "the boolean " + n.Value
	case "!!str":
		return fmt.Sprintf("the string %q", n.Value)
	case "!!timestamp":
		return "the time " + n.Value
	}
	return fmt.Sprintf("%q", n.Value)
}
