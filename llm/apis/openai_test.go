package apis

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/llm"
)

// openAIBody builds a Chat Completions response body.
func openAIBody(t *testing.T, finish string, message map[string]any) string {
	message["role"] = "assistant"
	if _, ok := message["content"]; !ok {
		message["content"] = nil
	}
	if _, ok := message["refusal"]; !ok {
		message["refusal"] = nil
	}
	return jsonOf(t, map[string]any{
		"id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": "gpt-test",
		"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "logprobs": nil, "message": message}},
		"usage": map[string]any{
			"prompt_tokens": 1200, "completion_tokens": 7, "total_tokens": 1207,
			"prompt_tokens_details":     map[string]any{"cached_tokens": 1000},
			"completion_tokens_details": map[string]any{"reasoning_tokens": 0},
		},
	})
}

func openAIToolCall(id, name, args string) map[string]any {
	return map[string]any{"id": id, "type": "function", "function": map[string]any{"name": name, "arguments": args}}
}

func openAIError(status int, code, msg string) http.HandlerFunc {
	c := "null"
	if code != "" {
		c = `"` + code + `"`
	}
	return respond(status, `{"error":{"message":"`+msg+`","type":"invalid_request_error","param":null,"code":`+c+`}}`, "Retry-After-Ms", "1")
}

