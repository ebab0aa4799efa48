package llm

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

// scripted is a Provider that answers call i with steps[i].
type scripted struct {
	mu    sync.Mutex
	steps []step
	n     int
}

// step is one scripted answer.
type step struct {
	resp Response
	err  error
}

func (s *scripted) Name() string { return "scripted" }

func (s *scripted) Call(ctx context.Context, req Request) (Response, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.n >= len(s.steps) {
		return Response{}, &Error{Provider: s.Name(), Kind: ErrExhausted}
	}
	st := s.steps[s.n]
	s.n++
	return st.resp, st.err
}

// call is one request of a conversation and the step answering it.
type call struct {
	req  Request
	step step
}

// withTools offers the recall tool.
func withTools(r Request) Request { r.Tools = []Tool{recallTool()}; return r }

// withSchema asks for the memories schema.
func withSchema(r Request) Request { r.Schema = memorySchema(); return r }

// then continues r with the assistant's reply and the next user turn.
func then(r Request, reply Response, next Message) Request {
	r.Messages = append(append([]Message(nil), r.Messages...), Message{Role: RoleAssistant, Text: reply.Text, ToolCalls: reply.ToolCalls}, next)
	return r
}

func errOf(kind error) error {
	return &Error{Provider: "scripted", Status: 500, Kind: kind, Message: "scripted failure"}
}

// agentTurns is a consolidation-like conversation: a brief with a run ID,
// tool calls, their results (one an error), a text reply and a nudge.
func agentTurns() []call {
	brief := withTools(Request{System: "You consolidate memory.", Messages: []Message{{Role: RoleUser, Text: "Consolidation run 019ad5e1-0000-7000-8000-00000000run1, 2026-12-01T09:00:00Z.\n1 staging entry."}}})
	r1 := Response{Text: "Reading first.", ToolCalls: []ToolCall{
		{ID: "toolu_01", Name: "recall", Input: json.RawMessage(`{"query": "retry <&>"}`)},
		{ID: "toolu_02", Name: "recall", Input: json.RawMessage(`{"query":`)},
	}, Usage: Usage{100, 20}, StopReason: "tool_use", Model: "claude-x"}
	turn2 := then(brief, r1, Message{Role: RoleUser, ToolResults: []ToolResult{
		{CallID: "toolu_01", Content: "retry.md: backoff 200 ms"},
		{CallID: "toolu_02", Content: "recall: input is not JSON", IsError: true},
	}})
	r2 := Response{Text: "Nothing more to read.", Usage: Usage{150, 10}, StopReason: "end_turn", Model: "claude-x"}
	turn3 := then(turn2, r2, Message{Role: RoleUser, Text: "Carry on with the tools; when you are done, call report."})
	r3 := Response{ToolCalls: []ToolCall{{ID: "toolu_03", Name: "recall", Input: json.RawMessage(`{"query":"report"}`)}}, Usage: Usage{160, 5}, StopReason: "tool_use", Model: "claude-x"}
	return []call{{brief, step{resp: r1}}, {turn2, step{resp: r2}}, {turn3, step{resp: r3}}}
}

// recordAll runs calls through a Recorder over a scripted provider.
func recordAll(t *testing.T, calls []call) (*Recorder, []step) {
	t.Helper()
	s := &scripted{}
	for _, c := range calls {
		s.steps = append(s.steps, c.step)
	}
	rec := NewRecorder(s)
	var got []step
	for _, c := range calls {
		resp, err := rec.Call(quick(t), c.req)
		got = append(got, step{resp, err})
	}
	return rec, got
}

// replayAll replays calls' requests against a replay file.
func replayAll(t *testing.T, file []byte, calls []call) []step {
	t.Helper()
	p := openReplay(t, string(file))
	var got []step
	for _, c := range calls {
		resp, err := p.Call(quick(t), c.req)
		got = append(got, step{resp, err})
	}
	return got
}

// sameStep says how two answers differ ("" when they do not).
func sameStep(a, b step) string {
	if d := responseDiff(a.resp, b.resp); d != "" {
		return d
	}
	ka, kb := errorKind(a.err), errorKind(b.err)
	if ka != kb {
		return fmt.Sprintf("error %v, want %v", b.err, a.err)
	}
	return ""
}

