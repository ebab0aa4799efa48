package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
)

// Recorder is a Provider that forwards every call to another and keeps
// the request and the answer, to write them as a replay file (ReplayFile)
// and as a transcript (Transcript). It is safe for concurrent use; calls
// are kept in the order they were made.
//
// A recording holds what the calls held: each request's rendered text
// (which repeats the conversation so far) and each reply. There is no
// limit beyond the wrapped provider's own (Options.MaxRequest,
// Options.MaxReply); a long agent run keeps megabytes.
//
// API keys do not reach a Provider's requests or replies; the error
// messages a Transcript shows are the provider's, which remove the key
// (StatusError, TransportError). A replay file keeps only an error's kind.
type Recorder struct {
	p     Provider
	mu    sync.Mutex
	calls []*recordedCall
}

// recordedCall is one call: the request as it was made and, once done,
// the answer.
type recordedCall struct {
	req      Request
	rendered string
	match    string
	resp     Response
	err      error
	done     bool
}

// NewRecorder wraps p: every Call is forwarded to p and kept.
func NewRecorder(p Provider) *Recorder { return &Recorder{p: p} }

// Name is the wrapped provider's name.
func (r *Recorder) Name() string { return r.p.Name() }

// Call forwards req to the wrapped provider and keeps both sides.
func (r *Recorder) Call(ctx context.Context, req Request) (Response, error) {
	c := &recordedCall{req: cloneRequest(req), rendered: render(req), match: matchFor(req)}
	r.mu.Lock()
	r.calls = append(r.calls, c)
	r.mu.Unlock()
	resp, err := r.p.Call(ctx, req)
	r.mu.Lock()
	c.resp, c.err, c.done = cloneResponse(resp), err, true
	r.mu.Unlock()
	return resp, err
}

// snapshot returns the calls so far, copied under the lock.
func (r *Recorder) snapshot() []recordedCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]recordedCall, len(r.calls))
	for i, c := range r.calls {
		out[i] = *c
	}
	return out
}

// cloneRequest copies the slices a caller may append to or reuse.
func cloneRequest(req Request) Request {
	req.Messages = slices.Clone(req.Messages)
	req.Tools = slices.Clone(req.Tools)
	return req
}

// cloneResponse copies the bytes a caller may change.
func cloneResponse(resp Response) Response {
	resp.JSON = bytes.Clone(resp.JSON)
	resp.ToolCalls = slices.Clone(resp.ToolCalls)
	for i, c := range resp.ToolCalls {
		resp.ToolCalls[i].Input = bytes.Clone(c.Input)
	}
	return resp
}

// ReplayFile is the calls as a `replay:` file (responses in call order,
// each with the match the replay provider needs to give the same answer
// to the same request; see matchFor), indented JSON ending in a newline.
//
// A call the replay provider refuses by itself (a request no provider can
// send, or one over the default Options.MaxRequest) is left out: replayed,
// it is refused again without using a response. A failure is kept as its
// kind, not its message or HTTP status. It fails, naming the call, when a
// call has not returned, when a call failed with a kind the format cannot
// express (no_key, command, exhausted, too_large, canceled, or an error
// that is not an *Error), and when replaying the file over the recorded
// requests, in order, would not give each one the recorded answer (the
// file is checked that way before it is returned).
func (r *Recorder) ReplayFile() ([]byte, error) {
	calls := r.snapshot()
	f := replayFile{Responses: []replayEntry{}}
	for i, c := range calls {
		if !c.done {
			return nil, fmt.Errorf("recording: call %d of %d has not returned", i+1, len(calls))
		}
		if c.err != nil && refusedLocally(c.req) {
			continue
		}
		e, err := entryOf(c)
		if err != nil {
			return nil, fmt.Errorf("recording: call %d of %d: %w", i+1, len(calls), err)
		}
		f.Responses = append(f.Responses, e)
	}
	data, err := encodeReplay(f)
	if err != nil {
		return nil, fmt.Errorf("recording: %w", err)
	}
	if err := verifyReplay(data, calls); err != nil {
		return nil, err
	}
	return data, nil
}

// encodeReplay writes f indented, without escaping <, > and & so that raw
// JSON keeps its bytes.
func encodeReplay(f replayFile) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// refusedLocally says whether the replay provider refuses req before it
// takes a response (checkRequest, the schema, the default request limit).
func refusedLocally(req Request) bool {
	p := NewProvider(&replayBackend{path: "an empty recording"}, Options{})
	_, err := p.Call(context.Background(), req)
	return err != nil && !errors.Is(err, ErrExhausted)
}

