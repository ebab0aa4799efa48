package standin

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// sseEvent is one server-sent event as a client reads it.
type sseEvent struct {
	Name string
	Data map[string]any
}

// readSSE parses an event stream by hand: "event:" and "data:" lines,
// events ended by a blank line.
func readSSE(t *testing.T, r io.Reader) []sseEvent {
	t.Helper()
	var out []sseEvent
	var cur sseEvent
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := sc.Text()
		switch {
		case line == "":
			if cur.Name != "" {
				out = append(out, cur)
			}
			cur = sseEvent{}
		case strings.HasPrefix(line, "event: "):
			cur.Name = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &cur.Data); err != nil {
				t.Fatalf("data line is not JSON: %q", line)
			}
		default:
			t.Fatalf("unexpected line in the stream: %q", line)
		}
	}
	if cur.Name != "" {
		t.Fatalf("the stream ends inside event %q", cur.Name)
	}
	return out
}

func post(t *testing.T, url, path, body string) *http.Response {
	t.Helper()
	resp, err := http.Post(url+path, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// TestMessagesStream: a streamed answer has the API's events in order,
// every event's type equal to its name; the text and the tool input
// arrive in pieces that join to the scripted ones; message_delta carries
// the stop reason and the output usage.
func TestMessagesStream(t *testing.T) {
	input := map[string]any{"file_path": "/r/.yoi/memory/decisions/x.md", "content": strings.Repeat("déjà vu ", 20)}
	m := NewMessages(Options{},
		Turn{Text: strings.Repeat("Writing it. ", 10), Tools: []ToolUse{{Name: "Write", Input: input}}},
		Turn{Text: "Done."},
	)
	defer m.Close()

	resp := post(t, m.URL, "/v1/messages", `{"model":"claude-x","stream":true,"messages":[{"role":"user","content":"hi"}]}`)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" || resp.StatusCode != 200 {
		t.Fatalf("status %d, Content-Type %q", resp.StatusCode, ct)
	}
	events := readSSE(t, resp.Body)
	var names []string
	text, partial := "", ""
	for _, e := range events {
		if e.Data["type"] != e.Name {
			t.Errorf("event %s has type %v", e.Name, e.Data["type"])
		}
		if len(names) == 0 || names[len(names)-1] != e.Name {
			names = append(names, e.Name)
		}
		if e.Name == "content_block_delta" {
			d := e.Data["delta"].(map[string]any)
			switch d["type"] {
			case "text_delta":
				text += d["text"].(string)
			case "input_json_delta":
				partial += d["partial_json"].(string)
			}
		}
	}
	want := []string{"message_start", "ping",
		"content_block_start", "content_block_delta", "content_block_stop",
		"content_block_start", "content_block_delta", "content_block_stop",
		"message_delta", "message_stop"}
	if !slices.Equal(names, want) {
		t.Errorf("events %v\nwant %v", names, want)
	}
	if text != strings.Repeat("Writing it. ", 10) {
		t.Errorf("joined text %q", text)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(partial), &got); err != nil || got["content"] != input["content"] || got["file_path"] != input["file_path"] {
		t.Errorf("joined tool input %q (%v)", partial, err)
	}
	start := events[0].Data["message"].(map[string]any)
	if start["role"] != "assistant" || start["model"] != "claude-x" || start["stop_reason"] != nil || start["usage"].(map[string]any)["input_tokens"].(float64) < 1 {
		t.Errorf("message_start: %v", start)
	}
	var starts []map[string]any
	for _, e := range events {
		if e.Name == "content_block_start" {
			starts = append(starts, e.Data["content_block"].(map[string]any))
		}
	}
	tool := starts[1]
	if tool["type"] != "tool_use" || tool["name"] != "Write" || !strings.HasPrefix(tool["id"].(string), "toolu_") {
		t.Errorf("tool_use block start: %v", tool)
	}
	delta := events[len(events)-2].Data
	if delta["delta"].(map[string]any)["stop_reason"] != "tool_use" || delta["usage"].(map[string]any)["output_tokens"].(float64) < 1 {
		t.Errorf("message_delta: %v", delta)
	}
	if err := m.Err(); err == nil || !strings.Contains(err.Error(), "1 of 2 scripted turns never asked for") {
		t.Errorf("Err with a turn left: %v", err)
	}
}

// TestMessagesJSON: without stream the answer is one message object;
// Script replaces the turns to come.
func TestMessagesJSON(t *testing.T) {
	m := NewMessages(Options{}, Turn{Text: "replaced"})
	defer m.Close()
	m.Script(Turn{Tools: []ToolUse{{Name: "Bash", Input: map[string]string{"command": "ls"}}}})
	resp := post(t, m.URL, "/v1/messages", `{"model":"claude-x","messages":[]}`)
	var msg struct {
		Type       string `json:"type"`
		StopReason string `json:"stop_reason"`
		Content    []struct {
			Type, Name string
			Input      map[string]string
		}
		Usage struct {
			InputTokens  int `json:"input_tokens"`
			OutputTokens int `json:"output_tokens"`
		}
	}
	if err := json.NewDecoder(resp.Body).Decode(&msg); err != nil {
		t.Fatal(err)
	}
	if msg.Type != "message" || msg.StopReason != "tool_use" || len(msg.Content) != 1 ||
		msg.Content[0].Type != "tool_use" || msg.Content[0].Name != "Bash" || msg.Content[0].Input["command"] != "ls" {
		t.Errorf("message: %+v", msg)
	}
	if msg.Usage.InputTokens < 1 || msg.Usage.OutputTokens < 1 {
		t.Errorf("usage: %+v", msg.Usage)
	}
	if err := m.Err(); err != nil {
		t.Error(err)
	}
}

// TestMessagesChecks: what a test learns from Err and Requests: a
// request without a turn's wanted text (escaped in JSON), requests past
// the script (answered 400, so that the client does not retry), unknown
// endpoints; count_tokens answers an estimate; Aside requests do not
// take turns.
func TestMessagesChecks(t *testing.T) {
	m := NewMessages(Options{Aside: func(r Request) bool { return r.Model == "haiku" }},
		Turn{Want: []string{"line one\nline \"two\"", "absent text"}, Text: "ok"})
	defer m.Close()

	if resp := post(t, m.URL, "/v1/messages", `{"model":"haiku"}`); resp.StatusCode != 200 {
		t.Errorf("aside request: status %d", resp.StatusCode)
	}
	post(t, m.URL, "/v1/messages", `{"model":"x","system":"line one\nline \"two\""}`)
	if resp := post(t, m.URL, "/v1/messages", `{"model":"x"}`); resp.StatusCode != 400 {
		t.Errorf("past the script: status %d, want 400", resp.StatusCode)
	}
	resp := post(t, m.URL, "/v1/messages/count_tokens", `{"model":"x","messages":[]}`)
	var count struct {
		InputTokens int `json:"input_tokens"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&count); err != nil || count.InputTokens < 1 {
		t.Errorf("count_tokens: %+v, %v", count, err)
	}
	if resp := post(t, m.URL, "/v1/complete", `{}`); resp.StatusCode != 404 {
		t.Errorf("unknown endpoint: status %d", resp.StatusCode)
	}
	if resp := post(t, m.URL, "/v1/messages", `not json`); resp.StatusCode != 400 {
		t.Errorf("bad body: status %d", resp.StatusCode)
	}

	// a client with the stand-in as its proxy, going past the loopback
	proxied := &http.Client{Transport: &http.Transport{Proxy: func(*http.Request) (*url.URL, error) { return url.Parse(m.URL) }}}
	if resp, err := proxied.Get("https://api.example.invalid/v1/x"); err == nil {
		resp.Body.Close()
		t.Error("a request through the stand-in as a proxy went through")
	}

	err := m.Err()
	for _, want := range []string{`lacks "absent text"`, "past the 1 scripted turns", "POST /v1/complete: not an endpoint",
		"request body", "CONNECT api.example.invalid:443: a request past the loopback, through the stand-in as a proxy"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Err: %v; want it to say %q", err, want)
		}
	}
	if err != nil && strings.Contains(err.Error(), "line one") {
		t.Errorf("Err names a wanted text the request had: %v", err)
	}
	if n, s := len(m.Requests()), len(m.Scripted()); n != 7 || s != 3 {
		t.Errorf("%d requests, %d scripted; want 7 and 3", n, s)
	}
	if !m.Requests()[0].Aside {
		t.Error("the haiku request is not marked Aside")
	}
}
