package apis

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"
	"github.com/yoimem/git-yoimem/internal/tokens"
	"github.com/yoimem/git-yoimem/llm"
)

// anthropicDefaultMaxTokens is max_tokens when the request sets none (the
// API requires one).
const anthropicDefaultMaxTokens = 8192

// anthropicBackend calls the Anthropic Messages API.
type anthropicBackend struct {
	model  string
	key    string
	client anthropic.Client
}

func newAnthropic(model string, opts llm.Options) (*anthropicBackend, error) {
	key := opts.Env("ANTHROPIC_API_KEY")
	base := opts.BaseURLOr("ANTHROPIC_BASE_URL")
	if key == "" && base == "" {
		return nil, &llm.Error{Provider: "anthropic", Kind: llm.ErrNoKey, Message: "ANTHROPIC_API_KEY is not set"}
	}
	ro := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithMaxRetries(opts.Retries()),
		// Also lifts the SDK's refusal of large non-streaming max_tokens.
		option.WithRequestTimeout(opts.RequestTimeout()),
		option.WithMiddleware(limitReplies(opts.ReplyLimit())),
	}
	if key != "" {
		ro = append(ro, option.WithAPIKey(key))
	}
	if base != "" {
		ro = append(ro, option.WithBaseURL(base))
	}
	if opts.HTTPClient != nil {
		ro = append(ro, option.WithHTTPClient(opts.HTTPClient))
	}
	return &anthropicBackend{model: model, key: key, client: anthropic.NewClient(ro...)}, nil
}

func (a *anthropicBackend) Name() string { return "anthropic" }

func (a *anthropicBackend) Send(ctx context.Context, req llm.Request) (llm.Reply, error) {
	params, err := a.params(req)
	if err != nil {
		return llm.Reply{}, &llm.Error{Provider: a.Name(), Kind: llm.ErrBadRequest, Message: err.Error()}
	}
	msg, err := a.client.Messages.New(ctx, params)
	if err != nil {
		return llm.Reply{}, a.error(err)
	}
	return a.reply(req, msg)
}

// params builds the request body.
func (a *anthropicBackend) params(req llm.Request) (anthropic.MessageNewParams, error) {
	p := anthropic.MessageNewParams{
		Model:     anthropic.Model(a.model),
		MaxTokens: int64(orDefault(req.MaxTokens, anthropicDefaultMaxTokens)),
	}
	if req.System != "" {
		p.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	for _, m := range req.Messages {
		p.Messages = append(p.Messages, anthropicMessage(m))
	}
	for _, t := range req.Tools {
		tp, err := anthropicTool(t.Name, t.Description, t.InputSchema)
		if err != nil {
			return p, err
		}
		p.Tools = append(p.Tools, tp)
	}
	if req.Schema != nil {
		tp, err := anthropicTool(req.Schema.Name, "Give the final reply as this tool's input.", req.Schema.JSON)
		if err != nil {
			return p, err
		}
		p.Tools = append(p.Tools, tp)
		if len(req.Tools) == 0 {
			p.ToolChoice = anthropic.ToolChoiceParamOfTool(req.Schema.Name)
		} else {
			p.ToolChoice = anthropic.ToolChoiceUnionParam{OfAuto: &anthropic.ToolChoiceAutoParam{}}
		}
	}
	return p, nil
}

// anthropicMessage converts a message; tool results come first in a user
// turn, as the API requires.
func anthropicMessage(m llm.Message) anthropic.MessageParam {
	var blocks []anthropic.ContentBlockParamUnion
	for _, r := range m.ToolResults {
		blocks = append(blocks, anthropicToolResult(r))
	}
	if m.Text != "" {
		blocks = append(blocks, anthropic.NewTextBlock(m.Text))
	}
	for _, c := range m.ToolCalls {
		input := c.Input
		if !json.Valid(input) {
			input = json.RawMessage(`{}`)
		}
		blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, input, c.Name))
	}
	if m.Role == llm.RoleAssistant {
		return anthropic.NewAssistantMessage(blocks...)
	}
	return anthropic.NewUserMessage(blocks...)
}

