package llm

import (
	"bytes"
	"context"
	"encoding/json"

	"github.com/yoimem/git-yoimem/internal/tokens"
)

// Role is who wrote a message.
type Role string

// The roles of a conversation; the system prompt is Request.System.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// The JSON tags below are the wire form of the git-yoimem-llm bridge (see
// the package doc); they are part of the package's compatibility.

// Message is one turn. An assistant turn carries Text and ToolCalls; a user
// turn carries Text and the ToolResults answering the previous turn's calls.
type Message struct {
	Role        Role         `json:"role"`
	Text        string       `json:"text,omitempty"`
	ToolCalls   []ToolCall   `json:"tool_calls,omitempty"`
	ToolResults []ToolResult `json:"tool_results,omitempty"`
}

// ToolCall is the model's request to run a tool. Input is the model's
// arguments, usually a JSON object but not necessarily valid JSON.
type ToolCall struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input,omitempty"`
}

// toolCallJSON is the wire form of a ToolCall: Input raw when it is valid
// JSON, else as the string InputText.
type toolCallJSON struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input,omitempty"`
	InputText *string         `json:"input_text,omitempty"`
}

// MarshalJSON writes {"id", "name", "input"}, the input raw; an input that
// is not valid JSON is written as the string "input_text" instead.
func (c ToolCall) MarshalJSON() ([]byte, error) {
	w := toolCallJSON{ID: c.ID, Name: c.Name, Input: c.Input}
	if len(c.Input) > 0 && !json.Valid(c.Input) {
		s := string(c.Input)
		w.Input, w.InputText = nil, &s
	}
	return marshalWire(w)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (c *ToolCall) UnmarshalJSON(data []byte) error {
	var w toolCallJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	*c = ToolCall{ID: w.ID, Name: w.Name, Input: w.Input}
	if w.InputText != nil {
		c.Input = json.RawMessage(*w.InputText)
	}
	return nil
}

// ToolResult answers the ToolCall with the same ID.
type ToolResult struct {
	CallID  string `json:"call_id"`
	Content string `json:"content,omitempty"`
	IsError bool   `json:"is_error,omitempty"`
}

// Tool is a tool offered to the model; InputSchema is a JSON schema object.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema,omitempty"`
}

// Schema is the strict JSON schema of the final structured reply.
type Schema struct {
	Name string          `json:"name"`
	JSON json.RawMessage `json:"json,omitempty"`
}

// Request is one model call.
type Request struct {
	System    string    `json:"system,omitempty"`
	Messages  []Message `json:"messages"`
	Tools     []Tool    `json:"tools,omitempty"`
	Schema    *Schema   `json:"schema,omitempty"`
	MaxTokens int       `json:"max_tokens,omitempty"` // 0: the provider's default
}

// Usage is the tokens of a call. InputTokens counts every prompt token,
// cached or not (Anthropic: input + cache_creation + cache_read; OpenAI:
// prompt_tokens).
type Usage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
}

// Add sums two usages. Each count stops at tokens.Max (2^53), and a count
// out of range (negative, larger) counts 0: a server that reports 2^63-1
// tokens must not wrap a sum around. Usage{}.Add(u) puts u in range.
func (u Usage) Add(v Usage) Usage {
	return Usage{InputTokens: tokens.Add(u.InputTokens, v.InputTokens), OutputTokens: tokens.Add(u.OutputTokens, v.OutputTokens)}
}

// Response is the model's reply.
type Response struct {
	Text      string     `json:"text,omitempty"`
	ToolCalls []ToolCall `json:"tool_calls,omitempty"`
	// JSON is the structured reply, validated against Request.Schema; set
	// when a schema was given and the model answered through it.
	JSON       json.RawMessage `json:"json,omitempty"`
	Usage      Usage           `json:"usage"`
	StopReason string          `json:"stop_reason,omitempty"`
	Model      string          `json:"model,omitempty"`
}

// Provider is a model.
type Provider interface {
	Call(ctx context.Context, req Request) (Response, error)
	Name() string
}

// marshalWire is json.Marshal without the escaping of <, > and &, so that
// raw JSON crosses the bridge as it was (compacted).
func marshalWire(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
