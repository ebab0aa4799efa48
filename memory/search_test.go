package memory

import (
	"errors"
	"fmt"
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
		{"kind alone lists the kind", ScopeKnowledge, Query{Kind: "rule"}, Options{}, "retry-policy"},
		{"kind alone, any case", ScopeKnowledge, Query{Kind: "HowTo"}, Options{}, "sqlite-pragmas"},
		{"kind alone, none of it", ScopeKnowledge, Query{Kind: "policy"}, Options{}, ""},
		{"memory kind alone", ScopeMemory, Query{Kind: "decision"}, Options{}, "use-sqlite"},
		{"summary by kind", ScopeMemory, Query{Kind: "summary"}, Options{}, "summary"},
		{"summary by slug", ScopeMemory, Query{Slug: "summary"}, Options{}, "summary"},
		{"memory scope", ScopeMemory, Query{Text: "retr"}, Options{}, "retries summary"},
		{"memory kind filter", ScopeMemory, Query{Text: "sqlite", Kind: "decision"}, Options{}, "use-sqlite"},
		{"slug", ScopeKnowledge, Query{Slug: "sqlite-pragmas"}, Options{}, "sqlite-pragmas"},
		{"slug with terms", ScopeKnowledge, Query{Slug: "retry-policy", Text: "nope"}, Options{}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := Search(snap, tt.scope, tt.q, tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if got := slugs(res.Hits); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestSearchHitFields(t *testing.T) {
	res, err := Search(snapshot(), ScopeKnowledge, Query{Text: "declined"}, Options{ExcerptLines: 1})
	hits, skipped := res.Hits, res.Skipped
	if err != nil {
		t.Fatal(err)
	}
	if len(hits) != 1 {
		t.Fatalf("hits %+v", hits)
	}
	h := hits[0]
	if h.Kind != "rule" || h.Description != "How to retry HTTP calls" || !h.ModelInvokation || h.Path != ".yoi/knowledge/retry-policy.md" {
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
	if reasons[".yoi/knowledge/binary.md"] != "not UTF-8 text" {
		t.Fatalf("skipped %+v", skipped)
	}
	r, _ := Search(snapshot(), ScopeMemory, Query{Text: "sqlite"}, Options{})
	d := r.Hits
	if len(d) != 1 || d[0].Status != "resolved" || d[0].Kind != "decision" {
		t.Fatalf("decision hit %+v", d)
	}
}

func TestSearchExcerptRuns(t *testing.T) {
	body := strings.Repeat("filler\n", 3) + "alpha\n" + strings.Repeat("filler\n", 5) + "alpha again\n"
	snap := record.MapSnapshot(map[string][]byte{"knowledge/a.md": []byte(knowledge("fact", "d", false, body))})
	res, err := Search(snap, ScopeKnowledge, Query{Text: "alpha"}, Options{ExcerptLines: 1})
	hits := res.Hits
	if err != nil || len(hits) != 1 {
		t.Fatal(err, hits)
	}
	// the newline that ends the file is not one more (empty) line
	want := "filler\nalpha\nfiller\n…\nfiller\nalpha again\n"
	if hits[0].Excerpt != want {
		t.Fatalf("excerpt %q, want %q", hits[0].Excerpt, want)
	}
}

func TestSearchSlugReturnsWholeRecord(t *testing.T) {
	snap := snapshot()
	res, err := Search(snap, ScopeKnowledge, Query{Slug: "sqlite-pragmas"}, Options{ExcerptLines: 0})
	hits := res.Hits
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
		"nothing at all": {Query{}, ErrEmptyQuery},
		"unknown slug":   {Query{Slug: "no-such"}, ErrNotFound},
		"slug traversal": {Query{Slug: "../../etc/passwd"}, record.ErrBadSlug},
		"slug upper":     {Query{Slug: "Retry"}, record.ErrBadSlug},
	} {
		if _, err := Search(snap, ScopeKnowledge, tc.q, Options{}); !errors.Is(err, tc.want) {
			t.Errorf("%s: err = %v, want %v", name, err, tc.want)
		}
	}
	if _, err := Search(snap, ScopeKnowledge, Query{Text: strings.Repeat("x", 2000)}, Options{}); err == nil {
		t.Error("huge query accepted")
	}
	if _, err := Search(snap, ScopeKnowledge, Query{Text: "\xff"}, Options{}); err == nil {
		t.Error("non-UTF-8 query accepted")
	}
}

func FuzzSearch(f *testing.F) {
	f.Add("retry", "", "")
	f.Add("(a|b)*", "", "fact")
	f.Add("", "sqlite-pragmas", "")
	snap := snapshot()
	f.Fuzz(func(t *testing.T, text, slug, kind string) {
		res, err := Search(snap, ScopeKnowledge, Query{Text: text, Slug: slug, Kind: kind}, Options{ExcerptLines: 2, MaxResults: 3})
		if err != nil {
			return
		}
		if len(res.Hits) > 3 {
			t.Fatalf("%d hits over the limit", len(res.Hits))
		}
		if res.More > 0 && len(res.Hits) < 3 {
			t.Fatalf("%d more with %d hits under the limit", res.More, len(res.Hits))
		}
		for _, h := range res.Hits {
			if !strings.HasPrefix(h.Path, ".yoi/knowledge/") {
				t.Fatalf("hit outside scope: %s", h.Path)
			}
		}
	})
}

// TestSearchMore: hits past the limit are counted, never dropped silently,
// whatever the query (terms, a kind alone, a kind the examination cannot
// tell without reading the file).
func TestSearchMore(t *testing.T) {
	files := map[string][]byte{}
	for i := 0; i < 7; i++ {
		kind := "rule"
		if i%2 == 1 {
			kind = "fact"
		}
		files[fmt.Sprintf("knowledge/r%d.md", i)] = []byte(knowledge(kind, "about retries", false, "# Retry "+kind+"\n\nRetry twice.\n"))
	}
	snap := record.MapSnapshot(files)
	for _, tc := range []struct {
		q               Query
		max, hits, more int
	}{
		{Query{Text: "retry"}, 3, 3, 4},
		{Query{Text: "retry"}, 0, 7, 0},
		{Query{Text: "retry"}, 7, 7, 0},
		{Query{Kind: "rule"}, 2, 2, 2},
		{Query{Kind: "fact"}, 5, 3, 0},
		{Query{Text: "twice", Kind: "fact"}, 1, 1, 2},
	} {
		for _, ex := range []Examiner{nil, ReadExaminer(snap, ExamineText), ReadExaminer(snap, Examine)} {
			res, err := Search(snap, ScopeKnowledge, tc.q, Options{MaxResults: tc.max, Examine: ex})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Hits) != tc.hits || res.More != tc.more {
				t.Errorf("%+v max %d: %d hits and %d more, want %d and %d", tc.q, tc.max, len(res.Hits), res.More, tc.hits, tc.more)
			}
		}
	}
}

// TestSearchListingExcerpt: a listing without terms shows each record's
// first line of text.
func TestSearchListingExcerpt(t *testing.T) {
	res, err := Search(snapshot(), ScopeKnowledge, Query{Kind: "rule"}, Options{ExcerptLines: 2})
	if err != nil || len(res.Hits) != 1 {
		t.Fatal(err, res)
	}
	if got := res.Hits[0].Excerpt; got != "# Retry\n" {
		t.Fatalf("excerpt %q", got)
	}
	res, err = Search(snapshot(), ScopeMemory, Query{Kind: "decision"}, Options{})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Excerpt != "Chose SQLite over Postgres.\n" || res.Hits[0].Path != ".yoi/memory/decisions/use-sqlite.md" {
		t.Fatal(err, res)
	}
}

// TestLocate: a slug names records of every kind, in the order #slug
// resolves them; "summary" is the summary.
func TestLocate(t *testing.T) {
	snap := record.MapSnapshot(map[string][]byte{
		"knowledge/retry.md":          []byte("k"),
		"memory/decisions/retry.md":   []byte("d"),
		"memory/requests/retry.md":    []byte("r"),
		"memory/requests/other.md":    []byte("r"),
		"memory/summary.md":           []byte("s"),
		"memory/decisions/summary.md": []byte("d"),
		"workflow/retry.md":           []byte("w"),
	})
	for slug, want := range map[string]string{
		"retry":   "knowledge/retry.md memory/decisions/retry.md memory/requests/retry.md",
		"other":   "memory/requests/other.md",
		"summary": "memory/summary.md memory/decisions/summary.md",
		"none":    "",
	} {
		if got := strings.Join(Locate(snap, slug), " "); got != want {
			t.Errorf("Locate(%q) = %q, want %q", slug, got, want)
		}
	}
}

func TestShow(t *testing.T) {
	snap := record.MapSnapshot(map[string][]byte{
		"knowledge/retry.md":        []byte(knowledge("rule", "How to retry", false, "Retry twice.\n")),
		"memory/decisions/retry.md": []byte("---\ncreated_at: " + ts + "\nupdated_at: " + ts + "\nstatus: open\nsources: []\n---\nWhether to retry.\n"),
		"memory/requests/ask.md":    []byte("---\ncreated_at: " + ts + "\nupdated_at: " + ts + "\nsources: []\n---\nAsked.\n"),
		"memory/summary.md":         []byte("---\nupdated_at: " + ts + "\n---\nSummary.\n"),
		"workflow/x.md":             []byte("x"),
	})
	for _, tc := range []struct {
		ref      string
		kind     record.Kind
		path     string
		also     string
		wantErr  error
		errMatch string
	}{
		{ref: "retry", path: ".yoi/knowledge/retry.md", also: ".yoi/memory/decisions/retry.md"},
		{ref: "retry", kind: record.KindDecision, path: ".yoi/memory/decisions/retry.md"},
		{ref: "ask", path: ".yoi/memory/requests/ask.md"},
		{ref: "summary", path: ".yoi/memory/summary.md"},
		{ref: ".yoi/memory/decisions/retry.md", path: ".yoi/memory/decisions/retry.md"},
		{ref: "memory/decisions/retry.md", path: ".yoi/memory/decisions/retry.md"},
		{ref: "retry", kind: record.KindRequest, wantErr: ErrNotFound, errMatch: "retry: no such record (request)"},
		{ref: "nope", wantErr: ErrNotFound},
		{ref: "Nope", wantErr: record.ErrBadSlug},
		{ref: "knowledge/Bad.md", wantErr: record.ErrBadSlug},
		{ref: "workflow/x.md", wantErr: ErrNotRecordPath},
		{ref: "../etc/passwd", errMatch: "leaves .yoi/"},
		{ref: "memory/decisions/retry.md", kind: record.KindKnowledge, errMatch: "is a decision record, not a knowledge"},
	} {
		s, err := Show(snap, tc.ref, tc.kind)
		if tc.wantErr != nil || tc.errMatch != "" {
			if err == nil || (tc.wantErr != nil && !errors.Is(err, tc.wantErr)) || !strings.Contains(err.Error(), tc.errMatch) {
				t.Errorf("Show(%q, %v): err %v, want %v %q", tc.ref, tc.kind, err, tc.wantErr, tc.errMatch)
			}
			continue
		}
		if err != nil || s.Path != tc.path || strings.Join(s.Others, " ") != tc.also {
			t.Errorf("Show(%q, %v) = %s also %v (%v), want %s also %s", tc.ref, tc.kind, s.Path, s.Others, err, tc.path, tc.also)
			continue
		}
		if want, _ := snap.Read(s.Rel); s.Excerpt != string(want) {
			t.Errorf("Show(%q): not the whole record: %q", tc.ref, s.Excerpt)
		}
	}
}

// TestSearchExcerptBodyOnly: an excerpt comes from the body: a match on
// its first lines shows no frontmatter around it, and a term found only
// in the frontmatter shows the body's first line, never the frontmatter.
// A file with no frontmatter is all body.
func TestSearchExcerptBodyOnly(t *testing.T) {
	snap := record.MapSnapshot(map[string][]byte{
		"knowledge/top.md":     []byte(knowledge("fact", "about tokens", false, "Tokens expire hourly.\nRefresh them early.\n")),
		"knowledge/front.md":   []byte(knowledge("fact", "the zebra rule", false, "# Stripes\nNothing else here.\n")),
		"knowledge/nofront.md": []byte("Tokens without frontmatter.\n"),
	})
	for _, tc := range []struct{ query, slug, want string }{
		{"tokens", "top", "Tokens expire hourly.\nRefresh them early.\n"},
		{"zebra", "front", "# Stripes\n"},
		{"tokens", "nofront", "Tokens without frontmatter.\n"},
	} {
		res, err := Search(snap, ScopeKnowledge, Query{Text: tc.query}, Options{ExcerptLines: 2})
		if err != nil {
			t.Fatal(err)
		}
		found := false
		for _, h := range res.Hits {
			if h.Slug != tc.slug {
				continue
			}
			found = true
			if h.Excerpt != tc.want {
				t.Errorf("%q in %s: excerpt %q, want %q", tc.query, tc.slug, h.Excerpt, tc.want)
			}
		}
		if !found {
			t.Errorf("%q: %s not found in %+v", tc.query, tc.slug, res.Hits)
		}
	}
}

// TestSearchPrefetch: a valid query without a slug offers the cache the
// files the search examines, no others; a slug or a refused query offers
// nothing.
func TestSearchPrefetch(t *testing.T) {
	snap := snapshot()
	for _, tc := range []struct {
		scope Scope
		q     Query
		want  string // the entries offered, in path order
	}{
		{ScopeKnowledge, Query{Text: "retry"}, "knowledge/binary.md knowledge/broken.md knowledge/regex-notes.md knowledge/retry-policy.md knowledge/sqlite-pragmas.md"},
		{ScopeMemory, Query{Kind: "decision"}, "memory/decisions/use-sqlite.md memory/requests/retries.md memory/summary.md"},
		{ScopeKnowledge, Query{Slug: "retry-policy"}, ""},
		{ScopeKnowledge, Query{}, ""},
		{ScopeKnowledge, Query{Text: "retry", Slug: "Bad Slug"}, ""},
	} {
		var offered []string
		opts := Options{Prefetch: func(want func(record.Entry) bool) {
			for _, e := range snap.Entries {
				if want(e) {
					offered = append(offered, e.Path)
				}
			}
		}}
		_, _ = Search(snap, tc.scope, tc.q, opts)
		if got := strings.Join(offered, " "); got != tc.want {
			t.Errorf("%v %+v offered %q, want %q", tc.scope, tc.q, got, tc.want)
		}
	}
}