// entryOf is the replay entry of a finished call.
func entryOf(c recordedCall) (replayEntry, error) {
	e := replayEntry{
		Match:      c.match,
		Text:       c.resp.Text,
		JSON:       c.resp.JSON,
		Usage:      c.resp.Usage,
		StopReason: c.resp.StopReason,
		Model:      &c.resp.Model,
	}
	for _, tc := range c.resp.ToolCalls {
		e.ToolCalls = append(e.ToolCalls, replayToolCallOf(tc))
	}
	if c.err == nil {
		return e, nil
	}
	var le *Error
	if !errors.As(c.err, &le) {
		return e, fmt.Errorf("its error (%v) has no kind a replay file can express", c.err)
	}
	name := kindName(le.Kind)
	if _, ok := replayKind(name); !ok {
		return e, fmt.Errorf("its error (%v) is of kind %s, which a replay file cannot express (it holds %s)", c.err, orDefault(name, fmt.Sprint(le.Kind)), replayKindList())
	}
	e.Error = name
	return e, nil
}

// replayToolCallOf writes a tool call's input as JSON when that keeps its
// bytes (compact, valid), else as input_text.
func replayToolCallOf(tc ToolCall) replayToolCall {
	out := replayToolCall{ID: tc.ID, Name: tc.Name}
	if len(tc.Input) == 0 {
		return out
	}
	if json.Valid(tc.Input) && bytes.Equal(compactJSON(tc.Input), tc.Input) {
		out.Input = tc.Input
		return out
	}
	s := string(tc.Input)
	out.InputText = &s
	return out
}

// replayKindList names the kinds a replay file holds.
func replayKindList() string {
	var names []string
	for _, k := range kindNames {
		if _, ok := replayKind(k.name); ok {
			names = append(names, k.name)
		}
	}
	return strings.Join(names, ", ")
}

// verifyReplay replays data over the calls' requests in order and fails,
// naming the first call, if an answer differs from the recorded one.
func verifyReplay(data []byte, calls []recordedCall) error {
	b, err := parseReplay("the recording", data)
	if err != nil {
		return fmt.Errorf("recording: %w", err)
	}
	p := NewProvider(b, Options{})
	for i, c := range calls {
		resp, err := p.Call(context.Background(), c.req)
		d := responseDiff(c.resp, resp)
		if d == "" && errorKind(c.err) != errorKind(err) {
			d = fmt.Sprintf("error %s instead of %s", describeErr(err), describeErr(c.err))
		}
		if d != "" {
			return fmt.Errorf("recording: call %d of %d: a replay file cannot reproduce it: replayed, it gives %s", i+1, len(calls), d)
		}
	}
	return nil
}

// errorKind is the kind of an *Error in err, or err itself.
func errorKind(err error) error {
	var le *Error
	if errors.As(err, &le) {
		return le.Kind
	}
	return err
}

func describeErr(err error) string {
	if err == nil {
		return "no error"
	}
	return err.Error()
}

// responseDiff says how got differs from want ("" when it does not):
// every field byte for byte, but JSON, which is compared compact.
func responseDiff(want, got Response) string {
	switch {
	case got.Text != want.Text:
		return fmt.Sprintf("the text %q instead of %q", got.Text, want.Text)
	case !bytes.Equal(compactJSON(got.JSON), compactJSON(want.JSON)):
		return fmt.Sprintf("the JSON %s instead of %s", orNone(got.JSON), orNone(want.JSON))
	case len(got.ToolCalls) != len(want.ToolCalls):
		return fmt.Sprintf("%d tool calls instead of %d", len(got.ToolCalls), len(want.ToolCalls))
	case got.Usage != want.Usage:
		return fmt.Sprintf("the usage %+v instead of %+v", got.Usage, want.Usage)
	case got.StopReason != want.StopReason:
		return fmt.Sprintf("the stop reason %q instead of %q", got.StopReason, want.StopReason)
	case got.Model != want.Model:
		return fmt.Sprintf("the model %q instead of %q", got.Model, want.Model)
	}
	for i, c := range got.ToolCalls {
		w := want.ToolCalls[i]
		if c.ID != w.ID || c.Name != w.Name || !bytes.Equal(c.Input, w.Input) {
			return fmt.Sprintf("tool call %d as %s %s %q instead of %s %s %q", i+1, c.ID, c.Name, c.Input, w.ID, w.Name, w.Input)
		}
	}
	return ""
}

func orNone(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "none"
	}
	return string(raw)
}
