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

// replayEntry is one recorded response.
type replayEntry struct {
	Match     string          `json:"match"`
	Text      string          `json:"text"`
	JSON      json.RawMessage `json:"json"`
	ToolCalls []struct {
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"tool_calls"`
	Usage struct {
		InputTokens  int64 `json:"input_tokens"`
		OutputTokens int64 `json:"output_tokens"`
	} `json:"usage"`
	StopReason string `json:"stop_reason"`
	Model      string `json:"model"`
	Error      string `json:"error"`
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
	var f replayFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("replay %s: %w", path, err)
	}
	for i, e := range f.Responses {
		if _, ok := replayKind(e.Error); e.Error != "" && !ok {
			return nil, fmt.Errorf("replay %s: response %d: unknown error %q", path, i, e.Error)
		}
	}
	return &replayBackend{path: path, entries: f.Responses, used: make([]bool, len(f.Responses))}, nil
}

func (rb *replayBackend) Name() string { return "replay" }

func (rb *replayBackend) Send(ctx context.Context, req Request) (Reply, error) {
	if err := ctx.Err(); err != nil {
		return Reply{}, TransportError(rb.Name(), err, "")
	}
	e, ok := rb.take(render(req))
	if !ok {
		return Reply{}, &Error{Provider: rb.Name(), Kind: ErrExhausted, Message: "no unused response in " + rb.path + " matches the request"}
	}
	r := Reply{Response: Response{
		Text:       e.Text,
		Usage:      Usage{}.Add(Usage{InputTokens: e.Usage.InputTokens, OutputTokens: e.Usage.OutputTokens}),
		StopReason: e.StopReason,
		Model:      orDefault(e.Model, "replay"),
	}}
	if kind, ok := replayKind(e.Error); ok {
		return r, &Error{Provider: rb.Name(), Kind: kind, Message: "recorded in " + rb.path}
	}
	for _, c := range e.ToolCalls {
		r.ToolCalls = append(r.ToolCalls, ToolCall{ID: c.ID, Name: c.Name, Input: c.Input})
	}
	switch {
	case req.Schema == nil:
	case len(e.JSON) > 0:
		r.Candidate, r.HasCandidate = e.JSON, true
	case len(req.Tools) == 0 && strings.TrimSpace(e.Text) != "":
		r.Candidate, r.HasCandidate = ExtractObject(e.Text), true
	}
	return r, nil
}

// take marks and returns the first unused entry that matches rendered.
func (rb *replayBackend) take(rendered string) (replayEntry, bool) {
	rb.mu.Lock()
	defer rb.mu.Unlock()
	for i, e := range rb.entries {
		if !rb.used[i] && strings.Contains(rendered, e.Match) {
			rb.used[i] = true
			return e, true
		}
	}
	return replayEntry{}, false
}
