package standin

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
)

// ResponsesTurn is one scripted answer of the Responses stand-in: the
// output items of one POST /v1/responses, streamed in order. A turn with
// calls ends with them: the agent runs the tools and asks again with
// their outputs, which the next turn answers.
type ResponsesTurn struct {
	Text  string          // an assistant message, if not empty
	Calls []ResponsesCall // function calls after the text
	// InputTokens, CachedTokens and OutputTokens are the usage reported
	// in response.completed; zero InputTokens is worked out from the
	// request's size (four bytes a token) and zero OutputTokens from the
	// answer's.
	InputTokens, CachedTokens, OutputTokens int64
}

// ResponsesCall is a function call the stand-in makes the agent run.
type ResponsesCall struct {
	Name string
	// Arguments is the call's JSON arguments object (for Codex's shell
	// tool {"command": ["bash", "-lc", "ls"]}). With Custom, the raw
	// input of a custom (freeform) tool such as apply_patch.
	Arguments string
	Custom    bool
	// Namespace is the namespace of a namespaced function tool (Codex
	// offers an MCP server's tools in one, mcp__<server>); "" for none.
	Namespace string
	CallID    string // "" numbers it: call_1, call_2, …
}

// ResponsesRequest is a request the stand-in got, as received.
type ResponsesRequest struct {
	Method, Path string
	Header       http.Header
	Body         []byte
}

// ResponsesServer is a local stand-in for the OpenAI Responses API
// (POST /v1/responses with "stream": true, answered with server-sent
// events the way Codex's client parses them: response.created,
// response.output_item.added, response.output_text.delta,
// response.output_item.done, response.completed). Each request to
// /v1/responses takes the next scripted turn; with none left it answers
// 400 naming the request's number, so a test sees an agent that asked
// more than scripted. Every request, to any path, is recorded.
type ResponsesServer struct {
	URL string // base URL, ending in /v1: a model provider's base_url

	ln  net.Listener
	srv *http.Server

	mu       sync.Mutex
	turns    []ResponsesTurn
	next     int
	requests []ResponsesRequest
	calls    int // numbers unnamed call ids across turns
}

// StartResponses listens on the loopback interface and serves turns.
func StartResponses(turns ...ResponsesTurn) (*ResponsesServer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("responses stand-in: %w", err)
	}
	s := &ResponsesServer{URL: "http://" + ln.Addr().String() + "/v1", ln: ln, turns: turns}
	s.srv = &http.Server{Handler: s}
	go func() { _ = s.srv.Serve(ln) }() // returns ErrServerClosed on Close
	return s, nil
}

// Close stops the server, cutting any answer still streaming.
func (s *ResponsesServer) Close() error { return s.srv.Close() }

// Requests returns the requests received so far, in order.
func (s *ResponsesServer) Requests() []ResponsesRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]ResponsesRequest(nil), s.requests...)
}

// Left is how many scripted turns were not asked for.
func (s *ResponsesServer) Left() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns) - s.next
}

// maxRequestBytes bounds a request body kept; an agent's request with its
// whole history and tool list is far below.
const maxRequestBytes = 16 << 20

