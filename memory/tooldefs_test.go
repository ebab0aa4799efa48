package memory

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/lint"
)

// TestToolDefs: every tool has a name, a description and object schemas
// whose properties are the input's JSON names, snake_case, with the
// required ones required; the write tools come last and say so.
func TestToolDefs(t *testing.T) {
	want := []string{ToolKnowledgeSearch, ToolMemorySearch, ToolMemoryRead, ToolMemoryWrite, ToolMemoryEdit, ToolMemoryDelete}
	defs := ToolDefs()
	if len(defs) != len(want) {
		t.Fatalf("%d tools; want %d", len(defs), len(want))
	}
	required := map[string][]string{
		ToolKnowledgeSearch: nil, ToolMemorySearch: nil, ToolMemoryRead: {"path"},
		ToolMemoryWrite: {"path", "content"}, ToolMemoryEdit: {"path", "old", "new"}, ToolMemoryDelete: {"path"},
	}
	for i, d := range defs {
		if d.Name != want[i] || d.Description == "" || d.Writes != (i >= 3) {
			t.Errorf("tool %d: %+v", i, d)
		}
		if got, ok := ToolDefOf(d.Name); !ok || got.Name != d.Name {
			t.Errorf("ToolDefOf(%s) = %+v, %v", d.Name, got, ok)
		}
		in, err := d.InputSchema()
		if err != nil {
			t.Fatalf("%s: %v", d.Name, err)
		}
		if in.Type != "object" || len(in.Properties) == 0 {
			t.Errorf("%s: input schema %+v", d.Name, in)
		}
		for name, p := range in.Properties {
			if strings.ToLower(name) != name || p.Description == "" {
				t.Errorf("%s: property %q (%q) is not snake_case or has no description", d.Name, name, p.Description)
			}
		}
		if strings.Join(in.Required, ",") != strings.Join(required[d.Name], ",") {
			t.Errorf("%s: required %v; want %v", d.Name, in.Required, required[d.Name])
		}
		if _, err := d.OutputSchema(); err != nil {
			t.Errorf("%s: output schema: %v", d.Name, err)
		}
	}
	if _, ok := ToolDefOf("memory_drop"); ok {
		t.Error("ToolDefOf found a tool that does not exist")
	}
	// ToolDefs is a fresh slice: a caller changing it changes no other's
	defs[0].Name = "changed"
	if ToolDefs()[0].Name != ToolKnowledgeSearch {
		t.Error("ToolDefs shares its slice")
	}
}

func TestFindings(t *testing.T) {
	if b, _ := json.Marshal(WriteOutput{Warnings: Findings(nil)}); string(b) != `{"warnings":[]}` {
		t.Errorf("no findings: %s", b)
	}
	got := Findings([]lint.Finding{{Path: "knowledge/x.md", Line: 2, Col: 1, Severity: lint.Warning, Rule: "r", Message: "m"}})
	if len(got) != 1 || got[0] != (Finding{Path: ".yoi/knowledge/x.md", Line: 2, Col: 1, Severity: "warning", Rule: "r", Message: "m"}) {
		t.Errorf("Findings = %+v", got)
	}
}
