package standin

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// message is one answer in the Messages API's terms.
type message struct {
	ID          string
	Model       string
	InputTokens int
	content     []block
	stopReason  string
}

// block is a content block: text, or a tool_use with its input as JSON.
type block struct {
	Type  string // "text" or "tool_use"
	Text  string
	ID    string
	Name  string
	Input json.RawMessage
}

func (m *message) blocks(turn Turn, n int) {
	if turn.Text != "" || len(turn.Tools) == 0 {
		m.content = append(m.content, block{Type: "text", Text: turn.Text})
	}
	m.stopReason = "end_turn"
	for i, t := range turn.Tools {
		input, err := json.Marshal(t.Input)
		if err != nil || t.Input == nil {
			input = []byte("{}")
		}
		id := fmt.Sprintf("toolu_standin_%03d_%d", n, i+1)
		m.content = append(m.content, block{Type: "tool_use", ID: id, Name: t.Name, Input: input})
		m.stopReason = "tool_use"
	}
}

func (m *message) outputTokens() int {
	n := 1
	for _, b := range m.content {
		n += len(b.Text)/4 + len(b.Input)/4
	}
	return n
}

func (b block) start() map[string]any {
	if b.Type == "text" {
		return map[string]any{"type": "text", "text": ""}
	}
	return map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": map[string]any{}}
}

func (b block) whole() map[string]any {
	if b.Type == "text" {
		return map[string]any{"type": "text", "text": b.Text}
	}
	return map[string]any{"type": "tool_use", "id": b.ID, "name": b.Name, "input": b.Input}
}

func (m *message) head(content []map[string]any, stop any, output int) map[string]any {
	return map[string]any{
		"id": m.ID, "type": "message", "role": "assistant", "model": m.Model,
		"content": content, "stop_reason": stop, "stop_sequence": nil,
		"usage": map[string]any{
			"input_tokens": m.InputTokens, "output_tokens": output,
			"cache_creation_input_tokens": 0, "cache_read_input_tokens": 0,
		},
	}
}

// full is the non-streaming answer.
func (m *message) full() map[string]any {
	content := make([]map[string]any, len(m.content))
	for i, b := range m.content {
		content[i] = b.whole()
	}
	return m.head(content, m.stopReason, m.outputTokens())
}

// stream writes the answer as the API streams it: message_start, ping,
// per block content_block_start, deltas (text_delta or
// input_json_delta, in pieces so that clients must join them) and
// content_block_stop, then message_delta with the stop reason and the
// output usage, and message_stop.
func (m *message) stream(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	send := func(event string, data map[string]any) {
		data["type"] = event
		b, _ := json.Marshal(data)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", event, b)
		if f, ok := w.(http.Flusher); ok {
			f.Flush()
		}
	}
	send("message_start", map[string]any{"message": m.head([]map[string]any{}, nil, 1)})
	send("ping", map[string]any{})
	for i, b := range m.content {
		send("content_block_start", map[string]any{"index": i, "content_block": b.start()})
		for _, piece := range pieces(b) {
			send("content_block_delta", map[string]any{"index": i, "delta": piece})
		}
		send("content_block_stop", map[string]any{"index": i})
	}
	send("message_delta", map[string]any{
		"delta": map[string]any{"stop_reason": m.stopReason, "stop_sequence": nil},
		"usage": map[string]any{"output_tokens": m.outputTokens()},
	})
	send("message_stop", map[string]any{})
}

// pieceBytes is how much of a block one delta carries.
const pieceBytes = 40

// pieces splits a block's text or input JSON into deltas, at rune
// boundaries (clients join partial_json before they parse it, as with the
// real API).
func pieces(b block) []map[string]any {
	var out []map[string]any
	if b.Type == "text" {
		for _, s := range split(b.Text) {
			out = append(out, map[string]any{"type": "text_delta", "text": s})
		}
		return out
	}
	for _, s := range split(string(b.Input)) {
		out = append(out, map[string]any{"type": "input_json_delta", "partial_json": s})
	}
	return out
}

func split(s string) []string {
	var out []string
	for len(s) > pieceBytes {
		cut := pieceBytes
		for cut < len(s) && s[cut]&0xC0 == 0x80 { // not inside a UTF-8 sequence
			cut++
		}
		out = append(out, s[:cut])
		s = s[cut:]
	}
	if s != "" {
		out = append(out, s)
	}
	return out
}
