package agent

import (
	"context"
	"encoding/json"
	"flag"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/llm/apis"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

var runTime = time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)

// sampleFiles are the .yoi/ files of testdata/repos/sample.txtar,
// .yoi/-relative, with the two fixes the demo (install.sh --demo) makes
// before it consolidates: the request gets its sources, and the
// knowledge record #request-ids names is written. A base with lint
// errors could never be committed to.
func sampleFiles(t testing.TB) map[string][]byte {
	t.Helper()
	files := rawSampleFiles(t)
	req := "memory/requests/checkout-retries.md"
	files[req] = []byte(strings.Replace(string(files[req]), "updated_at: 2025-12-10T08:00:00Z\n", "updated_at: 2025-12-10T08:00:00Z\nsources:\n  - {session_id: 0193a1b2-7c00-7d11-8e22-33445566aaee, range: [5, 18]}\n", 1))
	files["knowledge/request-ids.md"] = []byte(`---
kind: rule
description: Every log line carries the request ID; read before adding logging.
model_invokation: false
user_invocable: true
created_at: 2025-12-09T11:00:00Z
updated_at: 2025-12-09T11:00:00Z
last_sources:
  - {session_id: 0193a1b2-7c00-7d11-8e22-33445566aadd, range: [60, 77]}
---
# Request IDs

Middleware puts the ID in the context; slog handlers read it from there.
`)
	return files
}

// rawSampleFiles are the .yoi/ files of testdata/repos/sample.txtar as
// committed, .yoi/-relative.
func rawSampleFiles(t testing.TB) map[string][]byte {
	t.Helper()
	a, err := txtar.ParseFile(filepath.Join("..", "..", "testdata", "repos", "sample.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, f := range a.Files {
		if rel, ok := strings.CutPrefix(f.Name, ".yoi/"); ok {
			files[rel] = f.Data
		}
	}
	return files
}

// tinyshopEntry is the staging entry the demo's extract makes of the
// tinyshop session (its recorded answer, testdata/sessions).
func tinyshopEntry(t testing.TB) extract.Staging {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "sessions", "tinyshop.replay.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Responses []struct {
			JSON extract.Activity `json:"json"`
		} `json:"responses"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return extract.Staging{
		Version: extract.StagingVersion, ID: "019ad5e0-7a00-7b00-8c00-000000000001",
		CreatedAt: time.Date(2026, 11, 30, 14, 20, 0, 0, time.UTC),
		Source:    extract.Source{SessionID: "5f0c2e1a-8d7b-4c3e-9a61-2b7d4e9f0c11", Range: [2]int{2, 17}},
		Agent:     "claude-code", Model: "recorded", Activity: f.Responses[0].JSON,
	}
}

// sampleInput is a run over the sample repository's memory and the
// tinyshop entry; mutate adjusts it.
func sampleInput(t testing.TB, mutate func(*consolidate.Input)) *consolidate.Input {
	t.Helper()
	in := &consolidate.Input{
		RunID: "019ad5e1-0000-7000-8000-00000000run1", Now: runTime,
		Base:    record.MapSnapshot(sampleFiles(t)),
		Entries: []extract.Staging{tinyshopEntry(t)},
		Usage: map[string]consolidate.RecordUsage{
			"memory/summary.md":                   {Uses: 40, Frequency: 5, Known: true, Protected: true},
			"knowledge/sqlite-pragmas.md":         {Uses: 12, Frequency: 2.5, Known: true, Protected: true},
			"memory/decisions/json-logs.md":       {Known: true, Unused: true},
			"memory/requests/checkout-retries.md": {Uses: 3, Frequency: 0.4, Known: true},
		},
		Candidates: []string{".yoi/memory/requests/checkout-retries.md"},
		Locked:     map[string]bool{"memory/decisions/use-sqlite.md": true},
		Lint:       lint.DefaultOptions(),
	}
	if mutate != nil {
		mutate(in)
	}
	return in
}

func newSession(t testing.TB, in *consolidate.Input) *consolidate.Session {
	t.Helper()
	s, err := consolidate.NewSession(in)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update to accept):\n--- got\n%s\n--- want\n%s", p, got, want)
	}
}

// A scripted model: each request to the local server is answered by the
// next step, which sees the tool results the request carries (as the
// model would) and says what the model replies. The server speaks the
// Anthropic Messages or the OpenAI Chat Completions wire format.

// seen is a tool result as a request carries it.
type seen struct {
	id, content string
	isError     bool
}

// call is a tool call of a scripted reply; input is its JSON.
type call struct{ name, input string }

// reply is what the scripted model answers: text and tool calls, or an
// HTTP error status, or no answer until the client gives up (stall).
type reply struct {
	text   string
	calls  []call
	status int
	stall  bool
}

type step func(t *testing.T, results []seen) reply

// wires are the wire formats every engine test runs over.
var wires = []string{"anthropic", "openai"}

type scripted struct {
	t     *testing.T
	wire  string
	srv   *httptest.Server
	mu    sync.Mutex
	steps []step
	n     int
	calls int // tool calls made, for their IDs
	// bodies are the requests' JSON bodies, in order.
	bodies [][]byte
}

// newScripted serves steps over wire; a request past the last step fails
// the test and gets a 500.
func newScripted(t *testing.T, wire string, steps ...step) *scripted {
	t.Helper()
	s := &scripted{t: t, wire: wire, steps: steps}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

func (s *scripted) requests() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

func (s *scripted) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	s.mu.Lock()
	s.bodies = append(s.bodies, body)
	n := s.n
	s.n++
	s.mu.Unlock()
	if n >= len(s.steps) {
		s.t.Errorf("request %d: the script has %d steps", n+1, len(s.steps))
		http.Error(w, `{"error":{"type":"api_error","message":"script over"}}`, 500)
		return
	}
	var results []seen
	if s.wire == "anthropic" {
		results = anthropicResults(s.t, body)
	} else {
		results = openAIResults(s.t, body)
	}
	rep := s.steps[n](s.t, results)
	w.Header().Set("Content-Type", "application/json")
	switch {
	case rep.stall:
		select {
		case <-r.Context().Done():
		case <-time.After(20 * time.Second):
		}
	case rep.status != 0:
		w.WriteHeader(rep.status)
		io.WriteString(w, `{"type":"error","error":{"type":"api_error","message":"scripted failure"}}`)
	default:
		io.WriteString(w, s.encode(rep))
	}
}

func (s *scripted) nextID() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	return "call_" + strconv.Itoa(s.calls)
}

func (s *scripted) encode(rep reply) string {
	if s.wire == "anthropic" {
		var content []map[string]any
		if rep.text != "" {
			content = append(content, map[string]any{"type": "text", "text": rep.text})
		}
		for _, c := range rep.calls {
			content = append(content, map[string]any{"type": "tool_use", "id": s.nextID(), "name": c.name, "input": json.RawMessage(c.input)})
		}
		stop := "end_turn"
		if len(rep.calls) > 0 {
			stop = "tool_use"
		}
		return mustJSON(s.t, map[string]any{
			"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
			"content": content, "stop_reason": stop, "stop_sequence": nil,
			"usage": map[string]any{"input_tokens": 100, "output_tokens": 10},
		})
	}
	msg := map[string]any{"role": "assistant", "content": nil, "refusal": nil}
	if rep.text != "" {
		msg["content"] = rep.text
	}
	finish := "stop"
	if len(rep.calls) > 0 {
		var tcs []any
		for _, c := range rep.calls {
			tcs = append(tcs, map[string]any{"id": s.nextID(), "type": "function", "function": map[string]any{"name": c.name, "arguments": c.input}})
		}
		msg["tool_calls"] = tcs
		finish = "tool_calls"
	}
	return mustJSON(s.t, map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": "gpt-test",
		"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "logprobs": nil, "message": msg}},
		"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": 10, "total_tokens": 110},
	})
}

func mustJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// anthropicResults are the tool results of the request's last message.
func anthropicResults(t *testing.T, body []byte) []seen {
	var req struct {
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Errorf("request: %v", err)
		return nil
	}
	last := req.Messages[len(req.Messages)-1]
	var blocks []struct {
		Type      string          `json:"type"`
		ToolUseID string          `json:"tool_use_id"`
		IsError   bool            `json:"is_error"`
		Content   json.RawMessage `json:"content"`
	}
	if json.Unmarshal(last.Content, &blocks) != nil {
		return nil // a text message
	}
	var out []seen
	for _, b := range blocks {
		if b.Type != "tool_result" {
			continue
		}
		var parts []struct {
			Text string `json:"text"`
		}
		var text string
		if json.Unmarshal(b.Content, &parts) == nil {
			for _, p := range parts {
				text += p.Text
			}
		} else {
			_ = json.Unmarshal(b.Content, &text)
		}
		out = append(out, seen{id: b.ToolUseID, content: text, isError: b.IsError})
	}
	return out
}

// openAIResults are the tool messages after the request's last
// assistant message.
func openAIResults(t *testing.T, body []byte) []seen {
	var req struct {
		Messages []struct {
			Role       string `json:"role"`
			Content    any    `json:"content"`
			ToolCallID string `json:"tool_call_id"`
		} `json:"messages"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Errorf("request: %v", err)
		return nil
	}
	var out []seen
	for i := len(req.Messages) - 1; i >= 0 && req.Messages[i].Role != "assistant"; i-- {
		m := req.Messages[i]
		if m.Role != "tool" {
			continue
		}
		text, _ := m.Content.(string)
		isErr := strings.HasPrefix(text, "Error: ")
		out = append([]seen{{id: m.ToolCallID, content: strings.TrimPrefix(text, "Error: "), isError: isErr}}, out...)
	}
	return out
}

