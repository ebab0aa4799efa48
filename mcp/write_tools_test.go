package mcp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
)

// TestWriteToolsVersions: memory_read gives the blob id; memory_write
// creates but replaces only with overwrite or the expected blob; edit and
// delete take expect too; paths may begin with .yoi/.
func TestWriteToolsVersions(t *testing.T) {
	cs, store := connect(t, true)
	const p = "knowledge/retry-policy.md"
	res, _ := call(t, cs, "memory_read", map[string]any{"path": ".yoi/" + p})
	var read memory.ReadOutput
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &read); err != nil || res.IsError || read.Content != rec || read.Blob != record.BlobID([]byte(rec)) {
		t.Fatalf("memory_read: %s (%v)", b, err)
	}
	changed := strings.Replace(rec, "Retry twice.", "Retry three times.", 1)
	steps := []struct {
		tool string
		args map[string]any
		fail string // a tool error holding this; "" for success
	}{
		{"memory_write", map[string]any{"path": p, "content": changed}, "error slug-exists: it exists; change it with edit, or read it and write it whole with overwrite"},
		{"memory_write", map[string]any{"path": p, "content": changed, "expect": strings.Repeat("0", 40)}, "write .yoi/knowledge/retry-policy.md: changed since you read it"},
		{"memory_write", map[string]any{"path": ".yoi/" + p, "content": changed, "expect": read.Blob}, ""},
		{"memory_edit", map[string]any{"path": p, "old": "three", "new": "four", "expect": read.Blob}, "edit .yoi/knowledge/retry-policy.md: changed since you read it"},
		{"memory_edit", map[string]any{"path": p, "old": "three", "new": "four", "expect": record.BlobID([]byte(changed))}, ""},
		{"memory_write", map[string]any{"path": p, "content": rec, "overwrite": true}, ""},
		{"memory_write", map[string]any{"path": "knowledge/new.md", "content": rec}, ""},
		{"memory_delete", map[string]any{"path": "knowledge/new.md", "expect": read.Blob}, ""},
		{"memory_delete", map[string]any{"path": p, "expect": strings.Repeat("1", 40)}, "delete .yoi/knowledge/retry-policy.md: changed since you read it"},
		{"memory_write", map[string]any{"path": "memory/summary.md", "content": "---\nupdated_at: 2026-01-05T09:30:00Z\n---\n# S\n"}, ""},
		{"memory_delete", map[string]any{"path": ".yoi/memory/summary.md"}, "the summary is never deleted"},
	}
	for i, s := range steps {
		res, text := call(t, cs, s.tool, s.args)
		switch {
		case s.fail == "" && res.IsError:
			t.Fatalf("step %d %s: %s", i, s.tool, text)
		case s.fail != "" && (!res.IsError || !strings.Contains(text, s.fail)):
			t.Fatalf("step %d %s: error %v %q, want %q", i, s.tool, res.IsError, text, s.fail)
		}
	}
	if got := string(store.Files[p]); got != rec {
		t.Errorf("%s holds %q", p, got)
	}
	if _, ok := store.Files["knowledge/new.md"]; ok {
		t.Error("knowledge/new.md not deleted")
	}
	if _, ok := store.Files["memory/summary.md"]; !ok {
		t.Error("the summary deleted")
	}
}
