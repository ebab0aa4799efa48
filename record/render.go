package record

import (
	"bytes"
	"fmt"

	"go.yaml.in/yaml/v3"
)

// Render writes a new record file for r in its kind's canonical key order,
// with LF line endings, followed by body. It is for creating records; edits
// of existing files go through Document so their bytes are kept.
func Render(r *Record, body []byte) ([]byte, error) {
	m := &yaml.Node{Kind: yaml.MappingNode}
	add := func(key string, v *yaml.Node) { m.Content = append(m.Content, StringNode(key), v) }
	for _, key := range Order(r.Kind) {
		switch key {
		case KeyCreatedAt:
			if !r.CreatedAt.IsZero() || r.Kind != KindSummary {
				add(key, TimeNode(r.CreatedAt))
			}
		case KeyUpdatedAt:
			add(key, TimeNode(r.UpdatedAt))
		case KeyStatus:
			add(key, StringNode(string(r.Status)))
		case KeyReplacedBy:
			if r.ReplacedBy != "" {
				add(key, StringNode(r.ReplacedBy))
			}
		case KeySources:
			add(key, SourcesNode(r.Sources))
		case KeyKind:
			add(key, StringNode(r.KnowledgeKind))
		case KeyDescription:
			add(key, StringNode(r.Description))
		case KeyModelInvokation:
			add(key, BoolNode(r.ModelInvokation))
		case KeyUserInvocable:
			add(key, BoolNode(r.UserInvocable))
		case KeyLastSources:
			add(key, SourcesNode(r.LastSources))
		case KeyLastRewritten:
			if r.LastRewrittenFrom != nil {
				add(key, SourceNode(*r.LastRewrittenFrom))
			}
		}
	}
	var buf bytes.Buffer
	buf.WriteString("---\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("render %s record: %w", r.Kind, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("render %s record: %w", r.Kind, err)
	}
	buf.WriteString("---\n")
	buf.Write(body)
	return buf.Bytes(), nil
}
