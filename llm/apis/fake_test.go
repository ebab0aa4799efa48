package apis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/llm"
)

// fakeAPI is a local HTTP server that answers each request with the next
// step (the last step repeats) and records what it was sent.
type fakeAPI struct {
	t     *testing.T
	srv   *httptest.Server
	mu    sync.Mutex
	steps []http.HandlerFunc
	reqs  []recorded
}

// recorded is one request the server received.
type recorded struct {
	Method, Path string
	Header       http.Header
	Body         map[string]any
}

func newFakeAPI(t *testing.T, steps ...http.HandlerFunc) *fakeAPI {
	t.Helper()
	f := &fakeAPI{t: t, steps: steps}
	f.srv = httptest.NewServer(http.HandlerFunc(f.serve))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *fakeAPI) serve(w http.ResponseWriter, r *http.Request) {
	data, _ := io.ReadAll(r.Body)
	var body map[string]any
	if err := json.Unmarshal(data, &body); err != nil {
		f.t.Errorf("request body is not JSON: %v: %s", err, data)
	}
	f.mu.Lock()
	n := len(f.reqs)
	f.reqs = append(f.reqs, recorded{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone(), Body: body})
	step := f.steps[min(n, len(f.steps)-1)]
	f.mu.Unlock()
	step(w, r)
}

// requests returns what the server received so far.
func (f *fakeAPI) requests() []recorded {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]recorded(nil), f.reqs...)
}

// last returns the last request.
func (f *fakeAPI) last() recorded {
	f.t.Helper()
	reqs := f.requests()
	if len(reqs) == 0 {
		f.t.Fatal("no request received")
	}
	return reqs[len(reqs)-1]
}

// respond answers with status and a JSON body.
func respond(status int, body string, headers ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		for i := 0; i+1 < len(headers); i += 2 {
			w.Header().Set(headers[i], headers[i+1])
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		io.WriteString(w, body)
	}
}

// stall answers only when the client gives up (or after a long time).
func stall(w http.ResponseWriter, r *http.Request) {
	select {
	case <-r.Context().Done():
	case <-time.After(30 * time.Second):
	}
}

// jsonOf marshals v for a fake response body.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// path reads a value out of a decoded JSON body: keys for objects,
// ints for arrays.
func path(v any, keys ...any) any {
	for _, k := range keys {
		switch k := k.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			a, _ := v.([]any)
			if k >= len(a) {
				return nil
			}
			v = a[k]
		}
	}
	return v
}

// compact re-marshals a decoded JSON value for comparisons.
func compact(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// env is an Options.Getenv over a map.
func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// wantKind fails unless err is an *llm.Error of kind.
func wantKind(t *testing.T, err, kind error) *llm.Error {
	t.Helper()
	if !errors.Is(err, kind) {
		t.Fatalf("error %v, want kind %v", err, kind)
	}
	var e *llm.Error
	if !errors.As(err, &e) {
		t.Fatalf("error %T is not *llm.Error", err)
	}
	return e
}

// userRequest is a one-message request.
func userRequest(text string) llm.Request {
	return llm.Request{System: "You extract memories.", Messages: []llm.Message{{Role: llm.RoleUser, Text: text}}}
}

// memorySchemaJSON is the structured reply used by the tests.
const memorySchemaJSON = `{"type":"object","properties":{"memories":{"type":"array","items":{"type":"string"}}},"required":["memories"],"additionalProperties":false}`

func memorySchema() *llm.Schema {
	return &llm.Schema{Name: "memories", JSON: json.RawMessage(memorySchemaJSON)}
}

// recallTool is a tool offered in the tests.
func recallTool() llm.Tool {
	return llm.Tool{Name: "recall", Description: "Search memory", InputSchema: json.RawMessage(`{"type":"object","properties":{"query":{"type":"string"}},"required":["query"]}`)}
}

// quick is a context that fails a hanging test instead of hanging it.
func quick(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func contains(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}

// fmtAll formats err every way a log might.
func fmtAll(err error) string {
	return fmt.Sprintf("%v %+v %#v %s", err, err, err, err)
}

// compactJSON removes the blanks of a JSON text, keys sorted.
func compactJSON(s string) string {
	var v any
	if err := json.Unmarshal([]byte(s), &v); err != nil {
		panic(err)
	}
	return compact(v)
}
