package apis

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/llm"
)

const testKey = "sk-test-0123456789"

// anthropicBody builds a Messages API response body.
func anthropicBody(t *testing.T, stop string, content ...map[string]any) string {
	return jsonOf(t, map[string]any{
		"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "cache_creation_input_tokens": 100, "cache_read_input_tokens": 1000, "output_tokens": 5},
	})
}

func textBlock(s string) map[string]any { return map[string]any{"type": "text", "text": s} }

func toolUse(id, name, input string) map[string]any {
	return map[string]any{"type": "tool_use", "id": id, "name": name, "input": json.RawMessage(input)}
}

func anthropicError(typ, msg string) string {
	return `{"type":"error","error":{"type":"` + typ + `","message":"` + msg + `"},"request_id":"req_1"}`
}

func openAnthropic(t *testing.T, f *fakeAPI, opts llm.Options) llm.Provider {
	t.Helper()
	if opts.Getenv == nil {
		opts.Getenv = env(map[string]string{"ANTHROPIC_API_KEY": testKey, "ANTHROPIC_BASE_URL": f.srv.URL})
	}
	if opts.MaxRetries == 0 {
		opts.MaxRetries = llm.NoRetries
	}
	p, err := Open("anthropic", "claude-test", opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestAnthropicText(t *testing.T) {
	// The SDK must not read the process environment.
	t.Setenv("ANTHROPIC_API_KEY", "sk-from-env")
	t.Setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:1")
	f := newFakeAPI(t, respond(200, anthropicBody(t, "end_turn", textBlock("Hello "), textBlock("there"))))
	p := openAnthropic(t, f, llm.Options{})
	req := userRequest("hi")
	req.MaxTokens = 300
	resp, err := p.Call(quick(t), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Hello there" || resp.StopReason != "end_turn" || resp.Model != "claude-test" || len(resp.ToolCalls) != 0 || resp.JSON != nil {
		t.Errorf("response %+v", resp)
	}
	if resp.Usage != (llm.Usage{InputTokens: 1110, OutputTokens: 5}) {
		t.Errorf("usage %+v, want input+cache_creation+cache_read", resp.Usage)
	}
	got := f.last()
	if got.Method != "POST" || got.Path != "/v1/messages" {
		t.Errorf("%s %s", got.Method, got.Path)
	}
	if a := got.Header.Get("Authorization"); a != "Bearer "+testKey {
		t.Errorf("Authorization %q", a)
	}
	if got.Header.Get("Anthropic-Version") == "" {
		t.Error("no anthropic-version header")
	}
	b := got.Body
	if b["model"] != "claude-test" || b["max_tokens"] != 300.0 || b["tools"] != nil || b["tool_choice"] != nil {
		t.Errorf("body %s", compact(b))
	}
	if compact(b["system"]) != `[{"text":"You extract memories.","type":"text"}]` {
		t.Errorf("system %s", compact(b["system"]))
	}
	if compact(b["messages"]) != `[{"content":[{"text":"hi","type":"text"}],"role":"user"}]` {
		t.Errorf("messages %s", compact(b["messages"]))
	}
	for _, k := range []string{"temperature", "top_p", "top_k"} {
		if _, ok := b[k]; ok {
			t.Errorf("body sends %s", k)
		}
	}
}

func TestAnthropicDefaultMaxTokens(t *testing.T) {
	f := newFakeAPI(t, respond(200, anthropicBody(t, "end_turn", textBlock("ok"))))
	if _, err := openAnthropic(t, f, llm.Options{}).Call(quick(t), userRequest("hi")); err != nil {
		t.Fatal(err)
	}
	if got := f.last().Body["max_tokens"]; got != float64(anthropicDefaultMaxTokens) {
		t.Errorf("max_tokens %v", got)
	}
}

func TestAnthropicToolRoundTrip(t *testing.T) {
	f := newFakeAPI(t,
		respond(200, anthropicBody(t, "tool_use", textBlock("Let me look."), toolUse("toolu_1", "recall", `{"query":"build"}`))),
		respond(200, anthropicBody(t, "end_turn", textBlock("Use make."))),
	)
	p := openAnthropic(t, f, llm.Options{})
	req := userRequest("how do I build?")
	req.Tools = []llm.Tool{recallTool()}
	resp, err := p.Call(quick(t), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StopReason != "tool_use" || len(resp.ToolCalls) != 1 || resp.ToolCalls[0].ID != "toolu_1" || resp.ToolCalls[0].Name != "recall" || string(resp.ToolCalls[0].Input) != `{"query":"build"}` {
		t.Fatalf("response %+v", resp)
	}
	tools := f.last().Body["tools"]
	if compact(tools) != `[{"description":"Search memory","input_schema":{"properties":{"query":{"type":"string"}},"required":["query"],"type":"object"},"name":"recall"}]` {
		t.Errorf("tools %s", compact(tools))
	}
	if f.last().Body["tool_choice"] != nil {
		t.Errorf("tool_choice %v", f.last().Body["tool_choice"])
	}

	req.Messages = append(req.Messages,
		llm.Message{Role: llm.RoleAssistant, Text: resp.Text, ToolCalls: resp.ToolCalls},
		llm.Message{Role: llm.RoleUser, ToolResults: []llm.ToolResult{{CallID: "toolu_1", Content: "make build"}}})
	resp, err = p.Call(quick(t), req)
	if err != nil || resp.Text != "Use make." {
		t.Fatalf("%+v %v", resp, err)
	}
	msgs := f.last().Body["messages"]
	if got := compact(path(msgs, 1)); got != `{"content":[{"text":"Let me look.","type":"text"},{"id":"toolu_1","input":{"query":"build"},"name":"recall","type":"tool_use"}],"role":"assistant"}` {
		t.Errorf("assistant turn %s", got)
	}
	if got := compact(path(msgs, 2)); got != `{"content":[{"content":[{"text":"make build","type":"text"}],"is_error":false,"tool_use_id":"toolu_1","type":"tool_result"}],"role":"user"}` {
		t.Errorf("tool result turn %s", got)
	}
}

func TestAnthropicStructured(t *testing.T) {
	valid := `{"memories":["use make"]}`
	tests := []struct {
		name      string
		replies   []string
		wantErr   error
		wantCalls int
		wantJSON  string
	}{
		{"valid", []string{valid}, nil, 1, valid},
		{"violation then repaired", []string{`{"memories":"use make"}`, valid}, nil, 2, valid},
		{"violation twice", []string{`{"memories":"use make"}`, `{"notes":[]}`}, llm.ErrInvalidOutput, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var steps []http.HandlerFunc
			for i, in := range tt.replies {
				steps = append(steps, respond(200, anthropicBody(t, "tool_use", toolUse("toolu_"+string(rune('a'+i)), "memories", in))))
			}
			f := newFakeAPI(t, steps...)
			req := userRequest("transcript")
			req.Schema = memorySchema()
			resp, err := openAnthropic(t, f, llm.Options{}).Call(quick(t), req)
			reqs := f.requests()
			if len(reqs) != tt.wantCalls {
				t.Fatalf("%d requests, want %d", len(reqs), tt.wantCalls)
			}
			first := reqs[0].Body
			if compact(first["tool_choice"]) != `{"name":"memories","type":"tool"}` {
				t.Errorf("tool_choice %s", compact(first["tool_choice"]))
			}
			if got := compact(path(first, "tools", 0, "input_schema")); got != `{"additionalProperties":false,"properties":{"memories":{"items":{"type":"string"},"type":"array"}},"required":["memories"],"type":"object"}` {
				t.Errorf("schema tool %s", got)
			}
			if want := int64(1110 * tt.wantCalls); resp.Usage.InputTokens != want {
				t.Errorf("usage %+v, want input %d summed over attempts", resp.Usage, want)
			}
			if tt.wantCalls == 2 {
				msgs := reqs[1].Body["messages"]
				if path(msgs, 1, "content", 0, "type") != "tool_use" || path(msgs, 1, "content", 0, "id") != "toolu_a" {
					t.Errorf("repair assistant turn %s", compact(path(msgs, 1)))
				}
				res := path(msgs, 2, "content", 0)
				if path(res, "tool_use_id") != "toolu_a" || path(res, "is_error") != true || !strings.Contains(compact(res), "does not match the schema") {
					t.Errorf("repair tool result %s", compact(res))
				}
			}
			if tt.wantErr != nil {
				e := wantKind(t, err, tt.wantErr)
				if !contains(e.Message, "does not match the schema", "notes") {
					t.Errorf("message %q does not name the violation", e.Message)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(resp.JSON) != tt.wantJSON || len(resp.ToolCalls) != 0 {
				t.Errorf("JSON %s calls %v", resp.JSON, resp.ToolCalls)
			}
		})
	}
}

func TestAnthropicStructuredWithTools(t *testing.T) {
	f := newFakeAPI(t,
		respond(200, anthropicBody(t, "tool_use", toolUse("toolu_1", "recall", `{"query":"x"}`))),
		respond(200, anthropicBody(t, "tool_use", toolUse("toolu_2", "memories", `{"memories":[]}`))),
	)
	p := openAnthropic(t, f, llm.Options{})
	req := userRequest("transcript")
	req.Schema, req.Tools = memorySchema(), []llm.Tool{recallTool()}
	resp, err := p.Call(quick(t), req)
	if err != nil || resp.JSON != nil || len(resp.ToolCalls) != 1 {
		t.Fatalf("%+v %v", resp, err)
	}
	b := f.last().Body
	if compact(b["tool_choice"]) != `{"type":"auto"}` || path(b, "tools", 1, "name") != "memories" {
		t.Errorf("tool_choice %s tools %s", compact(b["tool_choice"]), compact(b["tools"]))
	}
	resp, err = p.Call(quick(t), req)
	if err != nil || string(resp.JSON) != `{"memories":[]}` || len(resp.ToolCalls) != 0 {
		t.Fatalf("%+v %v", resp, err)
	}
}

func TestAnthropicErrors(t *testing.T) {
	tests := []struct {
		name     string
		step     http.HandlerFunc
		retries  int
		wantKind error
		status   int
		attempts int
	}{
		{"server error retried once", respond(500, anthropicError("api_error", "boom"), "Retry-After-Ms", "1"), 1, llm.ErrServer, 500, 2},
		{"overloaded", respond(529, anthropicError("overloaded_error", "Overloaded")), llm.NoRetries, llm.ErrServer, 529, 1},
		{"rate limited with retry-after", respond(429, anthropicError("rate_limit_error", "slow down"), "Retry-After-Ms", "5", "Retry-After", "0"), 1, llm.ErrRateLimited, 429, 2},
		{"auth", respond(401, anthropicError("authentication_error", "invalid x-api-key")), 1, llm.ErrAuth, 401, 1},
		{"forbidden", respond(403, anthropicError("permission_error", "no")), llm.NoRetries, llm.ErrAuth, 403, 1},
		{"prompt too long", respond(400, anthropicError("invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum")), 1, llm.ErrContextLength, 400, 1},
		{"bad request", respond(400, anthropicError("invalid_request_error", "max_tokens: field required")), 1, llm.ErrBadRequest, 400, 1},
		{"refusal", respond(200, anthropicBody(t, "refusal", textBlock("I can't help with that."))), 1, llm.ErrRefusal, 0, 1},
		{"empty", respond(200, anthropicBody(t, "end_turn")), 1, llm.ErrEmpty, 0, 1},
		{"window exceeded", respond(200, anthropicBody(t, "model_context_window_exceeded")), 1, llm.ErrContextLength, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeAPI(t, tt.step)
			_, err := openAnthropic(t, f, llm.Options{MaxRetries: tt.retries}).Call(quick(t), userRequest("hi"))
			e := wantKind(t, err, tt.wantKind)
			if e.Status != tt.status || e.Provider != "anthropic" {
				t.Errorf("error %+v", e)
			}
			if n := len(f.requests()); n != tt.attempts {
				t.Errorf("%d attempts, want %d", n, tt.attempts)
			}
		})
	}
}

func TestAnthropicTimeout(t *testing.T) {
	f := newFakeAPI(t, stall)
	// No deadline but the option's: a timeout not kept gets stall's empty
	// answer after 30 s, not ErrTimeout. No assertion on how long it took.
	_, err := openAnthropic(t, f, llm.Options{Timeout: 150 * time.Millisecond, MaxRetries: 1}).Call(context.Background(), userRequest("hi"))
	wantKind(t, err, llm.ErrTimeout)
}

func TestAnthropicKeys(t *testing.T) {
	_, err := Open("anthropic", "claude-test", llm.Options{Getenv: env(nil)})
	if e := wantKind(t, err, llm.ErrNoKey); !strings.Contains(e.Error(), "ANTHROPIC_API_KEY") {
		t.Errorf("%v does not name the variable", err)
	}
	// A server that echoes the credential must not get it into the error.
	f := newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		respond(401, anthropicError("authentication_error", "bad key "+r.Header.Get("Authorization")))(w, r)
	})
	_, err = openAnthropic(t, f, llm.Options{}).Call(quick(t), userRequest("hi"))
	wantKind(t, err, llm.ErrAuth)
	for _, s := range []string{err.Error(), fmtAll(err)} {
		if strings.Contains(s, testKey) {
			t.Errorf("key in error: %s", s)
		}
	}
}

func TestCallerCancel(t *testing.T) {
	f := newFakeAPI(t, stall)
	for _, p := range []llm.Provider{openAnthropic(t, f, llm.Options{}), openOpenAI(t, f, llm.Options{})} {
		ctx, cancel := context.WithCancel(quick(t))
		time.AfterFunc(50*time.Millisecond, cancel)
		_, err := p.Call(ctx, userRequest("hi"))
		wantKind(t, err, context.Canceled)
	}
}
