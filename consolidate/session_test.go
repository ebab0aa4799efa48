package consolidate

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

var now = time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)

const summary = "---\nupdated_at: 2026-01-01T00:00:00Z\n---\n# Project\nRun make test.\n"

func decision(status, body string, srcs ...string) string {
	return "---\ncreated_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\nstatus: " + status + "\nsources:\n" + sourceLines(srcs) + "---\n" + body
}

func request(body string, srcs ...string) string {
	return "---\ncreated_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\nsources:\n" + sourceLines(srcs) + "---\n" + body
}

func knowledge(desc, body string) string {
	return "---\nkind: rule\ndescription: " + desc + "\nmodel_invokation: false\nuser_invocable: true\nlast_sources: []\ncreated_at: 2026-01-01T00:00:00Z\nupdated_at: 2026-01-01T00:00:00Z\n---\n" + body
}

func sourceLines(srcs []string) string {
	var b strings.Builder
	for _, s := range srcs {
		b.WriteString("  - {session_id: " + s + ", range: [1, 9]}\n")
	}
	return b.String()
}

func baseFiles() map[string][]byte {
	return map[string][]byte{
		"memory/summary.md":                   []byte(summary),
		"memory/decisions/use-sqlite.md":      []byte(decision("resolved", "# Use SQLite\nEmbedded, no server to run.\n", "s0")),
		"memory/decisions/json-logs.md":       []byte(decision("resolved", "# JSON logs\nLog as JSON lines.\n", "s0")),
		"memory/requests/faster-ci.md":        []byte(request("# Faster CI\nThe user wants CI under five minutes.\n", "s0")),
		"knowledge/retry-policy.md":           []byte(knowledge("How to retry HTTP calls", "Retry idempotent calls twice, with backoff. Never retry POST without an idempotency key. Log every retry.\n")),
		"knowledge/old-ci.md":                 []byte(knowledge("The old CI", "Jenkins, gone since 2025.\n")),
		"memory/decisions/frequently-used.md": []byte(decision("resolved", "# Frequently used\nA long body that people read all the time, with many facts: one, two, three, four, five, six.\n", "s0", "s1")),
	}
}

func entry(id, session string, from, to int) extract.Staging {
	return extract.Staging{Version: extract.StagingVersion, ID: id, Source: extract.Source{SessionID: session, Range: [2]int{from, to}}}
}