func openOpenAI(t *testing.T, f *fakeAPI, opts llm.Options) llm.Provider {
	t.Helper()
	if opts.Getenv == nil {
		opts.Getenv = env(map[string]string{"OPENAI_API_KEY": testKey, "OPENAI_BASE_URL": f.srv.URL})
	}
	if opts.MaxRetries == 0 {
		opts.MaxRetries = llm.NoRetries
	}
	p, err := Open("openai", "gpt-test", opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOpenAIText(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-from-env")
	t.Setenv("OPENAI_BASE_URL", "http://127.0.0.1:1")
	t.Setenv("OPENAI_ORG_ID", "org-from-env")
	f := newFakeAPI(t, respond(200, openAIBody(t, "stop", map[string]any{"content": "Hello"})))
	req := userRequest("hi")
	req.MaxTokens = 300
	resp, err := openOpenAI(t, f, llm.Options{}).Call(quick(t), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text != "Hello" || resp.StopReason != "stop" || resp.Model != "gpt-test" || resp.JSON != nil {
		t.Errorf("response %+v", resp)
	}
	if resp.Usage != (llm.Usage{InputTokens: 1200, OutputTokens: 7}) {
		t.Errorf("usage %+v (prompt_tokens already counts cached ones)", resp.Usage)
	}
	got := f.last()
	if got.Method != "POST" || got.Path != "/chat/completions" {
		t.Errorf("%s %s", got.Method, got.Path)
	}
	if a := got.Header.Get("Authorization"); a != "Bearer "+testKey {
		t.Errorf("Authorization %q", a)
	}
	if o := got.Header.Get("OpenAI-Organization"); o != "" {
		t.Errorf("organization %q read from the environment", o)
	}
	b := got.Body
	if b["model"] != "gpt-test" || b["max_completion_tokens"] != 300.0 || b["tools"] != nil || b["response_format"] != nil {
		t.Errorf("body %s", compact(b))
	}
	if compact(b["messages"]) != `[{"content":"You extract memories.","role":"system"},{"content":"hi","role":"user"}]` {
		t.Errorf("messages %s", compact(b["messages"]))
	}
}

func TestOpenAIToolRoundTrip(t *testing.T) {
	f := newFakeAPI(t,
		respond(200, openAIBody(t, "tool_calls", map[string]any{"tool_calls": []any{openAIToolCall("call_1", "recall", `{"query":"build"}`)}})),
		respond(200, openAIBody(t, "stop", map[string]any{"content": "Use make."})),
	)
	p := openOpenAI(t, f, llm.Options{})
	req := userRequest("how do I build?")
	req.Tools = []llm.Tool{recallTool()}
	resp, err := p.Call(quick(t), req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StopReason != "tool_calls" || len(resp.ToolCalls) != 1 || resp.ToolCalls[0].ID != "call_1" || string(resp.ToolCalls[0].Input) != `{"query":"build"}` {
		t.Fatalf("response %+v", resp)
	}
	if got := compact(f.last().Body["tools"]); got != `[{"function":{"description":"Search memory","name":"recall","parameters":{"properties":{"query":{"type":"string"}},"required":["query"],"type":"object"}},"type":"function"}]` {
		t.Errorf("tools %s", got)
	}
	req.Messages = append(req.Messages,
		llm.Message{Role: llm.RoleAssistant, ToolCalls: resp.ToolCalls},
		llm.Message{Role: llm.RoleUser, ToolResults: []llm.ToolResult{{CallID: "call_1", Content: "make build"}}})
	if resp, err = p.Call(quick(t), req); err != nil || resp.Text != "Use make." {
		t.Fatalf("%+v %v", resp, err)
	}
	msgs := f.last().Body["messages"]
	if got := compact(path(msgs, 2)); got != `{"role":"assistant","tool_calls":[{"function":{"arguments":"{\"query\":\"build\"}","name":"recall"},"id":"call_1","type":"function"}]}` {
		t.Errorf("assistant turn %s", got)
	}
	if got := compact(path(msgs, 3)); got != `{"content":"make build","role":"tool","tool_call_id":"call_1"}` {
		t.Errorf("tool turn %s", got)
	}
}

func TestOpenAIStructured(t *testing.T) {
	valid := `{"memories":["use make"]}`
	tests := []struct {
		name      string
		replies   []string
		wantErr   error
		wantCalls int
		wantJSON  string
		repairMsg string
	}{
		{"valid", []string{valid}, nil, 1, valid, ""},
		{"fenced", []string{"```json\n" + valid + "\n```"}, nil, 1, valid, ""},
		{"invalid JSON then repaired", []string{`{"memories": [`, valid}, nil, 2, valid, "not valid JSON"},
		{"violation twice", []string{`{"memories":1}`, `{"memories":[2]}`}, llm.ErrInvalidOutput, 2, "", "does not match the schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var steps []http.HandlerFunc
			for _, c := range tt.replies {
				steps = append(steps, respond(200, openAIBody(t, "stop", map[string]any{"content": c})))
			}
			f := newFakeAPI(t, steps...)
			req := userRequest("transcript")
			req.Schema = memorySchema()
			resp, err := openOpenAI(t, f, llm.Options{}).Call(quick(t), req)
			reqs := f.requests()
			if len(reqs) != tt.wantCalls {
				t.Fatalf("%d requests, want %d", len(reqs), tt.wantCalls)
			}
			if got := compact(reqs[0].Body["response_format"]); got != `{"json_schema":{"name":"memories","schema":`+compactJSON(memorySchemaJSON)+`,"strict":true},"type":"json_schema"}` {
				t.Errorf("response_format %s", got)
			}
			if resp.Usage.InputTokens != int64(1200*tt.wantCalls) {
				t.Errorf("usage %+v not summed", resp.Usage)
			}
			if tt.wantCalls == 2 {
				msgs := reqs[1].Body["messages"]
				if path(msgs, 2, "role") != "assistant" || path(msgs, 2, "content") != tt.replies[0] {
					t.Errorf("repair assistant turn %s", compact(path(msgs, 2)))
				}
				if s, _ := path(msgs, 3, "content").(string); path(msgs, 3, "role") != "user" || !strings.Contains(s, tt.repairMsg) {
					t.Errorf("repair user turn %s", compact(path(msgs, 3)))
				}
			}
			if tt.wantErr != nil {
				if e := wantKind(t, err, tt.wantErr); !strings.Contains(e.Message, "/memories") {
					t.Errorf("message %q does not name the violation", e.Message)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(resp.JSON) != tt.wantJSON {
				t.Errorf("JSON %s", resp.JSON)
			}
		})
	}
}

func TestOpenAIErrors(t *testing.T) {
	tests := []struct {
		name     string
		step     http.HandlerFunc
		retries  int
		wantKind error
		status   int
		attempts int
	}{
		{"server error retried once", openAIError(500, "", "boom"), 1, llm.ErrServer, 500, 2},
		{"rate limited with retry-after", respond(429, `{"error":{"message":"Rate limit reached","type":"requests","param":null,"code":"rate_limit_exceeded"}}`, "Retry-After", "0", "Retry-After-Ms", "5"), 1, llm.ErrRateLimited, 429, 2},
		{"auth", openAIError(401, "invalid_api_key", "Incorrect API key provided"), 1, llm.ErrAuth, 401, 1},
		{"context length code", openAIError(400, "context_length_exceeded", "too long"), 1, llm.ErrContextLength, 400, 1},
		{"context length message", openAIError(400, "", "This model's maximum context length is 8192 tokens"), 1, llm.ErrContextLength, 400, 1},
		{"bad request", openAIError(400, "", "Invalid schema"), 1, llm.ErrBadRequest, 400, 1},
		{"refusal", respond(200, openAIBody(t, "stop", map[string]any{"refusal": "I can't help with that."})), 1, llm.ErrRefusal, 0, 1},
		{"content filter", respond(200, openAIBody(t, "content_filter", map[string]any{})), 1, llm.ErrRefusal, 0, 1},
		{"empty", respond(200, openAIBody(t, "stop", map[string]any{"content": ""})), 1, llm.ErrEmpty, 0, 1},
		{"no choices", respond(200, `{"id":"x","object":"chat.completion","created":1,"model":"m","choices":[]}`), 1, llm.ErrEmpty, 0, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFakeAPI(t, tt.step)
			_, err := openOpenAI(t, f, llm.Options{MaxRetries: tt.retries}).Call(quick(t), userRequest("hi"))
			e := wantKind(t, err, tt.wantKind)
			if e.Status != tt.status || e.Provider != "openai" {
				t.Errorf("error %+v", e)
			}
			if n := len(f.requests()); n != tt.attempts {
				t.Errorf("%d attempts, want %d", n, tt.attempts)
			}
		})
	}
}

func TestOpenAITimeout(t *testing.T) {
	f := newFakeAPI(t, stall)
	// No deadline but the option's: a timeout not kept gets stall's empty
	// answer after 30 s, not ErrTimeout. No assertion on how long it took.
	_, err := openOpenAI(t, f, llm.Options{Timeout: 150 * time.Millisecond, MaxRetries: 1}).Call(context.Background(), userRequest("hi"))
	wantKind(t, err, llm.ErrTimeout)
}

func TestOpenAIKeys(t *testing.T) {
	_, err := Open("openai", "gpt-test", llm.Options{Getenv: env(nil)})
	if e := wantKind(t, err, llm.ErrNoKey); !strings.Contains(e.Error(), "OPENAI_API_KEY") {
		t.Errorf("%v does not name the variable", err)
	}
	// A local server needs only a base URL, and gets no credential.
	f := newFakeAPI(t, respond(200, openAIBody(t, "stop", map[string]any{"content": "ok"})))
	p, err := Open("openai", "llama3.1", llm.Options{BaseURL: f.srv.URL, MaxRetries: llm.NoRetries})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.Call(quick(t), userRequest("hi")); err != nil {
		t.Fatal(err)
	}
	if a := f.last().Header.Get("Authorization"); a != "" {
		t.Errorf("Authorization %q", a)
	}
	// A server that echoes the credential must not get it into the error.
	f = newFakeAPI(t, func(w http.ResponseWriter, r *http.Request) {
		openAIError(401, "invalid_api_key", "Incorrect API key "+r.Header.Get("Authorization"))(w, r)
	})
	_, err = openOpenAI(t, f, llm.Options{}).Call(quick(t), userRequest("hi"))
	wantKind(t, err, llm.ErrAuth)
	if s := fmtAll(err); strings.Contains(s, testKey) {
		t.Errorf("key in error: %s", s)
	}
}
