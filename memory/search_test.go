package memory

import (
	"errors"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

const ts = "2026-01-05T09:30:00Z"

func knowledge(kind, desc string, invocable bool, body string) string {
	inv := "false"
	if invocable {
		inv = "true"
	}
	return "---\nkind: " + kind + "\ndescription: " + desc + "\nmodel_invokation: " + inv + "\nuser_invocable: true\ncreated_at: " + ts + "\nupdated_at: " + ts + "\nlast_sources: []\n---\n" + body
}

func snapshot() record.Snapshot {
	return record.MapSnapshot(map[string][]byte{
		"knowledge/retry-policy.md":      []byte(knowledge("rule", "How to retry HTTP calls", true, "# Retry\n\nRetry twice.\nUse backoff.\nNever retry a declined card.\n\nOther text.\n")),
		"knowledge/sqlite-pragmas.md":    []byte(knowledge("howto", "SQLite settings", false, "# SQLite\n\nbusy_timeout=5000\n")),
		"knowledge/regex-notes.md":       []byte(knowledge("fact", "Regex notes (a|b)*", false, "Patterns like [a-z]+ and (.*) are literal here.\n")),
		"knowledge/broken.md":            []byte("no frontmatter but mentions retry\n"),
		"knowledge/binary.md":            []byte("retry\x00\xff"),
		"memory/summary.md":              []byte("---\nupdated_at: " + ts + "\n---\n# Summary\nWe retry twice.\n"),
		"memory/decisions/use-sqlite.md": []byte("---\ncreated_at: " + ts + "\nupdated_at: " + ts + "\nstatus: resolved\nsources: []\n---\nChose SQLite over Postgres.\n"),
		"memory/requests/retries.md":     []byte("---\ncreated_at: " + ts + "\nupdated_at: " + ts + "\nsources: []\n---\nThe user asked for RETRIES.\n"),
		"workflow/retry.md":              []byte("retry"),
	})
}

func slugs(hits []Hit) string {
	var s []string
	for _, h := range hits {
		s = append(s, h.Slug)
	}
	return strings.Join(s, " ")
}

func TestSearch(t *testing.T) {
	snap := snapshot()
	tests := []struct {
		name  string
		scope Scope
		q     Query
		opts  Options
		want  string
	}{
		{"one term, any case", ScopeKnowledge, Query{Text: "RETRY"}, Options{}, "broken retry-policy"},
		{"all terms must appear", ScopeKnowledge, Query{Text: "retry backoff"}, Options{}, "retry-policy"},
		{"frontmatter included", ScopeKnowledge, Query{Text: "howto"}, Options{}, "sqlite-pragmas"},
		{"kind filter", ScopeKnowledge, Query{Text: "settings", Kind: "howto"}, Options{}, "sqlite-pragmas"},
		{"kind filter excludes", ScopeKnowledge, Query{Text: "retry", Kind: "fact"}, Options{}, ""},
		{"regex metacharacters are literal", ScopeKnowledge, Query{Text: "(a|b)* [a-z]+"}, Options{}, "regex-notes"},
		{"no match", ScopeKnowledge, Query{Text: "kubernetes"}, Options{}, ""},
		{"hit limit", ScopeKnowledge, Query{Text: "retry"}, Options{MaxResults: 1}, "broken"},
		{"memory scope", ScopeMemory, Query{Text: "retr"}, Options{}, "retries summary"},
		{"memory kind filter", ScopeMemory, Query{Text: "sqlite", Kind: "decision"}, Options{}, "use-sqlite"},
		{"slug", ScopeKnowledge, Query{Slug: "sqlite-pragmas"}, Options{}, "sqlite-pragmas"},
		{"slug with terms", ScopeKnowledge, Query{Slug: "retry-policy", Text: "nope"}, Options{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hits, _, err := Search(snap, tt.scope, tt.q, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := slugs(hits); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSearchHitFields(t *testing.T) {
	hits, skipped, err := Search(snapshot(), ScopeKnowledge, Query{Text: "declined"}, Options{ExcerptLines: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 {
		t.Fatalf("hits %+v", hits)
	}
	h := hits[0]
	if h.Kind != "rule" || h.Description != "How to retry HTTP calls" || !h.ModelInvokation || h.Path != "knowledge/retry-policy.md" {
		t.Fatalf("hit %+v", h)
	}
	if h.Excerpt != "Use backoff.\nNever retry a declined card.\n\n" {
		t.Fatalf("excerpt %q", h.Excerpt)
	}
	// the binary file is skipped with a reason, the unparseable one noted
	reasons := map[string]string{}
	for _, s := range skipped {
		reasons[s.Path] = s.Reason
	}
	if reasons["knowledge/binary.md"] != "not UTF-8 text" {
		t.Fatalf("skipped %+v", skipped)
	}
	d, _, _ := Search(snapshot(), ScopeMemory, Query{Text: "sqlite"}, Options{})
	if len(d) != 1 || d[0].Status != "resolved" || d[0].Kind != "decision" {
		t.Fatalf("decision hit %+v", d)
	}
}

func TestSearchExcerptRuns(t *testing.T) {
	body := strings.Repeat("filler\n", 3) + "alpha\n" + strings.Repeat("filler\n", 5) + "alpha again\n"
	snap := record.MapSnapshot(map[string][]byte{"knowledge/a.md": []byte(knowledge("fact", "d", false, body))})
	hits, _, err := Search(snap, ScopeKnowledge, Query{Text: "alpha"}, Options{ExcerptLines: 1})
	if err != nil || len(hits) != 1 {
		t.Fatal(err, hits)
	}
	want := "filler\nalpha\nfiller\n…\nfiller\nalpha again\n\n"
	if hits[0].Excerpt != want {
		t.Fatalf("excerpt %q, want %q", hits[0].Excerpt, want)
	}
}

func TestSearchSlugReturnsWholeRecord(t *testing.T) {
	snap := snapshot()
	hits, _, err := Search(snap, ScopeKnowledge, Query{Slug: "sqlite-pragmas"}, Options{ExcerptLines: 0})
	if err != nil || len(hits) != 1 {
		t.Fatal(err)
	}
	want, _ := snap.Read("knowledge/sqlite-pragmas.md")
	if hits[0].Excerpt != string(want) {
		t.Fatalf("excerpt is not the whole record: %q", hits[0].Excerpt)
	}
}

func TestSearchBadInput(t *testing.T) {
	snap := snapshot()
	for name, tc := range map[string]struct {
		q    Query
		want error
	}{
		"empty":          {Query{Text: "   "}, ErrEmptyQuery},
		"unknown slug":   {Query{Slug: "no-such"}, ErrNotFound},
		"slug traversal": {Query{Slug: "../../etc/passwd"}, record.ErrBadSlug},
		"slug upper":     {Query{Slug: "Retry"}, record.ErrBadSlug},
	} {
		if _, _, err := Search(snap, ScopeKnowledge, tc.q, Options{}); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", name, err, tc.want)
		}
	}
	if _, _, err := Search(snap, ScopeKnowledge, Query{Text: strings.Repeat("x", 2000)}, Options{}); err == nil {
		t.Error("huge query accepted")
	}
	if _, _, err := Search(snap, ScopeKnowledge, Query{Text: "\xff"}, Options{}); err == nil {
		t.Error("non-UTF-8 query accepted")
	}
}

func FuzzSearch(f *testing.F) {
	f.Add("retry", "", "")
	f.Add("(a|b)*", "", "fact")
	f.Add("", "sqlite-pragmas", "")
	snap := snapshot()
	f.Fuzz(func(t *testing.T, text, slug, kind string) {
		hits, _, err := Search(snap, ScopeKnowledge, Query{Text: text, Slug: slug, Kind: kind}, Options{ExcerptLines: 2, MaxResults: 3})
		if err != nil {
			return
		}
		if len(hits) > 3 {
			t.Fatalf("%d hits over the limit", len(hits))
		}
		for _, h := range hits {
			if !strings.HasPrefix(h.Path, "knowledge/") {
				t.Fatalf("hit outside scope: %s", h.Path)
			}
		}
	})
}
