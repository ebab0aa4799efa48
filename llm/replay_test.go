package llm

import (
	"errors"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"testing"
)

// openReplay opens a replay provider over an in-memory file.
func openReplay(t *testing.T, content string) Provider {
	t.Helper()
	p, err := Open("replay:rec.json", Options{ReadFile: func(name string) ([]byte, error) {
		if name != "rec.json" {
			return nil, fs.ErrNotExist
		}
		return []byte(content), nil
	}})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestReplay(t *testing.T) {
	p := openReplay(t, `{"responses":[
		{"match":"second","text":"two","usage":{"input_tokens":5,"output_tokens":1}},
		{"text":"any","model":"m1","stop_reason":"end_turn"},
		{"tool_calls":[{"id":"c1","name":"recall","input":{"query":"q"}}]}
	]}`)
	ctx := quick(t)
	resp, err := p.Call(ctx, userRequest("first"))
	if err != nil || resp.Text != "any" || resp.Model != "m1" || resp.StopReason != "end_turn" {
		t.Fatalf("%+v %v", resp, err)
	}
	resp, err = p.Call(ctx, userRequest("the second"))
	if err != nil || resp.Text != "two" || resp.Model != "replay" || resp.Usage != (Usage{5, 1}) {
		t.Fatalf("%+v %v", resp, err)
	}
	req := userRequest("third")
	req.Tools = []Tool{recallTool()}
	resp, err = p.Call(ctx, req)
	if err != nil || len(resp.ToolCalls) != 1 || resp.ToolCalls[0].Name != "recall" || string(resp.ToolCalls[0].Input) != `{"query":"q"}` {
		t.Fatalf("%+v %v", resp, err)
	}
	_, err = p.Call(ctx, userRequest("fourth"))
	if e := wantKind(t, err, ErrExhausted); !strings.Contains(e.Message, "rec.json") {
		t.Errorf("message %q does not name the file", e.Message)
	}
}

func TestReplayStructured(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		wantErr error
		want    string
	}{
		{"json", `{"responses":[{"json":{"memories":["a"]}}]}`, nil, `{"memories":["a"]}`},
		{"text", `{"responses":[{"text":"ok: {\"memories\":[]}"}]}`, nil, `{"memories":[]}`},
		{"repaired", `{"responses":[{"json":{"memories":1}},{"match":"does not match the schema","json":{"memories":["b"]}}]}`, nil, `{"memories":["b"]}`},
		{"violation twice", `{"responses":[{"json":{"memories":1}},{"json":{}}]}`, ErrInvalidOutput, ""},
		{"repair exhausted", `{"responses":[{"json":{"memories":1}}]}`, ErrExhausted, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := userRequest("x")
			req.Schema = memorySchema()
			resp, err := openReplay(t, tt.file).Call(quick(t), req)
			if tt.wantErr != nil {
				wantKind(t, err, tt.wantErr)
				return
			}
			if err != nil || string(resp.JSON) != tt.want {
				t.Fatalf("%s %v", resp.JSON, err)
			}
		})
	}
}

