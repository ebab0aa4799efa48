package apis

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
	"github.com/yoimem/git-yoimem/llm"
)

const openAIBaseURL = "https://api.openai.com/v1/"

// openAIBackend calls OpenAI Chat Completions or a compatible server.
type openAIBackend struct {
	model string
	key   string
	chat  openai.ChatCompletionService
}

func newOpenAI(model string, opts llm.Options) (*openAIBackend, error) {
	key := opts.Env("OPENAI_API_KEY")
	base := opts.BaseURLOr("OPENAI_BASE_URL")
	if key == "" && base == "" {
		return nil, &llm.Error{Provider: "openai", Kind: llm.ErrNoKey, Message: "OPENAI_API_KEY is not set (local servers need only a base URL)"}
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
		option.WithMaxRetries(opts.Retries()),
		option.WithRequestTimeout(opts.RequestTimeout()),
		option.WithMiddleware(limitReplies(opts.ReplyLimit())),
	}
	if key != "" {
		ro = append(ro, option.WithAPIKey(key))
	}
	return &openAIBackend{model: model, key: key, chat: openai.NewChatCompletionService(ro...)}, nil
}

func (o *openAIBackend) Name() string { return "openai" }

func (o *openAIBackend) Send(ctx context.Context, req llm.Request) (llm.Reply, error) {
	params, err := o.params(req)
	if err != nil {
		return llm.Reply{}, &llm.Error{Provider: o.Name(), Kind: llm.ErrBadRequest, Message: err.Error()}
	}
	resp, err := o.chat.New(ctx, params)
	if err != nil {
		return llm.Reply{}, o.error(err)
	}
	return o.reply(req, resp)
}

// params builds the request body.
func (o *openAIBackend) params(req llm.Request) (openai.ChatCompletionNewParams, error) {
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
func openAIMessages(m llm.Message) []openai.ChatCompletionMessageParamUnion {
	var out []openai.ChatCompletionMessageParamUnion
	if m.Role == llm.RoleAssistant {
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
func (o *openAIBackend) reply(req llm.Request, resp *openai.ChatCompletion) (llm.Reply, error) {
	r := llm.Reply{Response: llm.Response{
		Model: resp.Model,
		Usage: llm.Usage{}.Add(llm.Usage{InputTokens: resp.Usage.PromptTokens, OutputTokens: resp.Usage.CompletionTokens}),
	}}
	if len(resp.Choices) == 0 {
		return r, &llm.Error{Provider: o.Name(), Kind: llm.ErrEmpty, Message: "no choices"}
	}
	ch := resp.Choices[0]
	r.StopReason = ch.FinishReason
	if ch.Message.Refusal != "" {
		return r, &llm.Error{Provider: o.Name(), Kind: llm.ErrRefusal, Message: ch.Message.Refusal}
	}
	r.Text = ch.Message.Content
	for _, tc := range ch.Message.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		r.ToolCalls = append(r.ToolCalls, llm.ToolCall{ID: tc.ID, Name: tc.Function.Name, Input: []byte(orDefault(tc.Function.Arguments, "{}"))})
	}
	if ch.FinishReason == "content_filter" && r.Text == "" && len(r.ToolCalls) == 0 {
		return r, &llm.Error{Provider: o.Name(), Kind: llm.ErrRefusal, Message: "finish reason content_filter"}
	}
	if req.Schema != nil && len(r.ToolCalls) == 0 && strings.TrimSpace(r.Text) != "" {
		r.Candidate, r.HasCandidate = llm.ExtractObject(r.Text), true
	}
	return r, nil
}

// error converts an SDK error.
func (o *openAIBackend) error(err error) error {
	if e, ok := replyLimitError(o.Name(), err); ok {
		return e
	}
	var apiErr *openai.Error
	if !errors.As(err, &apiErr) {
		return llm.TransportError(o.Name(), err, o.key)
	}
	msg := apiErr.Message
	if msg == "" {
		msg = apiErr.Type
	}
	e := llm.StatusError(o.Name(), apiErr.StatusCode, msg, o.key)
	if apiErr.Code == "context_length_exceeded" {
		e.Kind = llm.ErrContextLength
	}
	if apiErr.Code != "" {
		e.Message = llm.StatusError(o.Name(), apiErr.StatusCode, apiErr.Code+": "+msg, o.key).Message
	}
	return e
}
