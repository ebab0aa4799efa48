package record

import (
	"strings"
	"testing"
	"time"
)

const validDecision = "---\ncreated_at: 2026-01-05T09:30:00Z\nupdated_at: 2026-01-05T09:30:00Z\nstatus: open\nsources:\n  - {session_id: s1, range: [1, 2]}\n---\n# T\n"

func TestDecodeValid(t *testing.T) {
	r, errs, err := Decode("memory/decisions/use-sqlite.md", []byte(validDecision))
	if err != nil || len(errs) != 0 {
		t.Fatalf("err=%v errs=%v", err, errs)
	}
	if r.Kind != KindDecision || r.Slug != "use-sqlite" || r.Status != StatusOpen || len(r.Sources) != 1 || r.Sources[0].Range != [2]int{1, 2} {
		t.Fatalf("decoded %+v", r)
	}
	if !r.CreatedAt.Equal(time.Date(2026, 1, 5, 9, 30, 0, 0, time.UTC)) {
		t.Fatalf("created_at %v", r.CreatedAt)
	}
}

func TestDecodeFieldErrors(t *testing.T) {
	const k = "---\nkind: rule\ndescription: d\nmodel_invokation: false\nuser_invocable: true\ncreated_at: 2026-01-05T09:30:00Z\nupdated_at: 2026-01-05T09:30:00Z\nlast_sources: []\n---\n"
	tests := []struct {
		name, path, in string
		rule, key      string
		line           int
	}{
		{"missing sources", "memory/decisions/a.md", strings.Replace(validDecision, "sources:\n  - {session_id: s1, range: [1, 2]}\n", "", 1), RuleRequired, "sources", 1},
		{"status enum", "memory/decisions/a.md", strings.Replace(validDecision, "status: open", "status: done", 1), RuleStatusEnum, "status", 4},
		{"replaced without replaced_by", "memory/decisions/a.md", strings.Replace(validDecision, "status: open", "status: replaced", 1), RuleReplacedByReq, "status", 4},
		{"replaced_by without replaced", "memory/decisions/a.md", strings.Replace(validDecision, "status: open", "status: open\nreplaced_by: b", 1), RuleReplacedByReq, "replaced_by", 5},
		{"time not rfc3339", "memory/decisions/a.md", strings.Replace(validDecision, "created_at: 2026-01-05T09:30:00Z", "created_at: 2026-01-05", 1), RuleFieldType, "created_at", 2},
		{"time not utc", "memory/decisions/a.md", strings.Replace(validDecision, "created_at: 2026-01-05T09:30:00Z", "created_at: 2026-01-05T09:30:00+09:00", 1), RuleFieldType, "created_at", 2},
		{"sources not a list", "memory/requests/a.md", strings.Replace(strings.Replace(validDecision, "status: open\n", "", 1), "sources:\n  - {session_id: s1, range: [1, 2]}", "sources: s1", 1), RuleFieldType, "sources", 4},
		{"range reversed", "memory/requests/a.md", strings.Replace(validDecision, "[1, 2]", "[5, 2]", 1), RuleFieldType, "sources[0].range", 6},
		{"source without id", "memory/requests/a.md", strings.Replace(validDecision, "session_id: s1, ", "", 1), RuleRequired, "sources[0]", 6},
		{"bool as string", "knowledge/a.md", strings.Replace(k, "model_invokation: false", "model_invokation: \"no\"", 1), RuleFieldType, "model_invokation", 4},
		{"kind not string", "knowledge/a.md", strings.Replace(k, "kind: rule", "kind: 42", 1), RuleFieldType, "kind", 2},
		{"missing description", "knowledge/a.md", strings.Replace(k, "description: d\n", "", 1), RuleRequired, "description", 1},
		{"null description", "knowledge/a.md", strings.Replace(k, "description: d", "description:", 1), RuleRequired, "description", 3},
		{"alias conflict", "knowledge/a.md", strings.Replace(k, "user_invocable", "model_invocation: true\nuser_invocable", 1), RuleAliasConflict, "model_invocation", 5},
		{"summary needs updated_at", "memory/summary.md", "---\n---\n", RuleRequired, "updated_at", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, err := Decode(tt.path, []byte(tt.in))
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range errs {
				if e.Rule == tt.rule && e.Key == tt.key {
					if e.Line != tt.line {
						t.Fatalf("%s at line %d, want %d", e.Msg, e.Line, tt.line)
					}
					return
				}
			}
			t.Fatalf("no %s on %s in %+v", tt.rule, tt.key, errs)
		})
	}
}

