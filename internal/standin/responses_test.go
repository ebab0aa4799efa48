package standin

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// sse reads the events of a streamed answer: (event name, data) pairs.
func sse(t *testing.T, resp *http.Response) [][2]string {
	t.Helper()
	var evs [][2]string
	var name string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "event: "); ok {
			name = v
		} else if v, ok := strings.CutPrefix(line, "data: "); ok {
			evs = append(evs, [2]string{name, v})
		}
	}
	return evs
}

func TestResponsesTurns(t *testing.T) {
	s, err := StartResponses(
		ResponsesTurn{Text: "Let me look.", Calls: []ResponsesCall{{Name: "exec_command", Arguments: `{"cmd":"ls"}`}}},
		ResponsesTurn{Calls: []ResponsesCall{{Name: "apply_patch", Arguments: "*** Begin Patch\n*** End Patch\n", Custom: true, CallID: "own"}}, InputTokens: 100, CachedTokens: 40, OutputTokens: 7},
	)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") || !strings.HasSuffix(s.URL, "/v1") {
		t.Errorf("URL %q: want a loopback base URL ending in /v1", s.URL)
	}

	resp := post(t, s.URL, "/responses", `{"model":"m","stream":true,"input":[]}`)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d, type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	var names []string
	var items []map[string]any
	for _, ev := range sse(t, resp) {
		var data map[string]any
		if err := json.Unmarshal([]byte(ev[1]), &data); err != nil {
			t.Fatalf("event %s: data not JSON: %v", ev[0], err)
		}
		if data["type"] != ev[0] {
			t.Errorf("event %s carries type %v", ev[0], data["type"])
		}
		names = append(names, ev[0])
		if ev[0] == "response.output_item.done" {
			items = append(items, data["item"].(map[string]any))
		}
	}
	want := "response.created response.output_item.added response.output_text.delta response.output_item.done response.output_item.added response.output_item.done response.completed"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("events\n got %s\nwant %s", got, want)
	}
	if len(items) != 2 || items[0]["type"] != "message" || items[1]["type"] != "function_call" ||
		items[1]["name"] != "exec_command" || items[1]["arguments"] != `{"cmd":"ls"}` || items[1]["call_id"] != "call_1" {
		t.Errorf("items %v", items)
	}

	resp = post(t, s.URL, "/responses", `{"second":true}`)
	evs := sse(t, resp)
	var item, completed map[string]any
	for _, ev := range evs {
		var data map[string]any
		json.Unmarshal([]byte(ev[1]), &data)
		switch ev[0] {
		case "response.output_item.done":
			item = data["item"].(map[string]any)
		case "response.completed":
			completed = data["response"].(map[string]any)
		}
	}
	if item["type"] != "custom_tool_call" || item["input"] != "*** Begin Patch\n*** End Patch\n" || item["call_id"] != "own" {
		t.Errorf("custom call %v", item)
	}
	usage := completed["usage"].(map[string]any)
	if usage["input_tokens"] != 100.0 || usage["output_tokens"] != 7.0 || usage["total_tokens"] != 107.0 ||
		usage["input_tokens_details"].(map[string]any)["cached_tokens"] != 40.0 {
		t.Errorf("usage %v", usage)
	}
	if s.Left() != 0 {
		t.Errorf("Left() = %d after both turns", s.Left())
	}

	// Past the script: a 400 naming the request, not an invented answer.
	resp = post(t, s.URL, "/responses", `{}`)
	if resp.StatusCode != 400 {
		t.Errorf("a request past the script: status %d, want 400", resp.StatusCode)
	}
	other, err := http.Get(s.URL + "/models")
	if err != nil {
		t.Fatal(err)
	}
	other.Body.Close()
	if other.StatusCode != 404 {
		t.Errorf("GET /v1/models: status %d, want 404", other.StatusCode)
	}

	reqs := s.Requests()
	if len(reqs) != 4 || string(reqs[1].Body) != `{"second":true}` || reqs[3].Method != "GET" || reqs[3].Path != "/v1/models" {
		t.Errorf("requests recorded: %d, %+v", len(reqs), reqs)
	}
}

func TestResponsesRequestMessages(t *testing.T) {
	r := ResponsesRequest{Method: "POST", Path: "/v1/responses", Body: []byte(`{"input":[
		{"type":"message","role":"developer","content":[{"type":"input_text","text":"context from a hook"}]},
		{"type":"message","role":"user","content":[{"type":"input_text","text":"a"},{"type":"input_text","text":"b"}]},
		{"type":"function_call_output","call_id":"c","output":"x"}]}`)}
	msgs, err := r.Messages()
	if err != nil {
		t.Fatal(err)
	}
	if len(msgs) != 2 || msgs[0].Role != "developer" || msgs[0].Text[0] != "context from a hook" || strings.Join(msgs[1].Text, "+") != "a+b" {
		t.Errorf("messages %+v", msgs)
	}
	if _, err := (ResponsesRequest{Method: "POST", Path: "/v1/responses", Body: []byte("{")}).Messages(); err == nil || !strings.Contains(err.Error(), "/v1/responses") {
		t.Errorf("a body that is not JSON: %v", err)
	}
}

// TestResponsesNamespace: a call of a namespaced function tool (Codex
// offers an MCP server's tools in the namespace mcp__<server>) carries
// its namespace beside its name; a call without one has none.
func TestResponsesNamespace(t *testing.T) {
	s, err := StartResponses(ResponsesTurn{Calls: []ResponsesCall{
		{Name: "memory_read", Namespace: "mcp__yoimem", Arguments: `{"path":"e1"}`},
		{Name: "exec_command", Arguments: `{"cmd":"ls"}`},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var items []map[string]any
	for _, ev := range sse(t, post(t, s.URL, "/responses", `{"stream":true}`)) {
		var data map[string]any
		if err := json.Unmarshal([]byte(ev[1]), &data); err != nil {
			t.Fatal(err)
		}
		if ev[0] == "response.output_item.done" {
			items = append(items, data["item"].(map[string]any))
		}
	}
	if len(items) != 2 || items[0]["name"] != "memory_read" || items[0]["namespace"] != "mcp__yoimem" || items[0]["type"] != "function_call" {
		t.Errorf("the namespaced call: %v", items)
	}
	if _, ok := items[len(items)-1]["namespace"]; ok {
		t.Errorf("a call without a namespace has one: %v", items[len(items)-1])
	}
}
