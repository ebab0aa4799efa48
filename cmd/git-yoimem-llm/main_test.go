package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/llm"
)

// helperEnv makes the test binary run as git-yoimem-llm, so that the
// bridge's real path runs without building anything.
const helperEnv = "GIT_YOIMEM_LLM_TEST_AS_HELPER"

func TestMain(m *testing.M) {
	if os.Getenv(helperEnv) == "1" {
		os.Exit(run(context.Background(), os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv))
	}
	os.Exit(m.Run())
}

const testKey = "sk-test-0123456789"

// fakeAnthropic answers each request with the next step (the last
// repeats) and records the requests' Authorization headers.
type fakeAnthropic struct {
	srv   *httptest.Server
	mu    sync.Mutex
	steps []http.HandlerFunc
	auth  []string
}

func newFake(t *testing.T, steps ...http.HandlerFunc) *fakeAnthropic {
	f := &fakeAnthropic{steps: steps}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		f.mu.Lock()
		n := len(f.auth)
		f.auth = append(f.auth, r.Header.Get("Authorization"))
		step := f.steps[min(n, len(f.steps)-1)]
		f.mu.Unlock()
		step(w, r)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAnthropic) requests() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.auth...)
}

func respond(status int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// message is a Messages API response with one content block.
func message(stop string, block map[string]any) http.HandlerFunc {
	b, _ := json.Marshal(map[string]any{
		"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
		"content": []any{block}, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{"input_tokens": 10, "output_tokens": 5},
	})
	return respond(200, string(b))
}

func schemaReply(input string) http.HandlerFunc {
	return message("tool_use", map[string]any{"type": "tool_use", "id": "toolu_1", "name": "memories", "input": json.RawMessage(input)})
}

func apiError(status int, typ, msg string) http.HandlerFunc {
	return respond(status, `{"type":"error","error":{"type":"`+typ+`","message":"`+msg+`"}}`)
}

const schemaJSON = `{"type":"object","properties":{"memories":{"type":"array","items":{"type":"string"}}},"required":["memories"],"additionalProperties":false}`

func schemaRequest() llm.Request {
	return llm.Request{
		System:   "You extract memories.",
		Messages: []llm.Message{{Role: llm.RoleUser, Text: "transcript"}},
		Schema:   &llm.Schema{Name: "memories", JSON: json.RawMessage(schemaJSON)},
	}
}

func quick(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// callJSON is the stdin the bridge writes.
func callJSON(t *testing.T, model, baseURL string, req llm.Request) []byte {
	b, err := json.Marshal(map[string]any{
		"model":   model,
		"options": map[string]any{"base_url": baseURL, "timeout_ms": 5000, "max_retries": -1},
		"request": req,
	})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestRunCall(t *testing.T) {
	f := newFake(t, schemaReply(`{"memories":"one"}`), schemaReply(`{"memories":["one"]}`))
	var stdout, stderr bytes.Buffer
	code := run(quick(t), []string{"call"}, bytes.NewReader(callJSON(t, "anthropic:claude-test", f.srv.URL, schemaRequest())), &stdout, &stderr,
		env(map[string]string{"ANTHROPIC_API_KEY": testKey}))
	if code != 0 || stderr.Len() != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	want := `{"response":{"json":{"memories":["one"]},"usage":{"input_tokens":20,"output_tokens":10},"stop_reason":"tool_use","model":"claude-test"}}` + "\n"
	if stdout.String() != want {
		t.Errorf("stdout %s, want %s", stdout.String(), want)
	}
	if got := f.requests(); len(got) != 2 || got[0] != "Bearer "+testKey {
		t.Errorf("requests %q (want a repair request, the key from the environment)", got)
	}
}

func TestRunAPIError(t *testing.T) {
	f := newFake(t, apiError(429, "rate_limit_error", "slow down"))
	var stdout, stderr bytes.Buffer
	code := run(quick(t), []string{"call"}, bytes.NewReader(callJSON(t, "anthropic:claude-test", f.srv.URL, schemaRequest())), &stdout, &stderr,
		env(map[string]string{"ANTHROPIC_API_KEY": testKey}))
	want := `{"response":{"usage":{"input_tokens":0,"output_tokens":0}},"error":{"provider":"anthropic","status":429,"kind":"rate_limited","message":"slow down"}}` + "\n"
	if code != 0 || stdout.String() != want {
		t.Errorf("exit %d, stdout %s, want %s", code, stdout.String(), want)
	}
	// No key: an answer too.
	stdout.Reset()
	code = run(quick(t), []string{"call"}, bytes.NewReader(callJSON(t, "openai:gpt-test", "", schemaRequest())), &stdout, &stderr, env(nil))
	if code != 0 || !strings.Contains(stdout.String(), `"kind":"no_key"`) || strings.Contains(stdout.String(), `"response"`) {
		t.Errorf("exit %d, stdout %s", code, stdout.String())
	}
}

func TestRunUsage(t *testing.T) {
	tests := []struct {
		args   []string
		stdin  string
		code   int
		stdout string
		stderr string
	}{
		{[]string{"call"}, `not json`, 2, "", "stdin is not the call's JSON object"},
		{[]string{"call"}, `{"model":"command:sh","request":{"messages":[]}}`, 2, "", `model "command:sh"`},
		{[]string{"call"}, `{"model":"anthropic:m"}`, 2, "", "no request"},
		{nil, ``, 2, "", "usage: git-yoimem-llm call"},
		{[]string{"call", "extra"}, ``, 2, "", `unknown argument "extra"`},
		{[]string{"call", "--max-input-bytes=0"}, ``, 2, "", `unknown argument "--max-input-bytes=0"`},
		{[]string{"call", "--max-input-bytes=5"}, `{"model":"anthropic:m"}`, 2, "", "stdin is more than 5 bytes, the most this call reads (--max-input-bytes)"},
		{[]string{"--version"}, ``, 0, "git-yoimem-llm ", ""},
		{[]string{"--help"}, ``, 0, "usage: git-yoimem-llm call", ""},
	}
	for _, tt := range tests {
		var stdout, stderr bytes.Buffer
		code := run(quick(t), tt.args, strings.NewReader(tt.stdin), &stdout, &stderr, env(nil))
		if code != tt.code || !strings.Contains(stdout.String(), tt.stdout) || !strings.Contains(stderr.String(), tt.stderr) || (tt.stderr == "" && stderr.Len() > 0) {
			t.Errorf("%q: exit %d, stdout %q, stderr %q", tt.args, code, stdout.String(), stderr.String())
		}
	}
}

// openBridge opens an anthropic model through llm's bridge, with this
// test binary as the helper process; childEnv is the helper's
// environment on top of the test's.
func openBridge(t *testing.T, baseURL string, childEnv ...string) llm.Provider {
	t.Helper()
	var environ []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "ANTHROPIC_") && !strings.HasPrefix(kv, "OPENAI_") {
			environ = append(environ, kv)
		}
	}
	p, err := llm.Open("anthropic:claude-test", llm.Options{
		Getenv:     env(map[string]string{"ANTHROPIC_API_KEY": testKey}),
		BaseURL:    baseURL,
		MaxRetries: llm.NoRetries,
		Timeout:    10 * time.Second,
		APIHelper:  os.Args[0],
		Exec:       llm.OSExec{Env: append(append(environ, helperEnv+"=1"), childEnv...)},
	})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestBridgeEndToEnd(t *testing.T) {
	withKey := "ANTHROPIC_API_KEY=" + testKey
	t.Run("structured with repair", func(t *testing.T) {
		f := newFake(t, schemaReply(`{"memories":"one"}`), schemaReply(`{"memories":["one"]}`))
		resp, err := openBridge(t, f.srv.URL, withKey).Call(quick(t), schemaRequest())
		if err != nil {
			t.Fatal(err)
		}
		if string(resp.JSON) != `{"memories":["one"]}` || resp.Usage != (llm.Usage{InputTokens: 20, OutputTokens: 10}) || resp.Model != "claude-test" {
			t.Errorf("response %+v", resp)
		}
		if got := f.requests(); len(got) != 2 || got[1] != "Bearer "+testKey {
			t.Errorf("requests %q", got)
		}
	})
	t.Run("text", func(t *testing.T) {
		f := newFake(t, message("end_turn", map[string]any{"type": "text", "text": "Hello <there> & bye"}))
		req := schemaRequest()
		req.Schema = nil
		resp, err := openBridge(t, f.srv.URL, withKey).Call(quick(t), req)
		if err != nil || resp.Text != "Hello <there> & bye" || resp.StopReason != "end_turn" {
			t.Errorf("%+v %v", resp, err)
		}
	})
	for _, tt := range []struct {
		name   string
		step   http.HandlerFunc
		env    []string
		kind   error
		status int
		usage  int64
	}{
		{"rate limited", apiError(429, "rate_limit_error", "slow down"), []string{withKey}, llm.ErrRateLimited, 429, 0},
		{"prompt too long", apiError(400, "invalid_request_error", "prompt is too long: 210000 tokens > 200000 maximum"), []string{withKey}, llm.ErrContextLength, 400, 0},
		{"window exceeded", message("model_context_window_exceeded", map[string]any{"type": "text", "text": ""}), []string{withKey}, llm.ErrContextLength, 0, 10},
		{"invalid twice", schemaReply(`{"memories":1}`), []string{withKey}, llm.ErrInvalidOutput, 0, 20},
		// The bridge sees a key through Getenv, the helper has none (and
		// no base URL): the helper's no_key crosses back.
		{"no key in the helper's environment", nil, nil, llm.ErrNoKey, 0, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			base := ""
			if tt.step != nil {
				base = newFake(t, tt.step).srv.URL
			}
			resp, err := openBridge(t, base, tt.env...).Call(quick(t), schemaRequest())
			if !errors.Is(err, tt.kind) {
				t.Fatalf("error %v, want kind %v", err, tt.kind)
			}
			var e *llm.Error
			if !errors.As(err, &e) || e.Status != tt.status || e.Provider != "anthropic" {
				t.Errorf("error %#v", err)
			}
			if resp.Usage.InputTokens != tt.usage {
				t.Errorf("usage %+v, want input %d", resp.Usage, tt.usage)
			}
		})
	}
}