func TestReplayErrors(t *testing.T) {
	for name, kind := range map[string]error{
		"rate_limited": ErrRateLimited, "server": ErrServer, "timeout": ErrTimeout, "refusal": ErrRefusal,
		"context_length": ErrContextLength, "invalid_output": ErrInvalidOutput, "empty": ErrEmpty,
		"auth": ErrAuth, "bad_request": ErrBadRequest, "connection": ErrConnection,
	} {
		_, err := openReplay(t, `{"responses":[{"error":"`+name+`"}]}`).Call(quick(t), userRequest("x"))
		if !errors.Is(err, kind) {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestReplayBadFile(t *testing.T) {
	for _, content := range []string{`{"responses":[{"error":"nope"}]}`, `{"responses":[{"txt":"typo"}]}`, `not json`} {
		_, err := Open("replay:rec.json", Options{ReadFile: func(string) ([]byte, error) { return []byte(content), nil }})
		if err == nil || !strings.Contains(err.Error(), "rec.json") {
			t.Errorf("%s: %v", content, err)
		}
	}
	_, err := Open("replay:missing.json", Options{ReadFile: func(string) ([]byte, error) { return nil, fs.ErrNotExist }})
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "missing.json") {
		t.Errorf("%v", err)
	}
}

func TestReplayConcurrent(t *testing.T) {
	const n = 50
	var entries []string
	for i := range n {
		entries = append(entries, fmt.Sprintf(`{"text":"r%02d"}`, i))
	}
	p := openReplay(t, `{"responses":[`+strings.Join(entries, ",")+`]}`)
	var (
		wg   sync.WaitGroup
		mu   sync.Mutex
		got  []string
		errs int
	)
	for range n + 5 {
		wg.Go(func() {
			resp, err := p.Call(quick(t), userRequest("x"))
			mu.Lock()
			defer mu.Unlock()
			if errors.Is(err, ErrExhausted) {
				errs++
				return
			}
			got = append(got, resp.Text)
		})
	}
	wg.Wait()
	sort.Strings(got)
	if errs != 5 || len(got) != n {
		t.Fatalf("%d replies, %d exhausted", len(got), errs)
	}
	for i, s := range got {
		if s != fmt.Sprintf("r%02d", i) {
			t.Fatalf("reply %d is %q: an entry was used twice", i, s)
		}
	}
}

func TestOpen(t *testing.T) {
	for _, model := range []string{"", "claude-3", "anthropic:", "gpt:4o", "command:", "command:'unterminated"} {
		_, err := Open(model, Options{})
		if err == nil || !strings.Contains(err.Error(), model) {
			t.Errorf("Open(%q): %v", model, err)
		}
		if err != nil && !strings.HasPrefix(model, "command:") && !strings.Contains(err.Error(), `"replay:<file>"`) {
			t.Errorf("Open(%q): %v does not list the valid forms", model, err)
		}
	}
	p, err := Open("command:echo hi", Options{})
	if err != nil || p.Name() != "command" {
		t.Fatalf("%v %v", p, err)
	}
}

func TestBadRequests(t *testing.T) {
	p := openReplay(t, `{"responses":[{"text":"never"}]}`)
	schema := memorySchema()
	tests := []struct {
		name string
		req  Request
	}{
		{"no messages", Request{}},
		{"bad role", Request{Messages: []Message{{Role: "system", Text: "x"}}}},
		{"empty message", Request{Messages: []Message{{Role: RoleUser}}}},
		{"bad schema", Request{Messages: []Message{{Role: RoleUser, Text: "x"}}, Schema: &Schema{Name: "s", JSON: []byte(`{"type":`)}}},
		{"tool named like the schema", Request{Messages: []Message{{Role: RoleUser, Text: "x"}}, Schema: schema, Tools: []Tool{{Name: "memories"}}}},
	}
	for _, tt := range tests {
		_, err := p.Call(quick(t), tt.req)
		if !errors.Is(err, ErrBadRequest) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
}

// TestReplayExactFields: what a recording needs the replay file to say
// exactly: an input that is not compact JSON (input_text), an empty model,
// the tool calls and usage of a failed call, an indented input read compact.
func TestReplayExactFields(t *testing.T) {
	tests := []struct {
		name    string
		file    string
		wantErr error
		check   func(Response) bool
	}{
		{"input_text", `{"responses":[{"tool_calls":[{"id":"c1","name":"recall","input_text":"{\"query\": \"q\"}"}]}]}`, nil,
			func(r Response) bool {
				return len(r.ToolCalls) == 1 && string(r.ToolCalls[0].Input) == `{"query": "q"}`
			}},
		{"invalid input_text", `{"responses":[{"tool_calls":[{"id":"c1","name":"recall","input_text":"{\"query\":"}]}]}`, nil,
			func(r Response) bool { return string(r.ToolCalls[0].Input) == `{"query":` }},
		{"indented input", "{\"responses\":[{\"tool_calls\":[{\"id\":\"c1\",\"name\":\"recall\",\"input\":{\n  \"query\": \"q\"\n}}]}]}", nil,
			func(r Response) bool { return string(r.ToolCalls[0].Input) == `{"query":"q"}` }},
		{"empty model", `{"responses":[{"text":"x","model":""}]}`, nil,
			func(r Response) bool { return r.Model == "" }},
		{"no model", `{"responses":[{"text":"x"}]}`, nil,
			func(r Response) bool { return r.Model == "replay" }},
		{"failed with tool calls", `{"responses":[{"error":"invalid_output","text":"t","tool_calls":[{"id":"c1","name":"recall","input":{}}],"usage":{"input_tokens":3,"output_tokens":2}}]}`, ErrInvalidOutput,
			func(r Response) bool { return r.Text == "t" && len(r.ToolCalls) == 1 && r.Usage == (Usage{3, 2}) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			req := userRequest("x")
			req.Tools = []Tool{recallTool()}
			resp, err := openReplay(t, tt.file).Call(quick(t), req)
			if tt.wantErr != nil {
				wantKind(t, err, tt.wantErr)
			} else if err != nil {
				t.Fatal(err)
			}
			if !tt.check(resp) {
				t.Errorf("%+v", resp)
			}
		})
	}
}

// TestReplayExhaustedNamesNext: a request no entry matches is told which
// match the next unused entry waits for, so that drift is visible.
func TestReplayExhaustedNamesNext(t *testing.T) {
	p := openReplay(t, `{"responses":[{"match":"Tool result (w2):\n","text":"x"}]}`)
	_, err := p.Call(quick(t), userRequest("Carry on"))
	if e := wantKind(t, err, ErrExhausted); !strings.Contains(e.Message, `"Tool result (w2):\n"`) || !strings.Contains(e.Message, "response 1") {
		t.Errorf("%v", err)
	}
}