func TestRecorderRoundTrip(t *testing.T) {
	structured := withSchema(userRequest("Session 5f0c, log entries 2 to 17."))
	agent := agentTurns()
	tests := []struct {
		name  string
		calls []call
	}{
		{"text", []call{{userRequest("hello"), step{resp: Response{Text: "hi", Usage: Usage{3, 1}, StopReason: "end_turn", Model: "m"}}}}},
		{"agent conversation", agent},
		{"schema reply", []call{{structured, step{resp: Response{JSON: json.RawMessage(`{"memories":["a <b>"]}`), Usage: Usage{9, 4}, StopReason: "tool_use", Model: "m"}}}}},
		{"schema reply not compact", []call{{structured, step{resp: Response{Text: "{ \"memories\": [] }", JSON: json.RawMessage(`{ "memories": [] }`), Model: "m"}}}}},
		{"schema with tools, text only", []call{{withTools(structured), step{resp: Response{Text: "let me look", Model: "m"}}}}},
		{"schema with tools and calls", []call{{withTools(structured), step{resp: Response{JSON: json.RawMessage(`{"memories":[]}`), ToolCalls: []ToolCall{{ID: "c9", Name: "recall", Input: json.RawMessage(`{}`)}}, Model: "m"}}}}},
		{"refused locally, then answered", []call{
			{Request{}, step{err: errOf(ErrBadRequest)}},
			{userRequest("hello"), step{resp: Response{Text: "hi"}}},
		}},
		{"failure with usage and an empty model", []call{{userRequest("x"), step{resp: Response{Text: "partial", Usage: Usage{7, 7}, StopReason: "max_tokens"}, err: errOf(ErrInvalidOutput)}}}},
	}
	for _, name := range []string{"rate_limited", "server", "timeout", "refusal", "context_length", "invalid_output", "empty", "auth", "bad_request", "connection"} {
		kind, _ := kindByName(name)
		tests = append(tests, struct {
			name  string
			calls []call
		}{"error " + name, []call{
			{userRequest("first"), step{resp: Response{Usage: Usage{1, 0}}, err: errOf(kind)}},
			{userRequest("second"), step{resp: Response{Text: "after the error", Model: "m"}}},
		}})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rec, recorded := recordAll(t, tt.calls)
			file, err := rec.ReplayFile()
			if err != nil {
				t.Fatal(err)
			}
			if !strings.HasSuffix(string(file), "}\n") || !strings.Contains(string(file), "\n  \"responses\": [") {
				t.Errorf("not indented JSON ending in a newline:\n%s", file)
			}
			for i, got := range replayAll(t, file, tt.calls) {
				if d := sameStep(recorded[i], got); d != "" {
					t.Errorf("call %d: %s\nfile:\n%s", i+1, d, file)
				}
			}
		})
	}
}

func TestRecorderRefuses(t *testing.T) {
	tests := []struct {
		name string
		step step
		req  Request
		want string
	}{
		{"no_key", step{err: errOf(ErrNoKey)}, userRequest("x"), `kind no_key`},
		{"command", step{err: errOf(ErrCommand)}, userRequest("x"), `kind command`},
		{"exhausted", step{err: errOf(ErrExhausted)}, userRequest("x"), `kind exhausted`},
		{"too_large", step{err: errOf(ErrTooLarge)}, userRequest("x"), `kind too_large`},
		{"canceled", step{err: TransportError("scripted", context.Canceled, "")}, userRequest("x"), `kind canceled`},
		{"not an llm error", step{err: errors.New("disk full")}, userRequest("x"), `disk full`},
		{"empty reply", step{resp: Response{Model: "m"}}, userRequest("x"), `empty reply`},
		{"json without a schema", step{resp: Response{JSON: json.RawMessage(`{}`)}}, userRequest("x"), `replayed`},
		{"text without json for a schema", step{resp: Response{Text: "no object"}}, withSchema(userRequest("x")), `replayed`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ok := call{userRequest("first"), step{resp: Response{Text: "fine"}}}
			rec, _ := recordAll(t, []call{ok, {tt.req, tt.step}})
			_, err := rec.ReplayFile()
			if err == nil || !contains(err.Error(), "call 2 of 2", tt.want) {
				t.Fatalf("error %v, want one naming call 2 of 2 and %q", err, tt.want)
			}
		})
	}
}

func TestRecorderMatch(t *testing.T) {
	agent := agentTurns()
	tests := []struct {
		name string
		req  Request
		want string
	}{
		{"brief: its first line before a digit", agent[0].req, "Consolidation run"},
		{"tool results: the first error", agent[1].req, "Tool error (toolu_02):\n"},
		{"nudge: anchored on the reply it follows", agent[2].req, "Assistant:\nNothing more to read.\n\nUser:\nCarry on with the tools; when you are done, call"},
		{"one result", then(agent[2].req, agent[2].step.resp, Message{Role: RoleUser, ToolResults: []ToolResult{{CallID: "toolu_03", Content: "ok"}}}), "Tool result (toolu_03):\n"},
		{"starts with a digit", userRequest("2 entries"), ""},
		{"japanese, cut on a rune", userRequest("統合の実行：記録を整理し、判断の理由と数値を残してください。"), "統合の実行：記録を整理し、判断の"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := matchFor(tt.req)
			if got != tt.want {
				t.Errorf("match %q, want %q", got, tt.want)
			}
			if !strings.Contains(render(tt.req), got) {
				t.Errorf("match %q is not in the rendered request", got)
			}
		})
	}
}

