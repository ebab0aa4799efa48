package agent

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
)

// newToolbox is the toolbox of a run over the sample.
func newToolbox(t *testing.T, mutate func(*consolidate.Input)) (*toolbox, *consolidate.Session) {
	t.Helper()
	s := newSession(t, sampleInput(t, mutate))
	e := Engine{Search: memory.Options{MaxResults: 10, ExcerptLines: 1}}
	_, tb, err := e.start(s)
	if err != nil {
		t.Fatal(err)
	}
	return tb, s
}

// do runs one call and returns what the model would see.
func do(t *testing.T, tb *toolbox, name, input string) (string, bool) {
	t.Helper()
	out, err := tb.call(context.Background(), llm.ToolCall{ID: "c", Name: name, Input: []byte(input)})
	if err != nil {
		t.Fatalf("%s %s: %v", name, input, err)
	}
	return out.result.Content, out.result.IsError
}

// TestToolCalls: what each tool answers, in sequence over one session.
func TestToolCalls(t *testing.T) {
	tb, s := newToolbox(t, nil)
	steps := []struct {
		name, input string
		isErr       bool
		want        []string
	}{
		// Reads show what guards a record, and the staging entries.
		{ToolMemoryRead, js(ReadInput{PathInput: at("memory/summary.md")}), false, []string{"=== .yoi/memory/summary.md (protected: 5.00 uses per Mtoken) ===\n---\nupdated_at:"}},
		{ToolMemoryRead, js(ReadInput{PathInput: at(".yoi/memory/decisions/use-sqlite.md")}), false, []string{"(locked: never changed)"}},
		{ToolMemoryRead, js(ReadInput{PathInput: at(".yoi/memory/decisions/json-logs.md")}), false, []string{"(unused)"}},
		{ToolMemoryRead, js(ReadInput{PathInput: at(".yoi/memory/_staging/019ad5e0-7a00-7b00-8c00-000000000001.json")}), false, []string{"e1: staging entry 019ad5e0-7a00-7b00-8c00-000000000001, session 5f0c2e1a-8d7b-4c3e-9a61-2b7d4e9f0c11 entries 2-17", "- failed: exponential backoff retrying every error"}},
		{ToolMemoryRead, js(ReadInput{PathInput: at(".yoi/memory/_staging/0000.json")}), true, []string{"is not a staging entry of this run: this run's only entry is e1"}},
		{ToolMemoryRead, js(ReadInput{PathInput: at(".yoi/knowledge/nope.md")}), true, []string{".yoi/knowledge/nope.md: no such record; find records with memory_search or knowledge_search"}},
		// Searches answer as the MCP server does.
		{ToolKnowledgeSearch, js(memory.SearchInput{Query: "wal"}), false, []string{`"path":".yoi/knowledge/sqlite-pragmas.md"`, `"more":0`}},
		{ToolMemorySearch, js(memory.SearchInput{Kind: "decision"}), false, []string{`"slug":"json-logs"`, `"slug":"structured-logging"`, `"slug":"use-sqlite"`}},
		{ToolMemorySearch, js(memory.SearchInput{}), true, []string{"empty query"}},
		// A new decision by the entry's ID, then the open one replaced by
		// it, named by its slug.
		{ToolMemoryWrite, js(WriteInput{PathInput: at("memory/decisions/slog-request-ids.md"), Content: "---\nstatus: resolved\n---\n# Request IDs in every log line\nYes: the middleware puts them in the context.\n", Reason: "settled", StagingIDs: []string{"019ad5e0-7a00-7b00-8c00-000000000001"}}), false, []string{"Done: add .yoi/memory/decisions/slog-request-ids.md; sources from e1 attached."}},
		{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/memory/decisions/structured-logging.md"), Operation: "replace", Target: "slog-request-ids", Categories: []string{"superseded"}, Reason: "settled by slog-request-ids"}), false, []string{"Done: replace .yoi/memory/decisions/structured-logging.md -> .yoi/memory/decisions/slog-request-ids.md."}},
		// Edits: one occurrence, or a clear error.
		{ToolMemoryEdit, js(EditInput{PathInput: at(".yoi/memory/requests/checkout-retries.md"), Old: "twice", New: "twice", Reason: "r"}), true, []string{"it changes nothing"}},
		{ToolMemoryEdit, js(EditInput{PathInput: at(".yoi/memory/requests/checkout-retries.md"), Old: "thrice", New: "x", Reason: "r"}), true, []string{"does not occur in .yoi/memory/requests/checkout-retries.md; read the record again"}},
		{ToolMemoryEdit, js(EditInput{PathInput: at(".yoi/memory/requests/checkout-retries.md"), Old: "e", New: "x", Reason: "r"}), true, []string{"occurs"}},
		{ToolMemoryEdit, js(EditInput{PathInput: at(".yoi/memory/requests/checkout-retries.md"), Old: "twice with\nbackoff", New: "CHECKOUT_RETRIES times (default 2) with\njittered backoff", Reason: "made configurable", StagingIDs: []string{"e1"}}), false, []string{"Done: update .yoi/memory/requests/checkout-retries.md; sources from e1 attached."}},
		{ToolMemoryEdit, js(EditInput{PathInput: at(".yoi/memory/requests/checkout-retries.md"), Old: "x", New: "y", Operation: "merge", Reason: "r"}), true, []string{`operation "merge": memory_edit makes an update, trim or rewrite`}},
		{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/memory/requests/checkout-retries.md"), Operation: "squash", Reason: "r"}), true, []string{`unknown operation "squash"`}},
		// Reads see the run's own changes.
		{ToolMemoryRead, js(ReadInput{PathInput: at(".yoi/memory/decisions/structured-logging.md")}), false, []string{"status: replaced\nreplaced_by: slog-request-ids\n"}},
		{ToolMemorySearch, js(memory.SearchInput{Query: "CHECKOUT_RETRIES"}), false, []string{`"slug":"checkout-retries"`}},
	}
	for i, st := range steps {
		got, isErr := do(t, tb, st.name, st.input)
		if isErr != st.isErr {
			t.Errorf("step %d %s: error %v, want %v: %s", i+1, st.name, isErr, st.isErr, got)
		}
		for _, w := range st.want {
			if !strings.Contains(got, w) {
				t.Errorf("step %d %s: %q lacks %q", i+1, st.name, got, w)
			}
		}
	}
	if got := strings.Join(s.Used(), ","); got != "019ad5e0-7a00-7b00-8c00-000000000001" {
		t.Errorf("Used = %s", got)
	}
	rec, _ := s.Snapshot().Read("memory/requests/checkout-retries.md")
	if !strings.Contains(string(rec), "session_id: 5f0c2e1a-8d7b-4c3e-9a61-2b7d4e9f0c11") {
		t.Errorf("the request did not get its source:\n%s", rec)
	}
}

// TestToolResultBound: a result over the budget is refused with its size,
// the limit and the setting, never cut.
func TestToolResultBound(t *testing.T) {
	tb, _ := newToolbox(t, func(in *consolidate.Input) {
		files := sampleFiles(t)
		files["knowledge/huge.md"] = []byte("---\nkind: fact\ndescription: big\nmodel_invokation: false\nuser_invocable: true\n---\n" + strings.Repeat("word ", 20000))
		in.Base = record.MapSnapshot(files)
	})
	got, isErr := do(t, tb, ToolMemoryRead, js(ReadInput{PathInput: at("knowledge/huge.md")}))
	if !isErr || !strings.Contains(got, ".yoi/knowledge/huge.md is 100,112 characters, over the limit of 60,000 for one tool result (yoimem.consolidate.budgetChars)") {
		t.Errorf("read: %v %s", isErr, got)
	}
	got, isErr = do(t, tb, ToolKnowledgeSearch, js(memory.SearchInput{Slug: "huge"}))
	if !isErr || !strings.Contains(got, "the search's answer is") || !strings.Contains(got, "over the limit of 60,000") {
		t.Errorf("search: %v %s", isErr, got)
	}
}

// TestTidyUpTools: merge, split, trim of sources and new knowledge from
// the candidate report, through the tools.
func TestTidyUpTools(t *testing.T) {
	tb, s := newToolbox(t, func(in *consolidate.Input) {
		files := sampleFiles(t)
		files["memory/requests/retry-checkout.md"] = []byte("---\ncreated_at: 2025-12-11T08:00:00Z\nupdated_at: 2025-12-11T08:00:00Z\nsources:\n  - {session_id: dup-1, range: [1, 4]}\n  - {session_id: dup-2, range: [1, 4]}\n  - {session_id: dup-3, range: [1, 4]}\n---\n# Retry checkouts\n\nSame ask as checkout-retries, in other words.\n")
		in.Base = record.MapSnapshot(files)
	})
	merged := "---\n---\n# Retry failed checkouts\n\nThe user asked that checkout retries a failed payment call twice with\nbackoff, and never retries a declined card (asked twice).\n"
	steps := []struct {
		name, input string
		want        string
	}{
		{ToolMemoryEdit, js(EditInput{PathInput: at(".yoi/memory/requests/retry-checkout.md"), Operation: "trim", KeepSources: 1, Categories: []string{"noisy"}, Reason: "three sources of one ask"}), "Done: trim .yoi/memory/requests/retry-checkout.md."},
		{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/memory/requests/retry-checkout.md"), Operation: "merge", Target: ".yoi/memory/requests/checkout-retries.md", Content: merged, Categories: []string{"noisy", "superseded"}, Reason: "the same request twice"}), "Done: merge .yoi/memory/requests/retry-checkout.md -> .yoi/memory/requests/checkout-retries.md."},
		{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/knowledge/checkout-retry-policy.md"), Content: "---\nkind: policy\ndescription: How checkout retries payments; read before touching checkout/retry.go.\nmodel_invokation: false\nuser_invocable: true\n---\n# Checkout retry policy\n\nRetry only timeouts and 5xx, twice, with backoff; never a declined card.\n", DerivedFrom: []string{"memory/requests/checkout-retries.md"}, Reason: "asked for in several sessions"}), "Done: add .yoi/knowledge/checkout-retry-policy.md."},
		{ToolMemoryWrite, js(WriteInput{PathInput: at(".yoi/memory/decisions/structured-logging.md"), Operation: "split", Target: "slog-handlers",
			Content:    "---\nstatus: resolved\n---\n# slog handlers\n\nHandlers read the request ID from the context.\n",
			Rest:       "---\nstatus: open\n---\n# Structured logging with log/slog\n\nOpen: whether request IDs go in every line. Leaning yes; see #request-ids and the slog-handlers decision.\n",
			Categories: []string{"noisy"}, Reason: "two subjects"}), "Done: split .yoi/memory/decisions/structured-logging.md -> .yoi/memory/decisions/slog-handlers.md."},
	}
	for i, st := range steps {
		got, isErr := do(t, tb, st.name, st.input)
		if isErr || !strings.Contains(got, st.want) {
			t.Errorf("step %d %s: error %v: %s\nwant %q", i+1, st.name, isErr, got, st.want)
		}
	}
	var ops []string
	for _, op := range s.Ops() {
		ops = append(ops, fmt.Sprintf("%s %s %v", op.Kind, op.Path, op.Categories))
	}
	if got, want := strings.Join(ops, "; "), "trim memory/requests/retry-checkout.md [noisy]; merge memory/requests/retry-checkout.md [superseded noisy]; add knowledge/checkout-retry-policy.md []; split memory/decisions/structured-logging.md [noisy]"; got != want {
		t.Errorf("ops:\n%s\nwant\n%s", got, want)
	}
	rec, _ := s.Snapshot().Read("memory/requests/checkout-retries.md")
	if !strings.Contains(string(rec), "dup-3") || strings.Contains(string(rec), "dup-1") {
		t.Errorf("the merge target does not hold the trimmed record's remaining source:\n%s", rec)
	}
	if k, _ := s.Snapshot().Read("knowledge/checkout-retry-policy.md"); !strings.Contains(string(k), "last_sources:\n  - {session_id: 0193a1b2-7c00-7d11-8e22-33445566aaee, range: [5, 18]}") {
		t.Errorf("the new knowledge lacks its candidate's sources:\n%s", k)
	}
}

// TestMergeKeepsProtected: a protected record merged away must keep its
// body in the target: a merge that keeps less than half of both bodies
// is a heavy compression, refused like a drop.
func TestMergeKeepsProtected(t *testing.T) {
	dup := "memory/requests/retry-checkout.md"
	tb, s := newToolbox(t, func(in *consolidate.Input) {
		files := sampleFiles(t)
		files[dup] = []byte("---\ncreated_at: 2025-12-11T08:00:00Z\nupdated_at: 2025-12-11T08:00:00Z\nsources:\n  - {session_id: dup-1, range: [1, 4]}\n---\n# Retry checkouts\n\nThe user wants a failed checkout retried: twice, with exponential backoff and jitter,\nand only on timeouts and 5xx answers of the payment provider; never on a decline.\n")
		in.Base = record.MapSnapshot(files)
		in.Usage[dup] = consolidate.RecordUsage{Uses: 9, Frequency: 2, Known: true, Protected: true}
	})
	old, _ := tb.current("memory/requests/checkout-retries.md")
	merge := func(content string) (string, bool) {
		return do(t, tb, ToolMemoryWrite, js(WriteInput{PathInput: at(dup), Operation: "merge", Target: "checkout-retries", Content: content, Categories: []string{"noisy"}, Reason: "the same ask twice"}))
	}
	if got, isErr := merge(old); !isErr || !strings.Contains(got, "never heavily compressed") {
		t.Fatalf("a merge that loses the protected record's body: %v %s", isErr, got)
	}
	kept := strings.Replace(old, "backoff, and never retries a declined card.", "exponential backoff and jitter, only on timeouts and 5xx answers of the\npayment provider, and never retries a declined card.", 1)
	if got, isErr := merge(kept); isErr {
		t.Fatalf("a merge that keeps it: %s", got)
	}
	if !s.Protected("memory/requests/checkout-retries.md") {
		t.Error("the target of a protected record's merge is not protected")
	}
}

// TestSplitKeepsProtected: the two parts of a protected record split in
// two must keep at least half of its body between them.
func TestSplitKeepsProtected(t *testing.T) {
	tb, s := newToolbox(t, nil) // the summary is protected
	split := func(part, rest string) (string, bool) {
		return do(t, tb, ToolMemoryWrite, js(WriteInput{PathInput: at("memory/summary.md"), Operation: "split", Target: "memory/decisions/payments-sandbox.md",
			Content: "---\nstatus: resolved\n---\n# " + part + "\n", Rest: "---\nupdated_at: 2026-01-02T03:04:05Z\n---\n# " + rest + "\n", Categories: []string{"noisy"}, Reason: "two subjects"}))
	}
	if got, isErr := split("Sandbox", "tinyshop"); !isErr || !strings.Contains(got, "never heavily compressed") {
		t.Fatalf("a split that loses the protected body: %v %s", isErr, got)
	}
	if got, isErr := split("Payments\n\nPayments go through the sandbox in development.", "tinyshop\n\nGo HTTP service; SQLite for storage (see #sqlite-pragmas). Run `make test`\nbefore every commit."); isErr {
		t.Fatalf("a split that keeps it: %s", got)
	}
	if !s.Protected("memory/decisions/payments-sandbox.md") {
		t.Error("a part split out of a protected record is not protected")
	}
}
