package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"
)

// Backend is one provider's round trip: the part of a provider that
// speaks its wire format. Send returns the reply with the structured
// candidate unvalidated; NewProvider wraps a Backend with the request
// checks, the timeout, validation and repair. Send's errors should be
// *Error values (see StatusError and TransportError).
type Backend interface {
	Name() string
	Send(ctx context.Context, req Request) (Reply, error)
}

// Reply is a Backend's answer.
type Reply struct {
	Response
	// Candidate is the structured reply to validate, when HasCandidate;
	// ExtractObject finds it in a reply text.
	Candidate    []byte
	HasCandidate bool
	// ViaTool is the schema tool's call that carried Candidate, if any; it
	// is not in Response.ToolCalls.
	ViaTool *ToolCall
}

// NewProvider wraps b with request checks, the timeout (opts.Timeout per
// round trip), schema validation and the repair attempt.
func NewProvider(b Backend, opts Options) Provider {
	return &provider{b: b, timeout: opts.RequestTimeout(), maxRequest: opts.RequestLimit()}
}

// provider wraps a backend with request checks, the timeout, schema
// validation and the repair attempt.
type provider struct {
	b          Backend
	timeout    time.Duration
	maxRequest Limit
}

func (p *provider) Name() string { return p.b.Name() }

// Call sends req and, with a schema, validates the structured reply.
func (p *provider) Call(ctx context.Context, req Request) (Response, error) {
	if err := checkRequest(req); err != nil {
		return Response{}, &Error{Provider: p.Name(), Kind: ErrBadRequest, Message: err.Error()}
	}
	if err := checkRequestSize(p.Name(), req, p.maxRequest); err != nil {
		return Response{}, err
	}
	var v *validator
	if req.Schema != nil {
		var err error
		if v, err = compileSchema(req.Schema); err != nil {
			return Response{}, &Error{Provider: p.Name(), Kind: ErrBadRequest, Message: err.Error()}
		}
	}
	r, err := p.send(ctx, req)
	if err != nil || v == nil || !r.HasCandidate {
		return r.Response, err
	}
	verr := v.check(r.Candidate)
	if verr == nil {
		return accept(r), nil
	}
	repair := repairRequest(req, r, verr)
	if err := checkRequestSize(p.Name(), repair, p.maxRequest); err != nil {
		return r.Response, &Error{Provider: p.Name(), Kind: ErrInvalidOutput, Message: "the reply " + verr.Error() + "; with it, the repair request would be too large: " + err.Error()}
	}
	r2, err := p.send(ctx, repair)
	r2.Usage = r2.Usage.Add(r.Usage)
	if err != nil {
		return r2.Response, err
	}
	if !r2.HasCandidate {
		if len(req.Tools) > 0 {
			return r2.Response, nil
		}
		return r2.Response, &Error{Provider: p.Name(), Kind: ErrInvalidOutput, Message: "no structured reply after the repair request; first reply " + verr.Error()}
	}
	if verr2 := v.check(r2.Candidate); verr2 != nil {
		return r2.Response, &Error{Provider: p.Name(), Kind: ErrInvalidOutput, Message: "after one repair attempt, the reply " + verr2.Error()}
	}
	return accept(r2), nil
}

// send makes one round trip under the timeout and rejects empty replies.
func (p *provider) send(ctx context.Context, req Request) (Reply, error) {
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	r, err := p.b.Send(ctx, req)
	if err != nil {
		return r, err
	}
	if r.Text == "" && len(r.ToolCalls) == 0 && r.ViaTool == nil && len(r.Candidate) == 0 {
		return r, &Error{Provider: p.Name(), Kind: ErrEmpty, Message: "no text and no tool calls (stop reason " + quoteOrNone(r.StopReason) + ")"}
	}
	return r, nil
}

// accept sets the validated structured reply.
func accept(r Reply) Response {
	resp := r.Response
	resp.JSON = json.RawMessage(slices.Clone(r.Candidate))
	return resp
}

// repairRequest appends the invalid reply and a request to correct it.
func repairRequest(req Request, r Reply, verr error) Request {
	out := req
	out.Messages = slices.Clip(req.Messages)
	instruction := fmt.Sprintf("Your structured reply is invalid: it %v. Reply again with only the corrected JSON object matching the schema %q.", verr, req.Schema.Name)
	if r.ViaTool == nil {
		out.Messages = append(out.Messages,
			Message{Role: RoleAssistant, Text: r.Text},
			Message{Role: RoleUser, Text: instruction})
		return out
	}
	calls := append(slices.Clone(r.ToolCalls), *r.ViaTool)
	results := make([]ToolResult, 0, len(calls))
	for _, c := range calls {
		content := "Not run: this turn's structured reply was invalid."
		if c.ID == r.ViaTool.ID {
			content = fmt.Sprintf("Invalid input: it %v. Call %s again with the corrected object.", verr, c.Name)
		}
		results = append(results, ToolResult{CallID: c.ID, Content: content, IsError: true})
	}
	out.Messages = append(out.Messages,
		Message{Role: RoleAssistant, Text: r.Text, ToolCalls: calls},
		Message{Role: RoleUser, ToolResults: results})
	return out
}

// checkRequest rejects requests no provider can send.
func checkRequest(req Request) error {
	if len(req.Messages) == 0 {
		return fmt.Errorf("no messages")
	}
	for i, m := range req.Messages {
		if m.Role != RoleUser && m.Role != RoleAssistant {
			return fmt.Errorf("message %d: role %q is not user or assistant", i, m.Role)
		}
		if m.Text == "" && len(m.ToolCalls) == 0 && len(m.ToolResults) == 0 {
			return fmt.Errorf("message %d is empty", i)
		}
	}
	for _, t := range req.Tools {
		if t.Name == "" {
			return fmt.Errorf("tool with empty name")
		}
		if req.Schema != nil && t.Name == req.Schema.Name {
			return fmt.Errorf("tool %q has the schema's name", t.Name)
		}
	}
	if req.MaxTokens < 0 {
		return fmt.Errorf("max tokens %d is negative", req.MaxTokens)
	}
	return nil
}

func quoteOrNone(s string) string {
	if s == "" {
		return "none"
	}
	return fmt.Sprintf("%q", s)
}