func newTestSession(t *testing.T, mutate func(*Input)) *Session {
	t.Helper()
	in := &Input{
		RunID:   "run-1",
		Now:     now,
		Base:    record.MapSnapshot(baseFiles()),
		Entries: []extract.Staging{entry("e1", "s1", 10, 20), entry("e2", "s2", 1, 5)},
		Usage: map[string]RecordUsage{
			"memory/decisions/frequently-used.md": {Uses: 30, Frequency: 4, Known: true, Protected: true},
			"knowledge/old-ci.md":                 {Known: true, Unused: true},
			"memory/requests/faster-ci.md":        {Uses: 1, Frequency: 0.2, Known: true},
		},
		Candidates: []string{"memory/requests/faster-ci.md"},
		Locked:     map[string]bool{"knowledge/old-ci.md": false},
		Lint:       lint.DefaultOptions(),
	}
	if mutate != nil {
		mutate(in)
	}
	s, err := NewSession(in)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func read(t *testing.T, s *Session, rel string) string {
	t.Helper()
	b, err := s.Snapshot().Read(rel)
	if err != nil {
		t.Fatalf("read %s: %v", rel, err)
	}
	return string(b)
}

// TestSessionRefuses: every principle the plan gives the consolidation
// agent is enforced, whatever the engine asks.
func TestSessionRefuses(t *testing.T) {
	newDecision := []byte("---\nstatus: resolved\n---\n# Use Postgres\nWe need concurrent writers.\n")
	tests := []struct {
		name   string
		locked string
		c      Change
		want   string
	}{
		{"workflow", "", Change{Kind: memlog.OpAdd, Path: "workflow/deploy.md", Content: newDecision, Staging: []string{"e1"}, Reason: "r"}, "never writes under .yoi/workflow/"},
		{"outside the records", "", Change{Kind: memlog.OpAdd, Path: "config", Content: newDecision, Reason: "r"}, "is not a record"},
		{"escape", "", Change{Kind: memlog.OpAdd, Path: "../x.md", Content: newDecision, Reason: "r"}, "leaves .yoi/"},
		{"locked", "knowledge/retry-policy.md", Change{Kind: memlog.OpUpdate, Path: "knowledge/retry-policy.md", Content: []byte(knowledge("x", "y\n")), Reason: "r"}, "is locked"},
		{"no reason", "", Change{Kind: memlog.OpUpdate, Path: "memory/summary.md", Content: []byte(summary + "more\n")}, "give a reason"},
		{"tidy without category", "", Change{Kind: memlog.OpDrop, Path: "knowledge/old-ci.md", Reason: "gone"}, "needs one or more categories"},
		{"unknown category", "", Change{Kind: memlog.OpDrop, Path: "knowledge/old-ci.md", Categories: []memlog.Category{"stale"}, Reason: "gone"}, "unknown category"},
		{"decision deleted", "", Change{Kind: memlog.OpDrop, Path: "memory/decisions/json-logs.md", Categories: []memlog.Category{memlog.CategoryOutdated}, Reason: "old"}, "decisions are never deleted"},
		{"summary dropped", "", Change{Kind: memlog.OpDrop, Path: "memory/summary.md", Categories: []memlog.Category{memlog.CategoryNoisy}, Reason: "x"}, "summary is never removed"},
		{"unknown usage dropped", "", Change{Kind: memlog.OpDrop, Path: "knowledge/retry-policy.md", Categories: []memlog.Category{memlog.CategoryUnused}, Reason: "x"}, "usage of .yoi/knowledge/retry-policy.md is unknown"},
		{"protected dropped", "", Change{Kind: memlog.OpDrop, Path: "memory/decisions/frequently-used.md", Categories: []memlog.Category{memlog.CategoryUnused}, Reason: "x"}, "decisions are never deleted"},
		{"protected compressed", "", Change{Kind: memlog.OpTrim, Path: "memory/decisions/frequently-used.md", Content: []byte(decision("resolved", "# Frequently used\n")), Categories: []memlog.Category{memlog.CategoryNoisy}, Reason: "shorter"}, "never heavily compressed"},
		{"protected sources trimmed", "", Change{Kind: memlog.OpTrim, Path: "memory/decisions/frequently-used.md", Content: []byte(decision("resolved", "# Frequently used\nA long body that people read all the time, with many facts: one, two, three, four, five, six.\n")), KeepSources: 1, Categories: []memlog.Category{memlog.CategoryNoisy}, Reason: "sources"}, "may not be removed"},
		{"knowledge sources trimmed", "", Change{Kind: memlog.OpTrim, Path: "knowledge/retry-policy.md", Content: []byte(knowledge("How to retry HTTP calls", "Retry twice.\n")), KeepSources: 1, Categories: []memlog.Category{memlog.CategoryNoisy}, Reason: "sources"}, "only a decision's or request's sources are trimmed"},
		{"knowledge not from the report", "", Change{Kind: memlog.OpAdd, Path: "knowledge/sqlite.md", Content: []byte(knowledge("SQLite", "Use WAL.\n")), DerivedFrom: []string{"memory/decisions/use-sqlite.md"}, Reason: "r"}, "not in the knowledge-candidate report"},
		{"knowledge from nothing", "", Change{Kind: memlog.OpAdd, Path: "knowledge/sqlite.md", Content: []byte(knowledge("SQLite", "Use WAL.\n")), Staging: []string{"e1"}, Reason: "r"}, "comes only from records of the knowledge-candidate report"},
		{"decision without sources", "", Change{Kind: memlog.OpAdd, Path: "memory/decisions/use-postgres.md", Content: newDecision, Reason: "r"}, "needs the staging entries"},
		{"unknown staging entry", "", Change{Kind: memlog.OpAdd, Path: "memory/decisions/use-postgres.md", Content: newDecision, Staging: []string{"nope"}, Reason: "r"}, `no staging entry "nope"`},
		{"add over an existing slug", "", Change{Kind: memlog.OpAdd, Path: "memory/decisions/use-sqlite.md", Content: newDecision, Staging: []string{"e1"}, Reason: "r"}, "exists: update it"},
		{"replace a request", "", Change{Kind: memlog.OpReplace, Path: "memory/requests/faster-ci.md", Target: "memory/decisions/use-sqlite.md", Reason: "r"}, "only a decision is replaced"},
		{"replace by nothing", "", Change{Kind: memlog.OpReplace, Path: "memory/decisions/json-logs.md", Target: "memory/decisions/nope.md", Reason: "r"}, "does not exist"},
		{"broken content", "", Change{Kind: memlog.OpUpdate, Path: "memory/requests/faster-ci.md", Content: []byte("---\nsources: [\n---\n"), Reason: "r"}, "does not parse"},
		{"linter", "", Change{Kind: memlog.OpUpdate, Path: "memory/decisions/json-logs.md", Content: []byte(decision("maybe", "# JSON logs\n")), Reason: "r"}, "the linter refuses it"},
		{"no change", "", Change{Kind: memlog.OpUpdate, Path: "memory/requests/faster-ci.md", Content: []byte(request("# Faster CI\nThe user wants CI under five minutes.\n", "s0")), Reason: "r"}, "changes nothing"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestSession(t, func(in *Input) {
				if tt.locked != "" {
					in.Locked = map[string]bool{tt.locked: true}
				}
			})
			_, err := s.Apply(context.Background(), tt.c)
			var r *Refusal
			if !errors.As(err, &r) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Apply = %v, want a refusal saying %q", err, tt.want)
			}
			if s.Changes().Len() != 0 || len(s.Ops()) != 0 {
				t.Errorf("a refused change changed the session: %v, %v", s.Changes().Changes(), s.Ops())
			}
		})
	}
}

