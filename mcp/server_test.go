package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memory"
)

const rec = "---\nkind: rule\ndescription: How to retry\nmodel_invokation: true\nuser_invocable: true\ncreated_at: 2026-01-05T09:30:00Z\nupdated_at: 2026-01-05T09:30:00Z\nlast_sources: []\n---\nRetry twice.\n"

func connect(t *testing.T, write bool) (*sdk.ClientSession, *memory.MapStore) {
	t.Helper()
	store := &memory.MapStore{Files: map[string][]byte{"knowledge/retry-policy.md": []byte(rec)}}
	srv := NewServer(&memory.Tools{Store: store, Lint: lint.DefaultOptions()}, Options{Write: write, Search: memory.Options{ExcerptLines: 1}, Version: "test"})
	st, ct := sdk.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs, store
}

func toolNames(t *testing.T, cs *sdk.ClientSession) string {
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
	}
	sort.Strings(names)
	return strings.Join(names, " ")
}

func call(t *testing.T, cs *sdk.ClientSession, name string, args any) (*sdk.CallToolResult, string) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &sdk.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatal(err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*sdk.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	return res, text.String()
}

func TestReadOnlyByDefault(t *testing.T) {
	cs, _ := connect(t, false)
	if got := toolNames(t, cs); got != "knowledge_search memory_read memory_search" {
		t.Fatalf("tools: %s", got)
	}
	res, _ := call(t, cs, "knowledge_search", map[string]any{"query": "retry"})
	var out memory.SearchOutput
	b, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(b, &out); err != nil || len(out.Hits) != 1 || out.Hits[0].Slug != "retry-policy" || !out.Hits[0].ModelInvokation {
		t.Fatalf("search: %s (%v)", b, err)
	}
	if _, text := call(t, cs, "memory_read", map[string]any{"path": "knowledge/retry-policy.md"}); !strings.Contains(text, "Retry twice.") {
		t.Fatalf("read: %s", text)
	}
	if res, text := call(t, cs, "memory_read", map[string]any{"path": "../../etc/passwd"}); !res.IsError || !strings.Contains(text, "path-unsafe") {
		t.Fatalf("read outside .yoi/: %v %s", res.IsError, text)
	}
	if res, text := call(t, cs, "knowledge_search", map[string]any{"query": ""}); !res.IsError || !strings.Contains(text, "empty query") {
		t.Fatalf("empty query: %v %s", res.IsError, text)
	}
}

func TestWriteTools(t *testing.T) {
	cs, store := connect(t, true)
	if got := toolNames(t, cs); got != "knowledge_search memory_delete memory_edit memory_read memory_search memory_write" {
		t.Fatalf("tools: %s", got)
	}
	// a refusal is a tool error the model can read
	res, text := call(t, cs, "memory_write", map[string]any{"path": "knowledge/retry-policy.md", "content": rec, "create": true})
	if !res.IsError || !strings.Contains(text, "slug-exists") {
		t.Fatalf("create existing: %v %s", res.IsError, text)
	}
	res, text = call(t, cs, "memory_edit", map[string]any{"path": "knowledge/retry-policy.md", "old": "Retry twice.", "new": "Retry three times."})
	if res.IsError {
		t.Fatalf("edit: %s", text)
	}
	if !strings.Contains(string(store.Files["knowledge/retry-policy.md"]), "three times") {
		t.Fatal("edit not written")
	}
	if res, text := call(t, cs, "memory_write", map[string]any{"path": "workflow/x.md", "content": "x"}); !res.IsError || !strings.Contains(text, "workflow-write") {
		t.Fatalf("workflow: %v %s", res.IsError, text)
	}
}

