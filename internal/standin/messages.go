package standin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
)

// Turn is one scripted answer of the model.
type Turn struct {
	// Text is the answer's text; empty for none (a turn with only tool
	// calls).
	Text string
	// Tools are tool calls after the text, in order.
	Tools []ToolUse
	// Want are texts the request must carry (anywhere in its JSON body,
	// compared after decoding JSON string escapes), e.g. the additional
	// context a hook gave, or a tool result's denial. A request without one
	// is still answered; Err reports it.
	Want []string
}

// ToolUse is a tool call the model makes.
type ToolUse struct {
	Name  string
	Input any // marshalled to JSON
}

// Request is one request the stand-in received.
type Request struct {
	Method string
	Host   string // the host asked for: a proxied request's destination
	Path   string
	Header http.Header
	Body   []byte
	// Model and Stream are the body's fields; Aside tells that the
	// request was answered by the Aside rule, not from the script.
	Model  string
	Stream bool
	Aside  bool
}

// Text is the request body with JSON string escapes decoded, for
// substring checks (a hook's context arrives inside JSON strings).
func (r Request) Text() string { return decodedText(r.Body) }

// Messages is a scripted Anthropic Messages API on a local httptest
// server. Requests to /v1/messages take the next scripted turn, unless
// Aside says the request is one of the agent's side calls (a title, a
// quota check), which get AsideText. /v1/messages/count_tokens answers an
// estimate. Every request is recorded. Set as the client's HTTPS_PROXY
// too, it refuses (and Err reports) every request the client makes past
// the loopback.
type Messages struct {
	// URL is the server's base URL, for ANTHROPIC_BASE_URL.
	URL string

	srv      *httptest.Server
	mu       sync.Mutex
	turns    []Turn
	next     int
	aside    func(Request) bool
	asideTxt string
	requests []Request
	errs     []error
}

// Options configure a Messages server.
type Options struct {
	// Aside tells which /v1/messages requests are not part of the
	// scripted conversation; nil: none.
	Aside func(Request) bool
	// AsideText answers those ("ok" when empty).
	AsideText string
}

// NewMessages starts a Messages server answering turns in order. Close it
// when done.
func NewMessages(opts Options, turns ...Turn) *Messages {
	m := &Messages{turns: turns, aside: opts.Aside, asideTxt: opts.AsideText}
	if m.asideTxt == "" {
		m.asideTxt = "ok"
	}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	m.URL = m.srv.URL
	return m
}

// Script replaces the turns still to come by turns, e.g. once a test
// knows the paths its tool calls name.
func (m *Messages) Script(turns ...Turn) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.turns = append(m.turns[:m.next:m.next], turns...)
}

// Close shuts the server down.
func (m *Messages) Close() { m.srv.Close() }

// Requests returns every request received so far, in order.
func (m *Messages) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.requests...)
}

// Scripted returns the requests that took scripted turns, in order.
func (m *Messages) Scripted() []Request {
	var out []Request
	for _, r := range m.Requests() {
		if r.Path == messagesPath && !r.Aside {
			out = append(out, r)
		}
	}
	return out
}

// Err reports what went wrong so far: requests past the script, turns
// whose Want a request lacked, malformed requests, and turns left unused.
func (m *Messages) Err() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	errs := append([]error(nil), m.errs...)
	if m.next < len(m.turns) {
		errs = append(errs, fmt.Errorf("%d of %d scripted turns never asked for", len(m.turns)-m.next, len(m.turns)))
	}
	return errors.Join(errs...)
}

const (
	messagesPath = "/v1/messages"
	countPath    = "/v1/messages/count_tokens"
)

func (m *Messages) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Host: r.Host, Path: r.URL.Path, Header: r.Header.Clone(), Body: body}
	var fields struct {
		Model  string `json:"model"`
		Stream bool   `json:"stream"`
	}
	if err == nil {
		err = json.Unmarshal(body, &fields)
	}
	req.Model, req.Stream = fields.Model, fields.Stream
	switch {
	case r.Method == http.MethodConnect || r.URL.Host != "":
		// the stand-in is the client's proxy too: anything it proxies was
		// on its way past the loopback
		m.record(req, fmt.Errorf("%s %s: a request past the loopback, through the stand-in as a proxy", r.Method, r.Host))
		writeError(w, http.StatusForbidden, "permission_error", "the stand-in does not proxy: "+r.Host)
	case r.Method != http.MethodPost || (req.Path != messagesPath && req.Path != countPath):
		m.record(req, fmt.Errorf("%s %s: not an endpoint of the stand-in", r.Method, r.URL.Path))
		writeError(w, http.StatusNotFound, "not_found_error", "no such endpoint: "+r.URL.Path)
	case err != nil:
		m.record(req, fmt.Errorf("%s: request body: %w", req.Path, err))
		writeError(w, http.StatusBadRequest, "invalid_request_error", "request body is not JSON")
	case req.Path == countPath:
		m.record(req, nil)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]int{"input_tokens": estimate(body)})
	default:
		m.answer(w, req)
	}
}

func (m *Messages) answer(w http.ResponseWriter, req Request) {
	turn, n, err := m.take(&req)
	if err != nil {
		writeError(w, http.StatusBadRequest, "invalid_request_error", err.Error())
		return
	}
	msg := message{ID: fmt.Sprintf("msg_standin_%03d", n), Model: req.Model, InputTokens: estimate(req.Body)}
	msg.blocks(turn, n)
	if req.Stream {
		msg.stream(w)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(msg.full())
}

// take records req and picks its turn: the aside answer, or the next
// scripted turn (checked against its Want); n numbers the answer.
func (m *Messages) take(req *Request) (Turn, int, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	n := len(m.requests) + 1
	if m.aside != nil && m.aside(*req) {
		req.Aside = true
		m.requests = append(m.requests, *req)
		return Turn{Text: m.asideTxt}, n, nil
	}
	m.requests = append(m.requests, *req)
	if m.next >= len(m.turns) {
		err := fmt.Errorf("request %d (model %q) is past the %d scripted turns", n, req.Model, len(m.turns))
		m.errs = append(m.errs, err)
		return Turn{}, n, err
	}
	turn := m.turns[m.next]
	m.next++
	text := req.Text()
	for _, want := range turn.Want {
		if !strings.Contains(text, want) {
			m.errs = append(m.errs, fmt.Errorf("scripted turn %d: the request lacks %q", m.next, want))
		}
	}
	return turn, n, nil
}

func (m *Messages) record(req Request, err error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.requests = append(m.requests, req)
	if err != nil {
		m.errs = append(m.errs, err)
	}
}

// writeError answers in the API's error shape.
func writeError(w http.ResponseWriter, status int, kind, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{
		"type":  "error",
		"error": map[string]string{"type": kind, "message": msg},
	})
}

// estimate is a token count for usage figures: about four bytes a token.
func estimate(b []byte) int { return len(b)/4 + 1 }

// decodedText is b with every JSON string's escapes decoded (the strings
// in document order, newline-separated), or b itself if it is not JSON.
func decodedText(b []byte) string {
	var v any
	if json.Unmarshal(b, &v) != nil {
		return string(b)
	}
	var sb strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			sb.WriteString(v)
			sb.WriteByte('\n')
		case []any:
			for _, e := range v {
				walk(e)
			}
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return sb.String()
}
