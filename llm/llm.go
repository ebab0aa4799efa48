package llm

import (
	"context"
	"encoding/json"
)

// Role is who wrote a message.
type Role string

// The roles of a conversation; the system prompt is Request.System.
const (
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
)

// Message is one turn. An assistant turn carries Text and ToolCalls; a user
// turn carries Text and the ToolResults answering the previous turn's calls.
type Message struct {
	Role        Role
	Text        string
	ToolCalls   []ToolCall
	ToolResults []ToolResult
}

// ToolCall is the model's request to run a tool.
type ToolCall struct {
	ID    string
	Name  string
	Input json.RawMessage
}

// ToolResult answers the ToolCall with the same ID.
type ToolResult struct {
	CallID  string
	Content string
	IsError bool
}

// Tool is a tool offered to the model; InputSchema is a JSON schema object.
type Tool struct {
	Name        string
	Description string
	InputSchema json.RawMessage
}

// Schema is the strict JSON schema of the final structured reply.
type Schema struct {
	Name string
	JSON json.RawMessage
}

// Request is one model call.
type Request struct {
	System    string
	Messages  []Message
	Tools     []Tool
	Schema    *Schema
	MaxTokens int // 0: the provider's default
}

// Usage is the tokens of a call. InputTokens counts every prompt token,
// cached or not (Anthropic: input + cache_creation + cache_read; OpenAI:
// prompt_tokens).
type Usage struct {
	InputTokens  int64
	OutputTokens int64
}

// Add sums two usages.
func (u Usage) Add(v Usage) Usage {
	return Usage{InputTokens: u.InputTokens + v.InputTokens, OutputTokens: u.OutputTokens + v.OutputTokens}
}

// Response is the model's reply.
type Response struct {
	Text      string
	ToolCalls []ToolCall
	// JSON is the structured reply, validated against Request.Schema; set
	// when a schema was given and the model answered through it.
	JSON       json.RawMessage
	Usage      Usage
	StopReason string
	Model      string
}

// Provider is a model.
type Provider interface {
	Call(ctx context.Context, req Request) (Response, error)
	Name() string
}
