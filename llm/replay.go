package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// replayFile is the recorded-responses file.
type replayFile struct {
	Responses []replayEntry `json:"responses"`
}

// replayEntry is one recorded response. The omitempty tags keep a written
// file (Recorder.ReplayFile) to the fields that say something: a "json":
// null read back would be a candidate.
type replayEntry struct {
	Match      string           `json:"match"`
	Text       string           `json:"text,omitempty"`
	JSON       json.RawMessage  `json:"json,omitempty"`
	ToolCalls  []replayToolCall `json:"tool_calls,omitempty"`
	Usage      Usage            `json:"usage"`
	StopReason string           `json:"stop_reason,omitempty"`
	// Model is nil when the file has no "model": the reply's model is then
	// "replay"; a recorded "" stays "".
	Model *string `json:"model,omitempty"`
	Error string  `json:"error,omitempty"`
}

// replayToolCall is a recorded tool call: "input" is JSON (read compact,
// as the bridge carries it), "input_text" the exact bytes of an input that
// is not compact JSON.
type replayToolCall struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input,omitempty"`
	InputText *string         `json:"input_text,omitempty"`
}

// input returns the call's input bytes.
func (c replayToolCall) input() json.RawMessage {
	if c.InputText != nil {
		return json.RawMessage(*c.InputText)
	}
	return compactJSON(c.Input)
}

// compactJSON returns raw without blanks; raw itself when it is empty or
// not valid JSON (the decoder has checked a file's values).
func compactJSON(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 {
		return nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return raw
	}
	return b.Bytes()
}

// replayKind returns the kind an entry's error name stands for: those
// of the wire form but no_key, command, exhausted, too_large and canceled.
func replayKind(name string) (error, bool) {
	switch name {
	case "no_key", "command", "exhausted", "too_large", "canceled":
		return nil, false
	}
	return kindByName(name)
}

// replayBackend answers from a replayFile; safe for concurrent use.
type replayBackend struct {
	path    string
	entries []replayEntry
	mu      sync.Mutex
	used    []bool
}

func newReplay(path string, opts Options) (*replayBackend, error) {
	data, err := readFileOr(opts.ReadFile)(path)
	if err != nil {
		return nil, fmt.Errorf("replay %s: %w", path, err)
	}
	return parseReplay(path, data)
}

// parseReplay reads a replay file's bytes; path names it in errors.
func parseReplay(path string, data []byte) (*replayBackend, error) {
	var f replayFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("replay %s: %w", path, err)
	}
	for i, e := range f.Responses {
		if _, ok := replayKind(e.Error); e.Error != "" && !ok {
			return nil, fmt.Errorf("replay %s: response %d: unknown error %q", path, i+1, e.Error)
		}
		for _, c := range e.ToolCalls {
			if c.InputText != nil && len(c.Input) > 0 {
				return nil, fmt.Errorf("replay %s: response %d: tool call %q has both input and input_text", path, i+1, c.ID)
			}
		}
	}
	return &replayBackend{path: path, entries: f.Responses, used: make([]bool, len(f.Responses))}, nil
}

func (rb *replayBackend) Name() string { return "replay" }

func (rb *replayBackend) Send(ctx context.Context, req Request) (Reply, error) {
	if err := ctx.Err(); err != nil {
		return Reply{}, TransportError(rb.Name(), err, "")
	}
	e, next, ok := rb.take(render(req))
	if !ok {
		return Reply{}, &Error{Provider: rb.Name(), Kind: ErrExhausted, Message: "no unused response in " + rb.path + " matches the request" + next}
	}
	r := Reply{Response: Response{
		Text:       e.Text,
		Usage:      Usage{}.Add(e.Usage),
		StopReason: e.StopReason,
		Model:      "replay",
	}}
	if e.Model != nil {
		r.Model = *e.Model
	}
	for _, c := range e.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, ToolCall{ID: c.ID, Name: c.Name, Input: c.input()})
	}
	if kind, ok := replayKind(e.Error); ok {
		return r, &Error{Provider: rb.Name(), Kind: kind, Message: "recorded in " + rb.path}
	}
	switch {
	case req.Schema == nil:
	case len(e.JSON) > 0:
		r.Candidate, r.HasCandidate = compactJSON(e.JSON), true
	case len(req.Tools) == 0 && strings.TrimSpace(e.Text) != "":
		r.Candidate, r.HasCandidate = ExtractObject(e.Text), true
	}
	return r, nil
}

// take marks and returns the first unused entry that matches rendered;
// without one, next says which match the first unused entry waits for.
func (rb *replayBackend) take(rendered string) (e replayEntry, next string, ok bool) {
	rb.mu.Lock()
	defer rb.mu.Unlock()
	first := -1
	for i, e := range rb.entries {
		if rb.used[i] {
			continue
		}
		if strings.Contains(rendered, e.Match) {
			rb.used[i] = true
			return e, "", true
		}
		if first < 0 {
			first = i
		}
	}
	if first >= 0 {
		next = fmt.Sprintf("; the first unused one, response %d, wants the match %q", first+1, rb.entries[first].Match)
	}
	return replayEntry{}, next, false
}
