package mcp

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memory"
)

// TestToolOutputShapes: results print paths from the workspace root
// (".yoi/…"), list more matches past the limit, and report warnings with
// their severity as a word (the output schema must accept what the tool
// returns, or every write with a warning fails).
func TestToolOutputShapes(t *testing.T) {
	cs, store := connect(t, true)
	store.Files["knowledge/second-rule.md"] = []byte(strings.Replace(rec, "How to retry", "Second", 1))

	res, text := call(t, cs, "knowledge_search", map[string]any{"query": "", "kind": "rule"})
	if res.IsError {
		t.Fatalf("kind alone: %s", text)
	}
	var out memory.SearchOutput
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || len(out.Hits) != 2 || out.Hits[0].Path != ".yoi/knowledge/retry-policy.md" || out.More != 0 {
		t.Fatalf("kind alone: %s (%v)", b, err)
	}

	crlf := strings.ReplaceAll(strings.Replace(rec, "How to retry", "Ports", 1), "\n", "\r\n")
	res, text = call(t, cs, "memory_write", map[string]any{"path": "knowledge/ports.md", "content": crlf, "create": true})
	if res.IsError {
		t.Fatalf("a write with a warning failed: %s", text)
	}
	var w memory.WriteOutput
	b, _ = json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &w); err != nil || len(w.Warnings) == 0 {
		t.Fatalf("warnings: %s (%v)", b, err)
	}
	if f := w.Warnings[0]; f.Path != ".yoi/knowledge/ports.md" || f.Severity != "warning" || f.Rule != "line-endings" {
		t.Fatalf("warning %+v", f)
	}
}

// TestSearchMoreThanTheLimit: a listing past yoimem.search.maxResults says
// how many more matched.
func TestSearchMoreThanTheLimit(t *testing.T) {
	files := map[string][]byte{}
	for _, s := range []string{"a", "b", "c", "d"} {
		files["knowledge/"+s+".md"] = []byte(rec)
	}
	srv := NewServer(&memory.Tools{Store: &memory.MapStore{Files: files}, Lint: lint.DefaultOptions()}, Options{Search: memory.Options{MaxResults: 2}, Version: "test"})
	st, ct := sdk.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, text := call(t, cs, "knowledge_search", map[string]any{"query": "retry"})
	if res.IsError {
		t.Fatal(text)
	}
	var out memory.SearchOutput
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || len(out.Hits) != 2 || out.More != 2 {
		t.Fatalf("%s (%v)", b, err)
	}
}
