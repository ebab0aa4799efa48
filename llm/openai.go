package llm

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

const openAIBaseURL = "https://api.openai.com/v1/"

// openAIBackend calls OpenAI Chat Completions or a compatible server.
type openAIBackend struct {
	model string
	key   string
	chat  openai.ChatCompletionService
}

func newOpenAI(model string, opts Options) (*openAIBackend, error) {
	key := opts.getenv("OPENAI_API_KEY")
	base := opts.baseURL("OPENAI_BASE_URL")
	if key == "" && base == "" {
		return nil, &Error{Provider: "openai", Kind: ErrNoKey, Message: "OPENAI_API_KEY is not set (local servers need only a base URL)"}
	}
	httpClient := opts.HTTPClient
	if httpClient == nil {
		httpClient = &http.Client{}
	}
	// The service is built without openai.NewClient, which would read
	// OPENAI_* variables from the process environment.
	ro := []option.RequestOption{
		option.WithHTTPClient(httpClient),
		option.WithBaseURL(orDefault(base, openAIBaseURL)),
		option.WithMaxRetries(opts.maxRetries()),
		option.WithRequestTimeout(opts.timeout()),
	}
	if key != "" {
		ro = append(ro, option.WithAPIKey(key))
	}
	return &openAIBackend{model: model, key: key, chat: openai.NewChatCompletionService(ro...)}, nil
}

func (o *openAIBackend) name() string { return "openai" }

func (o *openAIBackend) send(ctx context.Context, req Request) (reply, error) {
	params, err := o.params(req)
	if err != nil {
		return reply{}, &Error{Provider: o.name(), Kind: ErrBadRequest, Message: err.Error()}
	}
	resp, err := o.chat.New(ctx, params)
	if err != nil {
		return reply{}, o.error(err)
	}
	return o.reply(req, resp)
}

// params builds the request body.
func (o *openAIBackend) params(req Request) (openai.ChatCompletionNewParams, error) {
	p := openai.ChatCompletionNewParams{Model: shared.ChatModel(o.model)}
	if req.MaxTokens > 0 {
		p.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
	}
	if req.System != "" {
		p.Messages = append(p.Messages, openai.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		p.Messages = append(p.Messages, openAIMessages(m)...)
	}
	for _, t := range req.Tools {
		schema, err := schemaObject(t.InputSchema, "tool "+t.Name)
		if err != nil {
			return p, err
		}
		fn := shared.FunctionDefinitionParam{Name: t.Name, Parameters: shared.FunctionParameters(schema)}
		if t.Description != "" {
			fn.Description = openai.String(t.Description)
		}
		p.Tools = append(p.Tools, openai.ChatCompletionFunctionTool(fn))
	}
	if req.Schema != nil {
		schema, err := schemaObject(req.Schema.JSON, "schema "+req.Schema.Name)
		if err != nil {
			return p, err
		}
		p.ResponseFormat = openai.ChatCompletionNewParamsResponseFormatUnion{OfJSONSchema: &shared.ResponseFormatJSONSchemaParam{
			JSONSchema: shared.ResponseFormatJSONSchemaJSONSchemaParam{Name: req.Schema.Name, Strict: openai.Bool(true), Schema: schema},
		}}
	}
	return p, nil
}

// openAIMessages converts a message: a user turn's tool results become
// tool messages before its text.
func openAIMessages(m Message) []openai.ChatCompletionMessageParamUnion {
	var out []openai.ChatCompletionMessageParamUnion
	if m.Role == RoleAssistant {
		var a openai.ChatCompletionAssistantMessageParam
		if m.Text != "" {
			a.Content.OfString = openai.String(m.Text)
		}
		for _, c := range m.ToolCalls {
			a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID:       c.ID,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: string(c.Input)},
			}})
		}
		return append(out, openai.ChatCompletionMessageParamUnion{OfAssistant: &a})
	}
	for _, r := range m.ToolResults {
		content := r.Content
		if r.IsError {
			content = "Error: " + content
		}
		out = append(out, openai.ToolMessage(content, r.CallID))
	}
	if m.Text != "" || len(m.ToolResults) == 0 {
		out = append(out, openai.UserMessage(m.Text))
	}
	return out
}

// reply converts the response.
func (o *openAIBackend) reply(req Request, resp *openai.ChatCompletion) (reply, error) {
	r := reply{Response: Response{
		Model: resp.Model,
		Usage: Usage{InputTokens: resp.Usage.PromptTokens, OutputTokens: resp.Usage.CompletionTokens},
	}}
	if len(resp.Choices) == 0 {
		return r, &Error{Provider: o.name(), Kind: ErrEmpty, Message: "no choices"}
	}
	ch := resp.Choices[0]
	r.StopReason = ch.FinishReason
	if ch.Message.Refusal != "" {
		return r, &Error{Provider: o.name(), Kind: ErrRefusal, Message: ch.Message.Refusal}
	}
	r.Text = ch.Message.Content
	for _, tc := range ch.Message.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		r.ToolCalls = append(r.ToolCalls, ToolCall{ID: tc.ID, Name: tc.Function.Name, Input: []byte(orDefault(tc.Function.Arguments, "{}"))})
	}
	if ch.FinishReason == "content_filter" && r.Text == "" && len(r.ToolCalls) == 0 {
		return r, &Error{Provider: o.name(), Kind: ErrRefusal, Message: "finish reason content_filter"}
	}
	if req.Schema != nil && len(r.ToolCalls) == 0 && strings.TrimSpace(r.Text) != "" {
		r.candidate, r.hasCandidate = extractObject(r.Text), true
	}
	return r, nil
}

// error converts an SDK error.
func (o *openAIBackend) error(err error) error {
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) {
		return transportError(o.name(), err, o.key)
	}
	msg := apiErr.Message
	if msg == "" {
		msg = apiErr.Type
	}
	kind := kindOfStatus(apiErr.StatusCode, msg)
	if apiErr.Code == "context_length_exceeded" {
		kind = ErrContextLength
	}
	if apiErr.Code != "" {
		msg = apiErr.Code + ": " + msg
	}
	return &Error{Provider: o.name(), Status: apiErr.StatusCode, Kind: kind, Message: redact(msg, o.key)}
}
