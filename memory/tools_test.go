package memory

import (
	"errors"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
)

func decision(status, body string) string {
	return "---\ncreated_at: " + ts + "\nupdated_at: " + ts + "\nstatus: " + status + "\nsources: []\n---\n" + body
}

func newTools() (*Tools, *MapStore) {
	store := &MapStore{Files: map[string][]byte{
		"knowledge/retry-policy.md":  []byte(knowledge("rule", "d", false, "Retry twice.\n")),
		"knowledge/locked.md":        []byte(knowledge("rule", "d", false, "Do not touch.\n")),
		"memory/decisions/use-db.md": []byte(decision("open", "Which database?\n")),
		"workflow/deploy.md":         []byte("steps"),
	}, ReadOnly: map[string]bool{"knowledge/locked.md": true}}
	return &Tools{Store: store, Lint: lint.DefaultOptions()}, store
}

func refusedBy(err error, rule string) bool {
	var r *Refusal
	if !errors.As(err, &r) {
		return false
	}
	for _, f := range r.Findings {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

func TestToolsWrite(t *testing.T) {
	tools, store := newTools()
	if _, err := tools.Write("knowledge/new-fact.md", []byte(knowledge("fact", "d", false, "x\n")), true); err != nil {
		t.Fatal(err)
	}
	if string(store.Files["knowledge/new-fact.md"]) == "" {
		t.Fatal("not written")
	}
	tests := []struct {
		name, path, content string
		create              bool
		rule                string
		err                 error
	}{
		{"create existing slug", "knowledge/retry-policy.md", knowledge("rule", "d", false, "x"), true, lint.RuleSlugExists, nil},
		{"bad record", "knowledge/bad.md", "no frontmatter", true, lint.RuleFrontmatter, nil},
		{"workflow", "workflow/deploy.md", "new steps", false, lint.RuleWorkflowWrite, nil},
		{"config", "config", "[yoimem]", false, lint.RuleWriteArea, nil},
		{"path escape", "../outside.md", "x", true, lint.RulePathUnsafe, nil},
		{"broken reference", "knowledge/refs.md", knowledge("rule", "d", false, "see #nope"), true, lint.RuleKnowledgeRef, nil},
		{"read-only file", "knowledge/locked.md", knowledge("rule", "d", false, "changed"), false, "", ErrReadOnly},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			before := len(store.Files)
			_, err := tools.Write(tt.path, []byte(tt.content), tt.create)
			switch {
			case tt.err != nil && !errors.Is(err, tt.err):
				t.Fatalf("err = %v, want %v", err, tt.err)
			case tt.rule != "" && !refusedBy(err, tt.rule):
				t.Fatalf("err = %v, want a refusal by %s", err, tt.rule)
			}
			if len(store.Files) != before {
				t.Fatal("a refused write changed the store")
			}
		})
	}
}

func TestToolsEditAndDelete(t *testing.T) {
	tools, store := newTools()
	if _, err := tools.Edit("knowledge/retry-policy.md", "Retry twice.", "Retry three times."); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(store.Files["knowledge/retry-policy.md"]), "Retry three times.") {
		t.Fatal("edit not applied")
	}
	if _, err := tools.Edit("knowledge/retry-policy.md", "not there", "x"); err == nil || !strings.Contains(err.Error(), "does not occur") {
		t.Fatalf("err = %v", err)
	}
	if _, err := tools.Edit("knowledge/retry-policy.md", "e", "x"); err == nil || !strings.Contains(err.Error(), "occurs") {
		t.Fatalf("err = %v", err)
	}
	if _, err := tools.Edit("knowledge/retry-policy.md", "kind: rule", "kind: [rule"); !refusedBy(err, lint.RuleYAMLSyntax) {
		t.Fatalf("err = %v, want a yaml-syntax refusal", err)
	}
	if _, err := tools.Delete("memory/decisions/use-db.md"); err == nil || !strings.Contains(err.Error(), "status: replaced") {
		t.Fatalf("err = %v", err)
	}
	if _, err := tools.Delete("knowledge/locked.md"); !errors.Is(err, ErrReadOnly) {
		t.Fatalf("err = %v", err)
	}
	if _, err := tools.Delete("knowledge/retry-policy.md"); err != nil {
		t.Fatal(err)
	}
	if _, ok := store.Files["knowledge/retry-policy.md"]; ok {
		t.Fatal("not deleted")
	}
	if _, err := tools.Read("knowledge/retry-policy.md"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("err = %v", err)
	}
	if _, err := tools.Read("workflow/deploy.md"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("read outside the record areas: %v", err)
	}
	var snap record.Snapshot
	snap, _ = store.Snapshot()
	if len(snap.Entries) != 3 {
		t.Fatalf("entries %v", snap.Entries)
	}
}
