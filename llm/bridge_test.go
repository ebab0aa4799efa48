package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeExec stands for the helper: it records the call and answers with
// canned output.
type fakeExec struct {
	mu       sync.Mutex
	argv     []string
	stdin    []byte
	deadline time.Duration // until ctx's deadline, when the call began
	max      int64         // maxStdout
	res      ExecResult
	err      error
	block    bool // wait for ctx and return its error
}

func (f *fakeExec) Exec(ctx context.Context, argv []string, stdin []byte, maxStdout int64) (ExecResult, error) {
	f.mu.Lock()
	f.argv, f.stdin, f.max = argv, stdin, maxStdout
	if d, ok := ctx.Deadline(); ok {
		f.deadline = time.Until(d)
	}
	f.mu.Unlock()
	if f.block {
		<-ctx.Done()
		return ExecResult{}, ctx.Err()
	}
	return f.res, f.err
}

func answering(stdout string) *fakeExec {
	return &fakeExec{res: ExecResult{Stdout: []byte(stdout)}}
}

func openBridge(t *testing.T, model string, ex Execer, opts Options) Provider {
	t.Helper()
	opts.Exec = ex
	if opts.Getenv == nil {
		opts.Getenv = env(map[string]string{"ANTHROPIC_API_KEY": testKey, "OPENAI_API_KEY": testKey})
	}
	p, err := Open(model, opts)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

const testKey = "sk-test-0123456789"

func TestBridgeCall(t *testing.T) {
	f := answering(`{"response":{"text":"Sure","tool_calls":[{"id":"c1","name":"recall","input":{"query":"<b> & c"}},{"id":"c2","name":"recall","input_text":"{bad"}],"json":{"memories":["a"]},"usage":{"input_tokens":12,"output_tokens":3},"stop_reason":"tool_use","model":"claude-test"}}`)
	p := openBridge(t, "anthropic: claude-test", f, Options{
		Getenv:     env(map[string]string{"ANTHROPIC_API_KEY": testKey, "ANTHROPIC_BASE_URL": "http://env.invalid"}),
		Timeout:    3 * time.Second,
		MaxRetries: NoRetries,
	})
	if p.Name() != "anthropic" {
		t.Errorf("name %q", p.Name())
	}
	req := userRequest("transcript <with> & markup")
	req.Schema, req.Tools, req.MaxTokens = memorySchema(), []Tool{recallTool()}, 500
	req.Messages = append(req.Messages,
		Message{Role: RoleAssistant, Text: "looking", ToolCalls: []ToolCall{{ID: "c0", Name: "recall", Input: json.RawMessage(`not json`)}}},
		Message{Role: RoleUser, ToolResults: []ToolResult{{CallID: "c0", Content: "bad input", IsError: true}}})
	resp, err := p.Call(quick(t), req)
	if err != nil {
		t.Fatal(err)
	}
	want := Response{
		Text: "Sure",
		ToolCalls: []ToolCall{
			{ID: "c1", Name: "recall", Input: json.RawMessage(`{"query":"<b> & c"}`)},
			{ID: "c2", Name: "recall", Input: json.RawMessage(`{bad`)},
		},
		JSON:       json.RawMessage(`{"memories":["a"]}`),
		Usage:      Usage{InputTokens: 12, OutputTokens: 3},
		StopReason: "tool_use",
		Model:      "claude-test",
	}
	if !reflect.DeepEqual(resp, want) {
		t.Errorf("response\n%+v, want\n%+v", resp, want)
	}
	if !reflect.DeepEqual(f.argv, []string{DefaultAPIHelper, "call", fmt.Sprintf("--max-input-bytes=%d", len(f.stdin))}) {
		t.Errorf("argv %q, want the size of stdin (%d) to be the most the helper reads", f.argv, len(f.stdin))
	}
	if f.max != DefaultMaxReplyBytes {
		t.Errorf("the helper's answer may be %d bytes, want DefaultMaxReplyBytes", f.max)
	}
	if f.deadline < 15*time.Second || f.deadline > 16*time.Second {
		t.Errorf("exec deadline in %v, want 2×3s+10s", f.deadline)
	}
	if strings.Contains(string(f.stdin), testKey) || strings.Contains(strings.Join(f.argv, " "), testKey) {
		t.Errorf("the API key crossed in stdin or argv: %s", f.stdin)
	}
	var in struct {
		Model   string         `json:"model"`
		Options map[string]any `json:"options"`
		Request Request        `json:"request"`
	}
	if err := json.Unmarshal(f.stdin, &in); err != nil {
		t.Fatalf("stdin %s: %v", f.stdin, err)
	}
	if in.Model != "anthropic:claude-test" {
		t.Errorf("model %q", in.Model)
	}
	if compact(in.Options) != `{"base_url":"http://env.invalid","max_reply":{"bytes":16777216},"max_request":{"bytes":33554432},"max_retries":-1,"timeout_ms":3000}` {
		t.Errorf("options %s", compact(in.Options))
	}
	if !reflect.DeepEqual(in.Request, req) {
		t.Errorf("request\n%+v, want\n%+v", in.Request, req)
	}
	if !strings.Contains(string(f.stdin), `"system":"You extract memories.","messages":[{"role":"user","text":"transcript <with> & markup"}`) {
		t.Errorf("stdin is not the snake_case wire form: %s", f.stdin)
	}
}

func TestBridgeOptions(t *testing.T) {
	f := answering(`{"response":{"text":"ok"}}`)
	p := openBridge(t, "openai:gpt-test", f, Options{APIHelper: "/opt/bin/git-yoimem-llm", BaseURL: "http://local:8080/v1"})
	resp, err := p.Call(context.Background(), userRequest("hi"))
	if err != nil || resp.Text != "ok" || p.Name() != "openai" {
		t.Fatalf("%+v %v", resp, err)
	}
	if f.argv[0] != "/opt/bin/git-yoimem-llm" {
		t.Errorf("argv %q", f.argv)
	}
	if !strings.HasPrefix(string(f.stdin), `{"model":"openai:gpt-test","options":{"base_url":"http://local:8080/v1","timeout_ms":300000,"max_reply":{"bytes":16777216},"max_request":{"bytes":33554432}},"request":`) {
		t.Errorf("stdin %s", f.stdin)
	}
	if f.deadline < 609*time.Second || f.deadline > 610*time.Second {
		t.Errorf("exec deadline in %v, want 2×300s+10s", f.deadline)
	}
}

func TestBridgeErrorKinds(t *testing.T) {
	for _, k := range kindNames {
		t.Run(k.name, func(t *testing.T) {
			f := answering(`{"response":{"usage":{"input_tokens":7,"output_tokens":1}},"error":{"provider":"openai","status":429,"kind":"` + k.name + `","message":"details"}}`)
			resp, err := openBridge(t, "openai:gpt-test", f, Options{}).Call(quick(t), userRequest("hi"))
			e := wantKind(t, err, k.kind)
			if e.Provider != "openai" || e.Status != 429 || e.Message != "details" {
				t.Errorf("error %+v", e)
			}
			if resp.Usage != (Usage{7, 1}) {
				t.Errorf("usage %+v of the failed call is lost", resp.Usage)
			}
		})
	}
	f := answering(`{"error":{"kind":"brand_new","message":"x"}}`)
	_, err := openBridge(t, "anthropic:m", f, Options{}).Call(quick(t), userRequest("hi"))
	if e := wantKind(t, err, ErrCommand); e.Provider != "anthropic" || !contains(e.Message, "brand_new", "x") {
		t.Errorf("error %+v", e)
	}
}

func TestBridgeFailures(t *testing.T) {
	notFound := &exec.Error{Name: DefaultAPIHelper, Err: exec.ErrNotFound}
	tests := []struct {
		name string
		ex   *fakeExec
		kind error
		msg  []string
	}{
		{"not installed", &fakeExec{err: notFound}, ErrCommand, []string{"git-yoimem-llm", "not installed next to git-yoimem or on PATH", "install.sh builds both"}},
		{"crash", &fakeExec{res: ExecResult{ExitCode: 2, Stderr: []byte("panic: boom\ngoroutine 1\n")}}, ErrCommand, []string{"exit status 2", "panic: boom\ngoroutine 1"}},
		{"garbage", &fakeExec{res: ExecResult{Stdout: []byte("hello"), Stderr: []byte("warning: odd")}}, ErrCommand, []string{"bad answer", "warning: odd"}},
		{"empty object", answering(`{}`), ErrCommand, []string{"no answer"}},
		{"no output", answering(``), ErrCommand, []string{"bad answer", "(no stderr)"}},
		{"other exec error", &fakeExec{err: errors.New("fork failed")}, ErrCommand, []string{"fork failed"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := openBridge(t, "anthropic:m", tt.ex, Options{}).Call(quick(t), userRequest("hi"))
			if e := wantKind(t, err, tt.kind); !contains(e.Message, tt.msg...) {
				t.Errorf("message %q lacks %q", e.Message, tt.msg)
			}
		})
	}
	// The real OSExec, for a helper that is not there.
	_, err := openBridge(t, "anthropic:m", nil, Options{APIHelper: "/nonexistent/git-yoimem-llm"}).Call(quick(t), userRequest("hi"))
	if e := wantKind(t, err, ErrCommand); !contains(e.Message, "/nonexistent/git-yoimem-llm", "not installed") {
		t.Errorf("message %q", e.Message)
	}
}

func TestBridgeStopped(t *testing.T) {
	ctx, cancel := context.WithTimeout(quick(t), 50*time.Millisecond)
	defer cancel()
	_, err := openBridge(t, "anthropic:m", &fakeExec{block: true}, Options{}).Call(ctx, userRequest("hi"))
	wantKind(t, err, ErrTimeout)

	ctx, cancel = context.WithCancel(quick(t))
	time.AfterFunc(50*time.Millisecond, cancel)
	_, err = openBridge(t, "anthropic:m", &fakeExec{block: true}, Options{}).Call(ctx, userRequest("hi"))
	wantKind(t, err, context.Canceled)
}

func TestBridgeBadRequests(t *testing.T) {
	f := answering(`{"response":{"text":"never"}}`)
	p := openBridge(t, "anthropic:m", f, Options{})
	for _, req := range []Request{
		{},
		{Messages: []Message{{Role: RoleUser, Text: "x"}}, Tools: []Tool{{Name: "t", InputSchema: json.RawMessage(`{"type":`)}}},
	} {
		_, err := p.Call(quick(t), req)
		wantKind(t, err, ErrBadRequest)
	}
	if f.argv != nil {
		t.Errorf("the helper ran for a bad request")
	}
}

func TestBridgeNoKey(t *testing.T) {
	// As in the helper, a missing key fails in Open; a base URL needs none.
	for model, variable := range map[string]string{"anthropic:m": "ANTHROPIC_API_KEY", "openai:m": "OPENAI_API_KEY"} {
		_, err := Open(model, Options{Getenv: env(nil)})
		if e := wantKind(t, err, ErrNoKey); !strings.Contains(e.Message, variable) {
			t.Errorf("%s: %v", model, err)
		}
	}
	if _, err := Open("openai:llama", Options{Getenv: env(map[string]string{"OPENAI_BASE_URL": "http://local/v1"})}); err != nil {
		t.Error(err)
	}
}

func TestOpenAPIs(t *testing.T) {
	var got []string
	want := openReplay(t, `{"responses":[]}`)
	p, err := Open("openai: gpt-x", Options{APIs: func(kind, model string, opts Options) (Provider, error) {
		got = append(got, kind, model)
		return want, nil
	}})
	if err != nil || p != want || !reflect.DeepEqual(got, []string{"openai", "gpt-x"}) {
		t.Errorf("%v %v %q", p, err, got)
	}
}

func TestWireForms(t *testing.T) {
	// ToolCall: raw input when it is JSON, input_text otherwise.
	for _, c := range []ToolCall{
		{ID: "a", Name: "n", Input: json.RawMessage(`{"q":"<x>"}`)},
		{ID: "b", Name: "n", Input: json.RawMessage(`{"q":`)},
		{ID: "c", Name: "n"},
	} {
		data, err := marshalWire(c)
		if err != nil {
			t.Fatal(err)
		}
		var back ToolCall
		if err := json.Unmarshal(data, &back); err != nil || !reflect.DeepEqual(back, c) {
			t.Errorf("%s: %+v %v", data, back, err)
		}
	}
	// Error: every kind by name; the cause stays behind.
	for _, k := range kindNames {
		data, err := json.Marshal(&Error{Provider: "p", Status: 500, Kind: k.kind, Message: "m", Err: errors.New("cause")})
		if err != nil {
			t.Fatal(err)
		}
		if want := `{"provider":"p","status":500,"kind":"` + k.name + `","message":"m"}`; string(data) != want {
			t.Errorf("%s, want %s", data, want)
		}
		var back Error
		if err := json.Unmarshal(data, &back); err != nil || back.Kind != k.kind || back.Err != nil {
			t.Errorf("%s: %+v %v", data, back, err)
		}
	}
	data, _ := json.Marshal(&Error{Provider: "p", Kind: errors.New("odd")})
	if string(data) != `{"provider":"p","kind":"command","message":"odd"}` {
		t.Errorf("%s", data)
	}
}

// compact re-marshals a decoded JSON value for comparisons.
func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
