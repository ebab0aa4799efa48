package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
)

// validator checks structured replies against a request's schema.
type validator struct {
	resolved *jsonschema.Resolved
}

// compileSchema resolves s.
func compileSchema(s *Schema) (*validator, error) {
	if s.Name == "" {
		return nil, fmt.Errorf("schema: empty name")
	}
	var js jsonschema.Schema
	if err := json.Unmarshal(s.JSON, &js); err != nil {
		return nil, fmt.Errorf("schema %s: %w", s.Name, err)
	}
	r, err := js.Resolve(nil)
	if err != nil {
		return nil, fmt.Errorf("schema %s: %w", s.Name, err)
	}
	return &validator{resolved: r}, nil
}

// check returns nil when raw is JSON matching the schema.
func (v *validator) check(raw []byte) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return fmt.Errorf("no JSON object in the reply")
	}
	var instance any
	if err := json.Unmarshal(raw, &instance); err != nil {
		return fmt.Errorf("not valid JSON: %w", err)
	}
	if err := v.resolved.Validate(instance); err != nil {
		return fmt.Errorf("does not match the schema: %w", err)
	}
	return nil
}

// ExtractObject finds the JSON object in a reply text: the whole text, a
// ```json fence, or the outermost {...}. It returns the best candidate even
// when that is not valid JSON, so that the validation error names it. A
// Backend uses it for Reply.Candidate when a model answers a schema in
// text.
func ExtractObject(text string) []byte {
	t := strings.TrimSpace(text)
	if json.Valid([]byte(t)) {
		return []byte(t)
	}
	if i := strings.Index(t, "```"); i >= 0 {
		rest := t[i+3:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[nl+1:]
		}
		if j := strings.Index(rest, "```"); j >= 0 {
			if inner := strings.TrimSpace(rest[:j]); json.Valid([]byte(inner)) {
				return []byte(inner)
			}
		}
	}
	start, end := strings.IndexByte(t, '{'), strings.LastIndexByte(t, '}')
	if start >= 0 && end > start {
		return []byte(t[start : end+1])
	}
	return []byte(t)
}
