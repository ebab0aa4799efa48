package llm

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

// jsonOf marshals v for a fake response body.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// env is an Options.Getenv over a map.
func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// wantKind fails unless err is an *Error of kind.
func wantKind(t *testing.T, err, kind error) *Error {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("error %v, want kind %v", err, kind)
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T is not *llm.Error", err)
	}
	return e
}

// userRequest is a one-message request.
func userRequest(text string) Request {
	return Request{System: "You extract memories.", Messages: []Message{{Role: RoleUser, Text: text}}}
}

// memorySchemaJSON is the structured reply used by the tests.
const memorySchemaJSON = `{"type":"object","properties":{"memories":{"type":"array","items":{"type":"string"}}},"required":["memories"],"additionalProperties":false}`

func memorySchema() *Schema {
	return &Schema{Name: "memories", JSON: json.RawMessage(memorySchemaJSON)}
}

// recallTool is a tool offered in the tests.
func recallTool() Tool {
	return Tool{Name: "recall", Description: "Search memory", InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`)}
}

// quick is a context that fails a hanging test instead of hanging it.
func quick(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func contains(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