// knowledge_search's description says slug reads one record: query is
// optional with a slug, and a search with neither is a tool error the
// model can read, not a schema refusal.
func TestSearchBySlugAlone(t *testing.T) {
	cs, _ := connect(t, false)
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		b, _ := json.Marshal(tool.InputSchema)
		if strings.Contains(tool.Name, "search") && strings.Contains(string(b), `"required"`) {
			t.Errorf("%s requires %s", tool.Name, b)
		}
	}
	for _, name := range []string{"knowledge_search", "memory_search"} {
		res, text := call(t, cs, name, map[string]any{})
		if !res.IsError || !strings.HasPrefix(text, "empty query: give search terms") {
			t.Errorf("%s without query or slug: %v %s", name, res.IsError, text)
		}
	}
	res, text := call(t, cs, "knowledge_search", map[string]any{"slug": "retry-policy"})
	if res.IsError || !strings.Contains(text, `"slug":"retry-policy"`) {
		t.Fatalf("slug alone: %v %s", res.IsError, text)
	}
	res, text = call(t, cs, "knowledge_search", map[string]any{"slug": "no-such-record"})
	if !res.IsError || !strings.Contains(text, "no-such-record") {
		t.Fatalf("unknown slug: %v %s", res.IsError, text)
	}
}

// A panic in a tool (a bug) is answered as an internal error, noted on
// the log with its stack, and the server goes on serving.
func TestPanicInAToolIsAnswered(t *testing.T) {
	var log strings.Builder
	srv := NewServer(&memory.Tools{Store: newStore(), Lint: lint.DefaultOptions()}, Options{
		Log: &log,
		Searcher: func(_ memory.Scope, q memory.Query) (memory.Result, error) {
			if q.Text == "boom" {
				panic("boom")
			}
			return memory.Result{Hits: []memory.Hit{{Slug: "fine"}}}, nil
		},
	})
	input := initLine + "\n" +
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"boom"}}}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"knowledge_search","arguments":{"query":"fine"}}}` + "\n"
	var out bytes.Buffer
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := srv.Run(ctx, &Transport{In: strings.NewReader(input), Out: &out}); err != nil {
		t.Fatal(err)
	}
	rs := parseReplies(t, out.Bytes())
	if r := byID(rs, "1"); len(r) != 1 || r[0].Error == nil || r[0].Error.Code != -32603 || !strings.Contains(r[0].Error.Message, "internal error in tools/call: boom") {
		t.Fatalf("the call that panicked: %+v", rs)
	}
	if r := byID(rs, "2"); len(r) != 1 || !strings.Contains(string(r[0].Result), "fine") {
		t.Fatalf("the call after: %+v", rs)
	}
	if !strings.Contains(log.String(), "git-yoimem: mcp: internal error in tools/call: boom") || !strings.Contains(log.String(), "goroutine") {
		t.Fatalf("log: %s", log.String())
	}
}

// TestToolsAsDefined: the server offers the memory tools exactly as
// memory.ToolDefs defines them (the one definition the consolidation
// agent offers too): names, descriptions and input and output schemas;
// the write tools only with Write.
func TestToolsAsDefined(t *testing.T) {
	for _, write := range []bool{false, true} {
		cs, _ := connect(t, write)
		res, err := cs.ListTools(context.Background(), nil)
		if err != nil {
			t.Fatal(err)
		}
		served := map[string]*sdk.Tool{}
		for _, tl := range res.Tools {
			served[tl.Name] = tl
		}
		want := 0
		for _, d := range memory.ToolDefs() {
			tl, ok := served[d.Name]
			if d.Writes && !write {
				if ok {
					t.Errorf("%s served without Write", d.Name)
				}
				continue
			}
			want++
			if !ok {
				t.Errorf("%s not served (write %v)", d.Name, write)
				continue
			}
			if tl.Description != d.Description {
				t.Errorf("%s: description %q; want %q", d.Name, tl.Description, d.Description)
			}
			for what, pair := range map[string][2]any{"input": {tl.InputSchema, must(d.InputSchema())}, "output": {tl.OutputSchema, must(d.OutputSchema())}} {
				got, def := jsonValue(pair[0]), jsonValue(pair[1])
				if !reflect.DeepEqual(got, def) {
					t.Errorf("%s: %s schema served\n%s\nwant\n%s", d.Name, what, got, def)
				}
			}
		}
		if len(served) != want {
			t.Errorf("%d tools served; want %d", len(served), want)
		}
	}
}

// jsonValue is v as JSON decodes it (maps, not key order).
func jsonValue(v any) any {
	b, _ := json.Marshal(v)
	var out any
	json.Unmarshal(b, &out)
	return out
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