func TestModelInvocationAlias(t *testing.T) {
	in := "---\nkind: rule\ndescription: d\nmodel_invocation: true\nuser_invocable: false\ncreated_at: 2026-01-05T09:30:00Z\nupdated_at: 2026-01-05T09:30:00Z\nlast_sources: []\n---\n"
	r, errs, err := Decode("knowledge/a.md", []byte(in))
	if err != nil || len(errs) != 0 {
		t.Fatalf("err=%v errs=%v", err, errs)
	}
	if !r.ModelInvokation || r.UserInvocable {
		t.Fatalf("flags %+v", r)
	}
}

func TestRenderThenDecode(t *testing.T) {
	ts := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, r := range []*Record{
		{Kind: KindDecision, CreatedAt: ts, UpdatedAt: ts, Status: StatusReplaced, ReplacedBy: "b", Sources: []Source{{"s", [2]int{1, 2}}}},
		{Kind: KindRequest, CreatedAt: ts, UpdatedAt: ts},
		{Kind: KindKnowledge, CreatedAt: ts, UpdatedAt: ts, KnowledgeKind: "rule", Description: "yes: it has a colon", UserInvocable: true},
		{Kind: KindSummary, UpdatedAt: ts},
	} {
		b, err := Render(r, []byte("# Body\n"))
		if err != nil {
			t.Fatal(err)
		}
		got, errs, err := Decode(PathFor(r.Kind, "x"), b)
		if err != nil || len(errs) != 0 {
			t.Fatalf("%s: err=%v errs=%v\n%s", r.Kind, err, errs, b)
		}
		if got.Description != r.Description || got.Status != r.Status || len(got.Sources) != len(r.Sources) || string(got.Body()) != "# Body\n" {
			t.Fatalf("%s: got %+v\n%s", r.Kind, got, b)
		}
	}
}

func TestClassify(t *testing.T) {
	tests := []struct {
		path string
		area Area
		kind Kind
		bad  bool
	}{
		{"memory/summary.md", AreaRecord, KindSummary, false},
		{"memory/decisions/use-sqlite.md", AreaRecord, KindDecision, false},
		{"memory/requests/Bad_Slug.md", AreaRecord, KindRequest, true},
		{"knowledge/a--b.md", AreaRecord, KindKnowledge, true},
		{"knowledge/" + strings.Repeat("a", 65) + ".md", AreaRecord, KindKnowledge, true},
		{"knowledge/notes.txt", AreaUnknown, KindNone, false},
		{"knowledge/sub/x.md", AreaUnknown, KindNone, false},
		{"memory/_staging/0190.json", AreaStaging, KindNone, false},
		{"workflow/deploy.md", AreaWorkflow, KindNone, false},
		{"metrics/run.jsonl", AreaMetrics, KindNone, false},
		{"config", AreaConfig, KindNone, false},
		{".gitignore", AreaIgnore, KindNone, false},
	}
	for _, tt := range tests {
		loc := Classify(tt.path)
		if loc.Area != tt.area || loc.Kind != tt.kind || (loc.SlugErr != nil) != tt.bad {
			t.Errorf("Classify(%q) = %+v", tt.path, loc)
		}
	}
}

func TestCleanRel(t *testing.T) {
	for _, bad := range []string{"", "/etc/passwd", "../x", "knowledge/../../x", "a//b", "./a", `a\b`, "C:x"} {
		if _, err := CleanRel(bad); err == nil {
			t.Errorf("CleanRel(%q) accepted", bad)
		}
	}
	if _, err := CleanRel("knowledge/a.md"); err != nil {
		t.Error(err)
	}
}

