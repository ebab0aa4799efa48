package apis

import (
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/yoimem/git-yoimem/llm"
)

// countingTransport counts the requests an Options.HTTPClient sends.
type countingTransport struct {
	mu sync.Mutex
	n  int
}

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.mu.Lock()
	c.n++
	c.mu.Unlock()
	return http.DefaultTransport.RoundTrip(r)
}

func TestHTTPClientOption(t *testing.T) {
	for _, tt := range []struct {
		model, keyVar, baseVar, body string
	}{
		{"anthropic:claude-test", "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", anthropicBody(t, "end_turn", textBlock("ok"))},
		{"openai:gpt-test", "OPENAI_API_KEY", "OPENAI_BASE_URL", openAIBody(t, "stop", map[string]any{"content": "ok"})},
	} {
		f := newFakeAPI(t, respond(200, tt.body))
		ct := &countingTransport{}
		p, err := llm.Open(tt.model, llm.Options{
			APIs:       Open,
			Getenv:     env(map[string]string{tt.keyVar: testKey, tt.baseVar: "http://127.0.0.1:1"}),
			BaseURL:    f.srv.URL, // wins over the variable
			HTTPClient: &http.Client{Transport: ct},
			MaxRetries: llm.NoRetries,
		})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Call(quick(t), userRequest("hi")); err != nil {
			t.Fatalf("%s: %v", tt.model, err)
		}
		if ct.n != 1 {
			t.Errorf("%s: custom client sent %d requests", tt.model, ct.n)
		}
	}
}

func TestOpenUnknown(t *testing.T) {
	if _, err := Open("command", "echo", llm.Options{}); err == nil || !strings.Contains(err.Error(), "anthropic or openai") {
		t.Errorf("%v", err)
	}
}
