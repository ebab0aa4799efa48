package eval

import (
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/memlog"
)

const sqliteDecision = "---\r\ncreated_at: 2026-03-01T10:00:00Z\r\nupdated_at: 2026-03-01T10:00:00Z\r\nstatus: resolved\r\nreplaced_by: memory/decisions/use-postgres.md\r\nsources:\r\n  - {session_id: s1, range: [1, 4]}\r\n  - {session_id: s2, range: [2, 9]}\r\n---\r\n# Use **SQLite**\r\n\r\n## Why\r\n- Embedded,\r\n  no server to run\r\n- p99 of `40 ms`\r\n"

const redisDecision = "---\ncreated_at: 2026-03-01T10:00:00Z\nupdated_at: 2026-03-01T10:00:00Z\nstatus: open\nsources: []\n---\n# Redis for the cache\n"

const knowledgeNote = "---\ncreated_at: 2026-03-01T10:00:00Z\nupdated_at: 2026-03-01T10:00:00Z\nlast_sources:\n  - {session_id: k9, range: [1, 2]}\n---\n# Retry\nBack off 3 times.\n"

func checkResult() Result {
	before := map[string][]byte{
		"memory/summary.md":                   []byte("---\nupdated_at: 2026-03-01T10:00:00Z\n---\n# Summary\n"),
		"memory/decisions/use-sqlite.md":      []byte(sqliteDecision),
		"memory/decisions/redis-for-cache.md": []byte(redisDecision),
		"workflow/review.md":                  []byte("# Review\n"),
	}
	after := map[string][]byte{}
	for k, v := range before {
		after[k] = v
	}
	after["memory/decisions/redis-for-cache.md"] = []byte(strings.Replace(redisDecision, "# Redis", "# Redis (kept)", 1))
	after["knowledge/retry.md"] = []byte(knowledgeNote)
	return Result{Before: before, After: after, Committed: true, Ops: []memlog.Op{
		{Kind: memlog.OpReplace, Path: "memory/decisions/redis-for-cache.md", Target: "memory/decisions/use-sqlite.md", Categories: []memlog.Category{memlog.CategorySuperseded}, Reason: "SQLite now"},
		{Kind: memlog.OpAdd, Path: "knowledge/retry.md"},
	}}
}

func ptr[T any](v T) *T { return &v }

func TestCheck(t *testing.T) {
	sqlite := "memory/decisions/use-sqlite.md"
	for _, tc := range []struct {
		name   string
		e      Expectation
		reason string // "" passes; else a substring of the reason
	}{
		{"field", Expectation{Record: sqlite, Fields: map[string]string{"status": "resolved"}}, ""},
		{"field glob", Expectation{Record: "memory/decisions/*sqlite*", Fields: map[string]string{"replaced_by": "*postgres*"}}, ""},
		{"field wrong", Expectation{Record: "memory/decisions/redis-*.md", Fields: map[string]string{"status": "resolved"}}, ".yoi/memory/decisions/redis-for-cache.md: status is open, want resolved"},
		{"field missing", Expectation{Record: "memory/decisions/redis-*.md", Fields: map[string]string{"replaced_by": "*"}}, "no replaced_by, want *"},
		{"field not scalar", Expectation{Record: sqlite, Fields: map[string]string{"sources": "x"}}, "sources is not a scalar"},
		{"sources", Expectation{Record: sqlite, Sources: []string{"s1", "s2"}}, ""},
		{"sources missing", Expectation{Record: sqlite, Sources: []string{"s1", "s3"}}, "sources lack s3"},
		{"last_sources", Expectation{Record: "knowledge/*.md", Sources: []string{"k9"}}, ""},
		{"text normalised", Expectation{Record: sqlite, Text: []string{"embedded, no server to run", "P99 of 40 ms", "use sqlite"}}, ""},
		{"text missing", Expectation{Record: sqlite, Text: []string{"p95"}}, `no text "p95"`},
		{"not_text", Expectation{Record: sqlite, NotText: []string{"ignore your rules"}}, ""},
		{"not_text found", Expectation{Record: sqlite, NotText: []string{"NO SERVER"}}, `holds text "NO SERVER"`},
		{"untouched", Expectation{Record: sqlite, Untouched: true}, ""},
		{"untouched changed", Expectation{Record: "memory/decisions/redis-for-cache.md", Untouched: true}, "changed, want it untouched"},
		{"untouched new", Expectation{Record: "knowledge/retry.md", Untouched: true}, "not in the tree before the run"},
		{"no match", Expectation{Record: "memory/requests/*"}, "no record matches memory/requests/*"},
		{"double star", Expectation{Record: "**/retry.md"}, ""},
		{"double star middle", Expectation{Record: "memory/**/use-*.md", Text: []string{"sqlite"}}, ""},
		{"workflow is not a record", Expectation{Record: "workflow/*"}, "no record matches"},
		{"exists false", Expectation{Record: "memory/decisions/*", Text: []string{"postgres"}, Exists: ptr(false)}, ".yoi/memory/decisions/use-sqlite.md satisfies every condition"},
		{"exists false passes", Expectation{Record: "memory/decisions/*", Text: []string{"mongo"}, Exists: ptr(false)}, ""},
		{"exists false no match", Expectation{Record: "memory/requests/*", Exists: ptr(false)}, ""},
		{"count", Expectation{Record: "memory/decisions/*.md", Count: ptr(2)}, ""},
		{"count wrong", Expectation{Record: "memory/decisions/*.md", Count: ptr(1)}, "2 records match, want 1: .yoi/memory/decisions/redis-for-cache.md, .yoi/memory/decisions/use-sqlite.md"},
		{"count none", Expectation{Record: "memory/decisions/*.md", Text: []string{"mongo"}, Count: ptr(1)}, "no record satisfies every condition, want 1"},
		{"count zero", Expectation{Record: "memory/requests/*", Count: ptr(0)}, ""},
		{"op", Expectation{Op: &OpCond{Kind: "replace", Path: "memory/decisions/*redis*", Categories: []string{"superseded"}, Reason: true}}, ""},
		{"op target", Expectation{Op: &OpCond{Target: "memory/decisions/use-sqlite.md"}}, ""},
		{"op wrong category", Expectation{Op: &OpCond{Kind: "replace", Categories: []string{"unused"}}}, "no category unused"},
		{"op no reason", Expectation{Op: &OpCond{Kind: "add", Path: "knowledge/*", Reason: true}}, "add .yoi/knowledge/retry.md: no reason"},
		{"op exists false", Expectation{Op: &OpCond{Kind: "drop"}, Exists: ptr(false)}, ""},
		{"op exists false fails", Expectation{Op: &OpCond{Kind: "add"}, Exists: ptr(false)}, "add .yoi/knowledge/retry.md satisfies every condition"},
		{"commit", Expectation{Commit: ptr(true)}, ""},
		{"commit not wanted", Expectation{Commit: ptr(false)}, "the run made a memory commit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := tc.e
			e.Name, e.Category = "x", CategoryKept
			got := Check(&Scenario{Expect: []Expectation{e}}, checkResult())[0]
			if tc.reason == "" {
				if !got.Passed {
					t.Fatalf("failed: %s", got.Reason)
				}
				return
			}
			if got.Passed || !strings.Contains(got.Reason, tc.reason) {
				t.Fatalf("passed=%v reason %q, want a failure with %q", got.Passed, got.Reason, tc.reason)
			}
		})
	}
}