// TestSessionSources: sources come from the staging entries named, never
// from what the content says; decisions accumulate, knowledge keeps the
// latest; created_at is kept, updated_at is the run's time.
func TestSessionSources(t *testing.T) {
	s := newTestSession(t, nil)
	ctx := context.Background()
	// The content claims a source of its own: it is replaced by code's.
	forged := []byte("---\nstatus: resolved\nsources:\n  - {session_id: forged, range: [1, 2]}\n---\n# Use Postgres\nConcurrent writers.\n")
	if _, err := s.Apply(ctx, Change{Kind: memlog.OpAdd, Path: ".yoi/memory/decisions/use-postgres.md", Content: forged, Staging: []string{"e1", "e2", "e1"}, Reason: "decided in s1"}); err != nil {
		t.Fatal(err)
	}
	got := read(t, s, "memory/decisions/use-postgres.md")
	for _, want := range []string{"{session_id: s1, range: [10, 20]}", "{session_id: s2, range: [1, 5]}", "created_at: 2026-03-04T05:06:07Z", "updated_at: 2026-03-04T05:06:07Z"} {
		if !strings.Contains(got, want) {
			t.Errorf("added record lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "forged") || strings.Count(got, "session_id: s1") != 1 {
		t.Errorf("sources not the staging entries' once each:\n%s", got)
	}

	// An update accumulates: the old source stays, the new one is added,
	// created_at is kept.
	upd := []byte(decision("resolved", "# Use SQLite\nEmbedded, no server to run. WAL mode.\n"))
	if _, err := s.Apply(ctx, Change{Kind: memlog.OpUpdate, Path: "memory/decisions/use-sqlite.md", Content: upd, Staging: []string{"e2"}, Reason: "WAL decided"}); err != nil {
		t.Fatal(err)
	}
	got = read(t, s, "memory/decisions/use-sqlite.md")
	for _, want := range []string{"{session_id: s0, range: [1, 9]}", "{session_id: s2, range: [1, 5]}", "created_at: 2026-01-01T00:00:00Z", "updated_at: 2026-03-04T05:06:07Z"} {
		if !strings.Contains(got, want) {
			t.Errorf("updated decision lacks %q:\n%s", want, got)
		}
	}

	// A new knowledge record from the candidate report takes the
	// candidate's sources when it names no staging entry.
	if _, err := s.Apply(ctx, Change{Kind: memlog.OpAdd, Path: "knowledge/ci-budget.md", Content: []byte(knowledge("CI time budget", "Keep CI under five minutes.\n")), DerivedFrom: []string{".yoi/memory/requests/faster-ci.md"}, Reason: "asked for again and again"}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, s, "knowledge/ci-budget.md"); !strings.Contains(got, "last_sources:\n  - {session_id: s0, range: [1, 9]}\n") {
		t.Errorf("knowledge from a candidate lacks its sources:\n%s", got)
	}
	if used := strings.Join(s.Used(), ","); used != "e1,e2" {
		t.Errorf("Used = %s", used)
	}
}

// TestSessionSourceKeysNotTyped: whatever source key the content types
// (sources, last_sources, last_rewritten_from_range), only code's lands:
// the kind's own key from the staging entries named, the others as the
// existing record has them, or not at all.
func TestSessionSourceKeysNotTyped(t *testing.T) {
	forged := "sources:\n  - {session_id: forged, range: [1, 2]}\nlast_sources:\n  - {session_id: forged, range: [3, 4]}\nlast_rewritten_from_range: {session_id: forged, range: [5, 6]}\n"
	summaryWithRange := "---\nupdated_at: 2026-01-01T00:00:00Z\nlast_rewritten_from_range: {session_id: s0, range: [1, 9]}\n---\n# Project\nRun make test.\n"
	tests := []struct {
		name string
		c    Change
		path string
		want []string // lines the record has
		not  []string // text it must not have
	}{
		{"new decision", Change{Kind: memlog.OpAdd, Path: "memory/decisions/use-postgres.md", Content: []byte("---\nstatus: resolved\n" + forged + "---\n# Use Postgres\nConcurrent writers.\n"), Staging: []string{"e1"}, Reason: "r"},
			"memory/decisions/use-postgres.md", []string{"sources:\n  - {session_id: s1, range: [10, 20]}\n"}, []string{"forged", "last_sources", "last_rewritten_from_range"}},
		{"updated request", Change{Kind: memlog.OpUpdate, Path: "memory/requests/faster-ci.md", Content: []byte("---\n" + forged + "---\n# Faster CI\nThe user wants CI under five minutes, and under three later.\n"), Staging: []string{"e2"}, Reason: "r"},
			"memory/requests/faster-ci.md", []string{"  - {session_id: s0, range: [1, 9]}\n  - {session_id: s2, range: [1, 5]}\n"}, []string{"forged", "last_sources", "last_rewritten_from_range"}},
		{"new knowledge", Change{Kind: memlog.OpAdd, Path: "knowledge/ci-budget.md", Content: []byte("---\nkind: rule\ndescription: CI budget\nmodel_invokation: false\nuser_invocable: true\n" + forged + "---\n# CI budget\nUnder five minutes.\n"), DerivedFrom: []string{"memory/requests/faster-ci.md"}, Reason: "r"},
			"knowledge/ci-budget.md", []string{"last_sources:\n  - {session_id: s0, range: [1, 9]}\n"}, []string{"forged", "\nsources:", "last_rewritten_from_range"}},
		{"summary", Change{Kind: memlog.OpUpdate, Path: "memory/summary.md", Content: []byte("---\nupdated_at: 2026-01-01T00:00:00Z\n" + forged + "---\n# Project\nRun make test. Then make lint.\n"), Staging: []string{"e1"}, Reason: "r"},
			"memory/summary.md", []string{"Then make lint."}, []string{"forged", "sources", "last_rewritten_from_range"}},
		{"summary keeps its own range", Change{Kind: memlog.OpUpdate, Path: "memory/summary.md", Content: []byte("---\nupdated_at: 2026-01-01T00:00:00Z\nlast_rewritten_from_range: {session_id: forged, range: [5, 6]}\n---\n# Project\nRun make test. Then make lint.\n"), Staging: []string{"e1"}, Reason: "r"},
			"memory/summary.md", []string{"last_rewritten_from_range: {session_id: s0, range: [1, 9]}\n"}, []string{"forged"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := newTestSession(t, func(in *Input) {
				files := baseFiles()
				if tt.name == "summary keeps its own range" {
					files["memory/summary.md"] = []byte(summaryWithRange)
				}
				in.Base = record.MapSnapshot(files)
			})
			if _, err := s.Apply(context.Background(), tt.c); err != nil {
				t.Fatal(err)
			}
			got := read(t, s, tt.path)
			for _, w := range tt.want {
				if !strings.Contains(got, w) {
					t.Errorf("lacks %q:\n%s", w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("has %q, which the content typed:\n%s", n, got)
				}
			}
		})
	}
}

// TestSessionMinimalDiff: only the lines of the fields that change are
// touched; an update changes the body and updated_at, nothing else.
func TestSessionMinimalDiff(t *testing.T) {
	s := newTestSession(t, nil)
	old := baseFiles()["knowledge/retry-policy.md"]
	content := strings.Replace(string(old), "Log every retry.", "Log every retry with its attempt number.", 1)
	if _, err := s.Apply(context.Background(), Change{Kind: memlog.OpUpdate, Path: "knowledge/retry-policy.md", Content: []byte(content), Reason: "more precise"}); err != nil {
		t.Fatal(err)
	}
	got := read(t, s, "knowledge/retry-policy.md")
	want := strings.Replace(content, "updated_at: 2026-01-01T00:00:00Z", "updated_at: 2026-03-04T05:06:07Z", 1)
	if got != want {
		t.Fatalf("got:\n%s\nwant:\n%s", got, want)
	}
}

// TestSessionTidyUps: replace, merge, split, drop and trim with their
// categories; what the commit message and the change set say.
func TestSessionTidyUps(t *testing.T) {
	s := newTestSession(t, nil)
	ctx := context.Background()
	apply := func(c Change) {
		t.Helper()
		if _, err := s.Apply(ctx, c); err != nil {
			t.Fatal(err)
		}
	}
	apply(Change{Kind: memlog.OpAdd, Path: "memory/decisions/structured-logging.md", Content: []byte("---\nstatus: resolved\n---\n# Structured logging\nUse slog.\n"), Staging: []string{"e1"}, Reason: "decided in s1"})
	apply(Change{Kind: memlog.OpReplace, Path: "memory/decisions/json-logs.md", Target: "memory/decisions/structured-logging.md", Categories: []memlog.Category{memlog.CategorySuperseded}, Reason: "slog is the canonical decision"})
	if got := read(t, s, "memory/decisions/json-logs.md"); !strings.Contains(got, "status: replaced\n") || !strings.Contains(got, "replaced_by: structured-logging\n") {
		t.Errorf("replaced decision:\n%s", got)
	}
	apply(Change{Kind: memlog.OpDrop, Path: "knowledge/old-ci.md", Categories: []memlog.Category{memlog.CategoryOutdated, memlog.CategoryUnused}, Reason: "Jenkins is gone"})
	// A merge of a decision into another replaces it (never deletes it)
	// and the target takes its sources.
	apply(Change{Kind: memlog.OpMerge, Path: "memory/decisions/use-sqlite.md", Target: "memory/decisions/structured-logging.md",
		Content: []byte("---\nstatus: resolved\n---\n# Structured logging\nUse slog.\nEmbedded SQLite, no server.\n"), Categories: []memlog.Category{memlog.CategoryNoisy}, Reason: "one record"})
	if got := read(t, s, "memory/decisions/use-sqlite.md"); !strings.Contains(got, "replaced_by: structured-logging") {
		t.Errorf("merged decision not replaced:\n%s", got)
	}
	if got := read(t, s, "memory/decisions/structured-logging.md"); !strings.Contains(got, "session_id: s0") || !strings.Contains(got, "session_id: s1") {
		t.Errorf("merge lost sources:\n%s", got)
	}
	// A split of a protected record: the new part is protected too.
	apply(Change{Kind: memlog.OpSplit, Path: "memory/decisions/frequently-used.md", Target: "memory/decisions/frequently-used-facts.md",
		Content:    []byte("---\nstatus: resolved\n---\n# Facts\none, two, three, four, five, six.\n"),
		Rest:       []byte(decision("resolved", "# Frequently used\nA long body that people read all the time, with many facts: see frequently-used-facts.\n")),
		Categories: []memlog.Category{memlog.CategoryNoisy}, Reason: "two subjects"})
	if !s.Protected("memory/decisions/frequently-used-facts.md") {
		t.Error("a split of a protected record is not protected")
	}

	ops := s.Ops()
	var lines []string
	for _, op := range ops {
		lines = append(lines, string(op.Kind)+" "+op.Path)
	}
	if got := strings.Join(lines, "; "); got != "add memory/decisions/structured-logging.md; replace memory/decisions/json-logs.md; drop knowledge/old-ci.md; merge memory/decisions/use-sqlite.md; split memory/decisions/frequently-used.md" {
		t.Errorf("ops: %s", got)
	}
	msg := &memlog.Message{RunID: "r", Engine: "rules", Ops: ops}
	if _, err := msg.Format(); err != nil {
		t.Errorf("the ops do not make a valid message: %v", err)
	}
	var changed []string
	for _, c := range s.Changes().Changes() {
		changed = append(changed, c.Op.String()+" "+c.Path)
	}
	if got := strings.Join(changed, "; "); got != "put memory/decisions/frequently-used-facts.md; put memory/decisions/frequently-used.md; put memory/decisions/json-logs.md; put memory/decisions/structured-logging.md; put memory/decisions/use-sqlite.md; delete knowledge/old-ci.md" &&
		got != "delete knowledge/old-ci.md; put memory/decisions/frequently-used-facts.md; put memory/decisions/frequently-used.md; put memory/decisions/json-logs.md; put memory/decisions/structured-logging.md; put memory/decisions/use-sqlite.md" {
		t.Errorf("changes: %s", got)
	}
}

// TestSessionAddThenDrop: a record added and removed in one run leaves
// no change; an add then update is one add.
func TestSessionAddThenDrop(t *testing.T) {
	s := newTestSession(t, nil)
	ctx := context.Background()
	req := []byte("---\n---\n# Dark mode\nThe user wants a dark theme.\n")
	if _, err := s.Apply(ctx, Change{Kind: memlog.OpAdd, Path: "memory/requests/dark-mode.md", Content: req, Staging: []string{"e1"}, Reason: "asked"}); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Apply(ctx, Change{Kind: memlog.OpUpdate, Path: "memory/requests/dark-mode.md", Content: []byte("---\n---\n# Dark mode\nThe user wants a dark theme, by default.\n"), Staging: []string{"e2"}, Reason: "again"}); err != nil {
		t.Fatal(err)
	}
	if ops := s.Ops(); len(ops) != 1 || ops[0].Kind != memlog.OpAdd {
		t.Errorf("add + update = %v, want one add", ops)
	}
	s.in.Usage["memory/requests/dark-mode.md"] = RecordUsage{Known: true, Unused: true}
	if _, err := s.Apply(ctx, Change{Kind: memlog.OpDrop, Path: "memory/requests/dark-mode.md", Categories: []memlog.Category{memlog.CategoryNoisy}, Reason: "not needed"}); err != nil {
		t.Fatal(err)
	}
	if n := s.Changes().Len(); n != 0 {
		t.Errorf("added then dropped: %d changes", n)
	}
}

func TestSessionStopsWithContext(t *testing.T) {
	s := newTestSession(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := s.Apply(ctx, Change{Kind: memlog.OpUpdate, Path: "memory/summary.md", Content: []byte(summary + "x\n"), Reason: "r"}); !errors.Is(err, context.Canceled) {
		t.Fatalf("Apply after cancel = %v", err)
	}
}

// TestSessionSimilarSlugWarning: a change that adds a record whose slug
// looks like another's gets the similar-slugs warning (merge
// candidates); an update of a record that already had such a neighbour
// does not repeat it.
func TestSessionSimilarSlugWarning(t *testing.T) {
	s := newTestSession(t, func(in *Input) {
		files := baseFiles()
		files["memory/decisions/json-log.md"] = []byte(decision("resolved", "# JSON log\nOne.\n", "s0"))
		in.Base = record.MapSnapshot(files)
	})
	ctx := context.Background()
	w, err := s.Apply(ctx, Change{Kind: memlog.OpUpdate, Path: "memory/decisions/json-logs.md", Content: []byte(decision("resolved", "# JSON logs\nLog as JSON lines, one per event.\n")), Reason: "r"})
	if err != nil {
		t.Fatal(err)
	}
	if len(w) != 0 {
		t.Errorf("an update repeats warnings about its slug: %v", w)
	}
	w, err = s.Apply(ctx, Change{Kind: memlog.OpAdd, Path: "memory/decisions/use-sqlites.md", Content: []byte("---\nstatus: resolved\n---\n# SQLite again\n"), Staging: []string{"e1"}, Reason: "r"})
	if err != nil {
		t.Fatal(err)
	}
	if len(w) != 1 || w[0].Rule != lint.RuleSimilarSlugs || !strings.Contains(w[0].Message, "use-sqlite") {
		t.Errorf("an add of a near-duplicate slug: warnings %v", w)
	}
}

// TestSessionLockPatterns: a path a lock pattern matches is refused,
// whether its record exists or not.
func TestSessionLockPatterns(t *testing.T) {
	s := newTestSession(t, func(in *Input) { in.LockPatterns = []string{"memory/decisions/db-*.md", "knowledge"} })
	ctx := context.Background()
	for _, c := range []Change{
		{Kind: memlog.OpAdd, Path: "memory/decisions/db-engine.md", Content: []byte("---\nstatus: resolved\n---\n# DB\n"), Staging: []string{"e1"}, Reason: "r"},
		{Kind: memlog.OpUpdate, Path: ".yoi/knowledge/retry-policy.md", Content: []byte(knowledge("x", "y\n")), Reason: "r"},
	} {
		_, err := s.Apply(ctx, c)
		var r *Refusal
		if !errors.As(err, &r) || !strings.Contains(err.Error(), "is locked") {
			t.Errorf("%s %s: %v", c.Kind, c.Path, err)
		}
	}
	if !s.Locked("memory/decisions/db-x.md") || s.Locked("memory/decisions/use-sqlite.md") {
		t.Error("Locked disagrees with the patterns")
	}
	if _, err := s.Apply(ctx, Change{Kind: memlog.OpAdd, Path: "memory/decisions/use-postgres.md", Content: []byte("---\nstatus: resolved\n---\n# PG\n"), Staging: []string{"e1"}, Reason: "r"}); err != nil {
		t.Errorf("an unlocked path: %v", err)
	}
}

// TestSessionTrimSetsUpdatedAt: a trim that only drops sources changes
// the record's bytes, so its updated_at is the run's time; the trim
// changes those two fields and nothing else, whether the content given
// lists the sources or not (the session sets them).
func TestSessionTrimSetsUpdatedAt(t *testing.T) {
	body := "# Old sources\nKept as it is.\n"
	old := decision("resolved", body, "a1", "a2", "a3")
	want := strings.Replace(decision("resolved", body, "a3"), "updated_at: 2026-01-01T00:00:00Z", "updated_at: 2026-03-04T05:06:07Z", 1)
	for name, content := range map[string]string{"as it is": old, "no sources given": decision("resolved", body)} {
		t.Run(name, func(t *testing.T) {
			s := newTestSession(t, func(in *Input) {
				files := baseFiles()
				files["memory/decisions/old-sources.md"] = []byte(old)
				in.Base = record.MapSnapshot(files)
			})
			if _, err := s.Apply(context.Background(), Change{Kind: memlog.OpTrim, Path: "memory/decisions/old-sources.md", Content: []byte(content), KeepSources: 1, Categories: []memlog.Category{memlog.CategoryNoisy}, Reason: "too many sources"}); err != nil {
				t.Fatal(err)
			}
			if got := read(t, s, "memory/decisions/old-sources.md"); got != want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}