// anthropicToolResult converts a tool result; empty content is left out,
// since the API rejects empty text blocks.
func anthropicToolResult(r llm.ToolResult) anthropic.ContentBlockParamUnion {
	if r.Content != "" {
		return anthropic.NewToolResultBlock(r.CallID, r.Content, r.IsError)
	}
	return anthropic.ContentBlockParamUnion{OfToolResult: &anthropic.ToolResultBlockParam{ToolUseID: r.CallID, IsError: anthropic.Bool(r.IsError)}}
}

// anthropicTool converts a tool; the schema's keywords other than
// properties and required travel as extra fields.
func anthropicTool(name, description string, schema json.RawMessage) (anthropic.ToolUnionParam, error) {
	m, err := schemaObject(schema, "tool "+name)
	if err != nil {
		return anthropic.ToolUnionParam{}, err
	}
	in := anthropic.ToolInputSchemaParam{Properties: m["properties"], ExtraFields: map[string]any{}}
	for k, v := range m {
		switch k {
		case "properties", "type":
		case "required":
			req, ok := v.([]any)
			if !ok {
				return anthropic.ToolUnionParam{}, fmt.Errorf("tool %s: schema field required is not an array", name)
			}
			for _, r := range req {
				s, ok := r.(string)
				if !ok {
					return anthropic.ToolUnionParam{}, fmt.Errorf("tool %s: schema field required holds a non-string", name)
				}
				in.Required = append(in.Required, s)
			}
		default:
			in.ExtraFields[k] = v
		}
	}
	tp := anthropic.ToolParam{Name: name, InputSchema: in}
	if description != "" {
		tp.Description = anthropic.String(description)
	}
	return anthropic.ToolUnionParam{OfTool: &tp}, nil
}

// reply converts the response.
func (a *anthropicBackend) reply(req llm.Request, msg *anthropic.Message) (llm.Reply, error) {
	u := msg.Usage
	r := llm.Reply{Response: llm.Response{
		StopReason: string(msg.StopReason),
		Model:      string(msg.Model),
		Usage: llm.Usage{
			InputTokens:  tokens.Sum(u.InputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens),
			OutputTokens: tokens.Sum(u.OutputTokens),
		},
	}}
	var text []string
	for _, block := range msg.Content {
		switch b := block.AsAny().(type) {
		case anthropic.TextBlock:
			text = append(text, b.Text)
		case anthropic.ToolUseBlock:
			call := llm.ToolCall{ID: b.ID, Name: b.Name, Input: json.RawMessage(b.Input)}
			if req.Schema != nil && b.Name == req.Schema.Name && r.ViaTool == nil {
				r.ViaTool = &call
				r.Candidate, r.HasCandidate = call.Input, true
				continue
			}
			r.ToolCalls = append(r.ToolCalls, call)
		}
	}
	r.Text = strings.Join(text, "")
	switch msg.StopReason {
	case anthropic.StopReasonRefusal:
		return r, &llm.Error{Provider: a.Name(), Kind: llm.ErrRefusal, Message: orDefault(r.Text, "stop reason refusal")}
	case "model_context_window_exceeded":
		if r.Text == "" && len(r.ToolCalls) == 0 && r.ViaTool == nil {
			return r, &llm.Error{Provider: a.Name(), Kind: llm.ErrContextLength, Message: "stop reason model_context_window_exceeded"}
		}
	}
	if req.Schema != nil && len(req.Tools) == 0 && !r.HasCandidate && r.Text != "" {
		r.Candidate, r.HasCandidate = llm.ExtractObject(r.Text), true
	}
	return r, nil
}

// error converts an SDK error.
func (a *anthropicBackend) error(err error) error {
	if e, ok := replyLimitError(a.Name(), err); ok {
		return e
	}
	var apiErr *anthropic.Error
	if !errors.As(err, &apiErr) {
		return llm.TransportError(a.Name(), err, a.key)
	}
	msg := apiErr.Message
	if msg == "" {
		msg = string(apiErr.Type())
	}
	return llm.StatusError(a.Name(), apiErr.StatusCode, msg, a.key)
}