// ServeHTTP records the request and answers it.
func (s *ResponsesServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxRequestBytes+1))
	if err != nil || len(body) > maxRequestBytes {
		http.Error(w, "responses stand-in: request body unreadable or over 16 MiB", http.StatusRequestEntityTooLarge)
		return
	}
	s.mu.Lock()
	s.requests = append(s.requests, ResponsesRequest{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	n := len(s.requests)
	s.mu.Unlock()
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/responses") {
		http.Error(w, fmt.Sprintf("responses stand-in: no %s %s (request %d)", r.Method, r.URL.Path, n), http.StatusNotFound)
		return
	}
	turn, id, ok := s.take()
	if !ok {
		http.Error(w, fmt.Sprintf(`{"error":{"type":"invalid_request_error","message":"responses stand-in: request %d is past the %d scripted turns"}}`, n, len(s.turns)), http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	for _, ev := range s.events(turn, id, len(body)) {
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev["type"], mustJSON(ev))
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
}

// take returns the next turn and its response number.
func (s *ResponsesServer) take() (ResponsesTurn, int, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.next >= len(s.turns) {
		return ResponsesTurn{}, 0, false
	}
	s.next++
	return s.turns[s.next-1], s.next, true
}

// callID names a call: its own id or the next number.
func (s *ResponsesServer) callID(c ResponsesCall) string {
	if c.CallID != "" {
		return c.CallID
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.calls++
	return fmt.Sprintf("call_%d", s.calls)
}

type event map[string]any

// events are a turn's server-sent events, in the order the API sends them.
func (s *ResponsesServer) events(t ResponsesTurn, n, requestBytes int) []event {
	respID := fmt.Sprintf("resp_%d", n)
	evs := []event{{"type": "response.created", "response": event{"id": respID, "object": "response", "status": "in_progress"}}}
	idx := 0
	if t.Text != "" {
		itemID := fmt.Sprintf("msg_%d", n)
		added := event{"type": "message", "id": itemID, "role": "assistant", "status": "in_progress", "content": []any{}}
		done := event{"type": "message", "id": itemID, "role": "assistant", "status": "completed",
			"content": []any{event{"type": "output_text", "text": t.Text, "annotations": []any{}}}}
		evs = append(evs,
			event{"type": "response.output_item.added", "output_index": idx, "item": added},
			event{"type": "response.output_text.delta", "output_index": idx, "item_id": itemID, "content_index": 0, "delta": t.Text},
			event{"type": "response.output_item.done", "output_index": idx, "item": done})
		idx++
	}
	for _, c := range t.Calls {
		id := s.callID(c)
		item := event{"type": "function_call", "id": "fc_" + id, "call_id": id, "name": c.Name, "arguments": c.Arguments, "status": "completed"}
		if c.Namespace != "" {
			item["namespace"] = c.Namespace
		}
		if c.Custom {
			item = event{"type": "custom_tool_call", "id": "ctc_" + id, "call_id": id, "name": c.Name, "input": c.Arguments, "status": "completed"}
		}
		evs = append(evs,
			event{"type": "response.output_item.added", "output_index": idx, "item": item},
			event{"type": "response.output_item.done", "output_index": idx, "item": item})
		idx++
	}
	in, out := t.InputTokens, t.OutputTokens
	if in == 0 {
		in = int64(requestBytes/4) + 1
	}
	if out == 0 {
		out = int64(len(t.Text)/4) + 1
		for _, c := range t.Calls {
			out += int64(len(c.Arguments)/4) + 1
		}
	}
	usage := event{"input_tokens": in, "input_tokens_details": event{"cached_tokens": t.CachedTokens},
		"output_tokens": out, "output_tokens_details": event{"reasoning_tokens": 0}, "total_tokens": in + out}
	return append(evs, event{"type": "response.completed", "response": event{"id": respID, "object": "response", "status": "completed", "usage": usage}})
}

func mustJSON(v any) []byte {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // maps of strings and numbers always encode
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// ResponsesMessage is a message of a request's input: its role and the
// text of its content blocks.
type ResponsesMessage struct {
	Role string
	Text []string
}

// Messages reads the messages of a request's input (what the agent sent
// the model: its instructions, injected context, the conversation), so a
// test can see that a hook's context reached the model. Other input items
// (function calls and their outputs) are left out.
func (r ResponsesRequest) Messages() ([]ResponsesMessage, error) {
	var body struct {
		Input []struct {
			Type    string `json:"type"`
			Role    string `json:"role"`
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
		} `json:"input"`
	}
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return nil, fmt.Errorf("responses stand-in: request %s %s: %w", r.Method, r.Path, err)
	}
	var msgs []ResponsesMessage
	for _, in := range body.Input {
		if in.Type != "message" {
			continue
		}
		m := ResponsesMessage{Role: in.Role}
		for _, c := range in.Content {
			m.Text = append(m.Text, c.Text)
		}
		msgs = append(msgs, m)
	}
	return msgs, nil
}