// TestRecorderDrift: a request that differs from the recorded one where
// the match looks fails with ErrExhausted instead of taking an answer
// meant for another request; a changed tool output or run ID does not.
func TestRecorderDrift(t *testing.T) {
	agent := agentTurns()
	rec, _ := recordAll(t, agent)
	file, err := rec.ReplayFile()
	if err != nil {
		t.Fatal(err)
	}
	flipped := then(agent[0].req, agent[0].step.resp, Message{Role: RoleUser, ToolResults: []ToolResult{
		{CallID: "toolu_01", Content: "retry.md: backoff 200 ms"}, {CallID: "toolu_02", Content: "ok now"},
	}})
	nudged := then(agent[0].req, agent[0].step.resp, Message{Role: RoleUser, Text: "Carry on with the tools; when you are done, call report."})
	reworded := then(agent[0].req, agent[0].step.resp, Message{Role: RoleUser, ToolResults: []ToolResult{
		{CallID: "toolu_01", Content: "a different rendering"}, {CallID: "toolu_02", Content: "reworded refusal", IsError: true},
	}})
	rerun := agent[0].req
	rerun.Messages = []Message{{Role: RoleUser, Text: strings.Replace(rerun.Messages[0].Text, "00000000run1", "00000000run2", 1)}}
	tests := []struct {
		name    string
		second  Request
		wantErr bool
	}{
		{"a refused call now succeeds", flipped, true},
		{"a nudge where results were", nudged, true},
		{"tool outputs reworded", reworded, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := openReplay(t, string(file))
			if _, err := p.Call(quick(t), rerun); err != nil {
				t.Fatalf("first turn with another run ID: %v", err)
			}
			resp, err := p.Call(quick(t), tt.second)
			if tt.wantErr {
				wantKind(t, err, ErrExhausted)
				return
			}
			if err != nil || resp.Text != agent[1].step.resp.Text {
				t.Fatalf("%+v %v", resp, err)
			}
		})
	}
}

func TestRecorderConcurrent(t *testing.T) {
	words := []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"}
	var calls []call
	for _, w := range words {
		calls = append(calls, call{userRequest("topic " + w), step{resp: Response{Text: "answer " + w}}})
	}
	// The provider answers each request with its own text, whatever the order.
	answers := map[string]string{}
	for _, c := range calls {
		answers[c.req.Messages[0].Text] = c.step.resp.Text
	}
	rec := NewRecorder(echoProvider(answers))
	var wg sync.WaitGroup
	for _, c := range calls {
		wg.Go(func() {
			if _, err := rec.Call(quick(t), c.req); err != nil {
				t.Error(err)
			}
			_ = rec.Transcript()
		})
	}
	wg.Wait()
	file, err := rec.ReplayFile()
	if err != nil {
		t.Fatal(err)
	}
	p := openReplay(t, string(file))
	for _, c := range calls {
		wg.Go(func() {
			resp, err := p.Call(quick(t), c.req)
			if err != nil || resp.Text != c.step.resp.Text {
				t.Errorf("%s: %+v %v", c.req.Messages[0].Text, resp, err)
			}
		})
	}
	wg.Wait()
}

// echoProvider answers a one-message request from a table.
type echoProvider map[string]string

func (echoProvider) Name() string { return "echo" }

func (e echoProvider) Call(ctx context.Context, req Request) (Response, error) {
	return Response{Text: e[req.Messages[0].Text], Model: "m"}, nil
}

func TestRecorderTranscript(t *testing.T) {
	calls := append(agentTurns(),
		call{withSchema(userRequest("Session 5f0c, log entries 2 to 17.")), step{resp: Response{JSON: json.RawMessage(`{"memories":["a"]}`), Usage: Usage{9, 4}, StopReason: "tool_use", Model: "m"}}},
		call{userRequest("again"), step{resp: Response{Usage: Usage{1, 0}}, err: errOf(ErrRateLimited)}},
		call{Request{}, step{err: errOf(ErrBadRequest)}},
	)
	rec, _ := recordAll(t, calls)
	golden(t, "recorder-transcript.golden", rec.Transcript())
}

// golden compares got with testdata/name; -update rewrites it.
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
		t.Errorf("%s differs (run with -update to rewrite it):\n%s", p, got)
	}
}