func TestChangeSetAndApply(t *testing.T) {
	base := MapSnapshot(map[string][]byte{"knowledge/a.md": []byte("A"), "knowledge/b.md": []byte("B")})
	var cs ChangeSet
	if err := cs.Put(Change{Op: OpPut, Path: "knowledge/c.md", Content: []byte("C"), Create: true}); err != nil {
		t.Fatal(err)
	}
	_ = cs.Put(Change{Op: OpDelete, Path: "knowledge/a.md"})
	_ = cs.Put(Change{Op: OpPut, Path: "knowledge/b.md", Content: []byte("B2")})
	if err := cs.Put(Change{Op: OpPut, Path: "../x"}); err == nil {
		t.Fatal("bad path accepted")
	}
	s := base.Apply(&cs)
	if _, ok := s.Lookup("knowledge/a.md"); ok {
		t.Fatal("deleted path still listed")
	}
	if b, _ := s.Read("knowledge/b.md"); string(b) != "B2" {
		t.Fatalf("b = %q", b)
	}
	if b, _ := base.Read("knowledge/b.md"); string(b) != "B" {
		t.Fatal("base changed")
	}
	if len(s.Entries) != 2 || cs.Len() != 3 {
		t.Fatalf("entries %v", s.Entries)
	}
}

// TestApplyMergesInOrder: the entries of an applied snapshot are the base's
// without the deleted and replaced paths, plus the puts, in path order,
// whatever the order of the base (Lookup needs it).
func TestApplyMergesInOrder(t *testing.T) {
	for _, tt := range []struct {
		name   string
		base   []string
		puts   []string
		delete []string
		want   []string
	}{
		{"empty base", nil, []string{"knowledge/b.md", "knowledge/a.md"}, nil, []string{"knowledge/a.md", "knowledge/b.md"}},
		{"puts among", []string{"knowledge/b.md", "knowledge/d.md"}, []string{"knowledge/e.md", "knowledge/a.md", "knowledge/c.md", "knowledge/d.md"}, []string{"knowledge/b.md"}, []string{"knowledge/a.md", "knowledge/c.md", "knowledge/d.md", "knowledge/e.md"}},
		{"unsorted base", []string{"memory/summary.md", "knowledge/b.md"}, []string{"knowledge/a.md"}, nil, []string{"knowledge/a.md", "knowledge/b.md", "memory/summary.md"}},
		{"delete only", []string{"knowledge/a.md", "knowledge/b.md"}, nil, []string{"knowledge/a.md", "knowledge/x.md"}, []string{"knowledge/b.md"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base := Snapshot{Read: func(string) ([]byte, error) { return []byte("old"), nil }}
			for _, p := range tt.base {
				base.Entries = append(base.Entries, Entry{Path: p, Mode: ModeRegular})
			}
			var cs ChangeSet
			for _, p := range tt.puts {
				_ = cs.Put(Change{Op: OpPut, Path: p, Content: []byte("new " + p)})
			}
			for _, p := range tt.delete {
				_ = cs.Put(Change{Op: OpDelete, Path: p})
			}
			s := base.Apply(&cs)
			var got []string
			for _, e := range s.Entries {
				got = append(got, e.Path)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Fatalf("entries %v, want %v", got, tt.want)
			}
			for _, p := range tt.want {
				if _, ok := s.Lookup(p); !ok {
					t.Errorf("Lookup(%s) found nothing", p)
				}
			}
		})
	}
}

func TestCleanRelRefusesDotGit(t *testing.T) {
	for _, p := range []string{"knowledge/.git/hooks/x", ".GIT/config", "knowledge/.git./x", "knowledge/.git /x", "git~1/x"} {
		if _, err := CleanRel(p); err == nil {
			t.Errorf("CleanRel(%q) accepted", p)
		}
	}
	if _, err := CleanRel("knowledge/.gitkeep"); err != nil {
		t.Errorf(".gitkeep refused: %v", err)
	}
}