// provider opens the in-process provider of wire against the server.
func (s *scripted) provider(t *testing.T, opts llm.Options) llm.Provider {
	t.Helper()
	env := map[string]string{"ANTHROPIC_API_KEY": "sk-test", "ANTHROPIC_BASE_URL": s.srv.URL, "OPENAI_API_KEY": "sk-test", "OPENAI_BASE_URL": s.srv.URL}
	opts.Getenv = func(k string) string { return env[k] }
	if opts.MaxRetries == 0 {
		opts.MaxRetries = llm.NoRetries
	}
	p, err := apis.Open(s.wire, "test-model", opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// quick bounds a test's run.
func quick(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// js marshals v as a tool call's input.
func js(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

// calls is a reply of tool calls.
func calls(cs ...call) reply { return reply{calls: cs} }

// reportStep ends a script: it reports.
func reportStep(summary string) step {
	return func(*testing.T, []seen) reply {
		return calls(call{ToolReport, js(map[string]string{"summary": summary})})
	}
}

// expect checks that the model saw len(want) results, each an error when
// its want begins with "ERR:", each containing the rest of its want.
func expect(t *testing.T, got []seen, want ...string) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("the model saw %d results, want %d: %+v", len(got), len(want), got)
	}
	for i, w := range want {
		isErr := strings.HasPrefix(w, "ERR:")
		w = strings.TrimPrefix(w, "ERR:")
		if got[i].isError != isErr || !strings.Contains(got[i].content, w) {
			t.Errorf("result %d: error %v, %q; want error %v containing %q", i+1, got[i].isError, got[i].content, isErr, w)
		}
	}
}

// at is a tool input's path.
func at(path string) memory.PathInput { return memory.PathInput{Path: path} }
