package apis

import (
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/llm"
)

// endless answers with status, a JSON prefix in the wire format, and then
// a string that never ends (until the client goes away), without
// Content-Length; with declared > 0 it sends that Content-Length instead
// and as much of the body as the client takes.
func endless(status int, prefix string, declared int64) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if declared > 0 {
			w.Header().Set("Content-Length", strconv.FormatInt(declared, 10))
		}
		w.WriteHeader(status)
		if _, err := w.Write([]byte(prefix)); err != nil {
			return
		}
		chunk := []byte(strings.Repeat("a", 64<<10))
		for sent := int64(len(prefix)); declared <= 0 || sent < declared; sent += int64(len(chunk)) {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	}
}

const (
	anthropicPrefix = `{"id":"msg_1","type":"message","role":"assistant","model":"claude-test","stop_reason":"end_turn","stop_sequence":null,"usage":{"input_tokens":1,"output_tokens":1},"content":[{"type":"text","text":"`
	openAIPrefix    = `{"id":"chatcmpl-1","object":"chat.completion","created":1700000000,"model":"gpt-test","choices":[{"index":0,"finish_reason":"stop","logprobs":null,"message":{"role":"assistant","refusal":null,"content":"`
)

// TestReplyLimit: a response body over the reply limit (without end, or
// declared larger in Content-Length, an error body too) is not read on:
// the call fails at once with ErrTooLarge naming the limit, and is not
// retried, nor repaired (the reply is never sent back).
func TestReplyLimit(t *testing.T) {
	lim := llm.Limit{Bytes: 1 << 20, Setting: "yoimem.llm.maxReplyBytes"}
	for _, api := range []struct {
		name   string
		prefix string
		open   func(*testing.T, *fakeAPI, llm.Options) llm.Provider
	}{
		{"anthropic", anthropicPrefix, openAnthropic},
		{"openai", openAIPrefix, openOpenAI},
	} {
		tests := []struct {
			name string
			step http.HandlerFunc
			want string
		}{
			{"without end", endless(200, api.prefix, 0), "the response is more than 1,048,576 bytes, the limit (yoimem.llm.maxReplyBytes)"},
			{"Content-Length 200 MB", endless(200, api.prefix, 200_000_000), "the response is 200,000,000 bytes, over the limit of 1,048,576 (yoimem.llm.maxReplyBytes)"},
			{"error body without end", endless(500, `{"type":"error","error":{"type":"api_error","message":"`, 0), "more than 1,048,576 bytes"},
		}
		for _, tt := range tests {
			t.Run(api.name+"/"+tt.name, func(t *testing.T) {
				f := newFakeAPI(t, tt.step)
				req := userRequest("hi")
				req.Schema = memorySchema() // an invalid reply would be repaired
				_, err := api.open(t, f, llm.Options{MaxReply: lim, MaxRetries: 2}).Call(quick(t), req)
				e := wantKind(t, err, llm.ErrTooLarge)
				if !strings.Contains(e.Message, tt.want) || e.Provider != api.name {
					t.Errorf("error %v, want %q", err, tt.want)
				}
				if n := len(f.requests()); n != 1 && !strings.HasPrefix(tt.name, "error body") {
					t.Errorf("%d requests, want 1: a reply over the limit is neither retried nor sent back", n)
				}
			})
		}
	}
}

// TestReplyAtLimit: a reply at the limit is read whole.
func TestReplyAtLimit(t *testing.T) {
	body := openAIBody(t, "stop", map[string]any{"content": "ok"})
	f := newFakeAPI(t, respond(200, body))
	resp, err := openOpenAI(t, f, llm.Options{MaxReply: llm.Limit{Bytes: int64(len(body))}}).Call(quick(t), userRequest("hi"))
	if err != nil || resp.Text != "ok" {
		t.Fatalf("%+v %v", resp, err)
	}
	f = newFakeAPI(t, respond(200, body))
	_, err = openOpenAI(t, f, llm.Options{MaxReply: llm.Limit{Bytes: int64(len(body)) - 1}}).Call(quick(t), userRequest("hi"))
	wantKind(t, err, llm.ErrTooLarge)
}