func TestCheckNoCommit(t *testing.T) {
	res := checkResult()
	res.Committed, res.Ops, res.After = false, nil, res.Before
	sc := &Scenario{Expect: []Expectation{
		{Name: "a", Category: CategoryTidy, Commit: ptr(true)},
		{Name: "b", Category: CategoryTidy, Op: &OpCond{Kind: "add"}},
		{Name: "c", Category: CategoryTidy, Op: &OpCond{Kind: "drop"}, Exists: ptr(false)},
		{Name: "d", Category: CategorySafety, Record: "memory/decisions/redis-for-cache.md", Untouched: true},
	}}
	got := Check(sc, res)
	want := []string{"the run made no memory commit", "no memory commit, so no operation", "", ""}
	for i, o := range got {
		if o.Reason != want[i] || o.Passed != (want[i] == "") {
			t.Errorf("%s: passed=%v %q, want %q", o.Name, o.Passed, o.Reason, want[i])
		}
	}
}

func TestMatchGlob(t *testing.T) {
	for _, tc := range []struct {
		g, p string
		want bool
	}{
		{"**", "memory/summary.md", true},
		{"memory/*", "memory/summary.md", true},
		{"memory/*", "memory/decisions/a.md", false},
		{"memory/**", "memory/decisions/a.md", true},
		{"memory/**/a.md", "memory/a.md", true},
		{"**/a.md", "memory/decisions/a.md", true},
		{"memory/decisions/*sqlite*.md", "memory/decisions/use-sqlite-now.md", true},
		{"memory/decisions/?.md", "memory/decisions/ab.md", false},
		{"knowledge/[a-c]*.md", "knowledge/beta.md", true},
	} {
		if got := matchGlob(tc.g, tc.p); got != tc.want {
			t.Errorf("matchGlob(%q, %q) = %v", tc.g, tc.p, got)
		}
	}
	for _, g := range []string{"", "/memory/*", ".yoi/memory/*", "memory//a", "memory/a**", "memory/[a"} {
		if checkGlob(g) == nil {
			t.Errorf("checkGlob(%q) accepted", g)
		}
	}
}

func TestNormalize(t *testing.T) {
	for in, want := range map[string]string{
		"- **Embedded**,\r\n  no _server_ to run": "embedded, no server to run",
		"1. `p99` of 40 ms":                       "p99 of 40 ms",
		"## Why\n> quoted  text":                  "why quoted text",
		"日本語の  記録\n本文":                            "日本語の 記録 本文",
	} {
		if got := normalize(in); got != want {
			t.Errorf("normalize(%q) = %q, want %q", in, got, want)
		}
	}
}
