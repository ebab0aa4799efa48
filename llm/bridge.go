package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"strconv"
	"time"
)

// DefaultAPIHelper is the program the bridge runs when Options.APIHelper
// is "".
const DefaultAPIHelper = "git-yoimem-llm"

// bridgeSlack is added to the exec timeout of a bridged call, for the
// helper's start and the answer.
const bridgeSlack = 10 * time.Second

// apiEnv is what the bridge checks before it runs the helper, so that a
// missing key fails in Open, as in the helper.
var apiEnv = map[string]struct{ key, baseURL, noKey string }{
	"anthropic": {"ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY is not set"},
	"openai":    {"OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_KEY is not set (local servers need only a base URL)"},
}

// bridgeCall is the helper's stdin.
type bridgeCall struct {
	Model   string        `json:"model"`
	Options bridgeOptions `json:"options"`
	Request Request       `json:"request"`
}

// bridgeOptions are the Options that cross to the helper. MaxRetries is
// Options.MaxRetries as given (0: default, negative: none).
type bridgeOptions struct {
	BaseURL    string `json:"base_url,omitempty"`
	TimeoutMS  int64  `json:"timeout_ms,omitempty"`
	MaxRetries int    `json:"max_retries,omitempty"`
	MaxReply   Limit  `json:"max_reply"`
	MaxRequest Limit  `json:"max_request"`
}

// bridgeAnswer is the helper's stdout. With Error, Response is what the
// failed call returned (the usage of its attempts).
type bridgeAnswer struct {
	Response *Response `json:"response,omitempty"`
	Error    *Error    `json:"error,omitempty"`
}

// bridge is an Anthropic or OpenAI provider that runs each call in the
// helper process, which links the SDKs this package does not.
type bridge struct {
	kind, model string
	opts        bridgeOptions
	timeout     time.Duration
	helper      string
	exec        Execer
}

func newBridge(kind, model string, opts Options) (*bridge, error) {
	e := apiEnv[kind]
	base := opts.BaseURLOr(e.baseURL)
	if opts.Env(e.key) == "" && base == "" {
		return nil, &Error{Provider: kind, Kind: ErrNoKey, Message: e.noKey}
	}
	timeout := opts.RequestTimeout()
	b := &bridge{
		kind:  kind,
		model: model,
		opts: bridgeOptions{BaseURL: base, TimeoutMS: int64((timeout + time.Millisecond - 1) / time.Millisecond), MaxRetries: opts.MaxRetries,
			MaxReply: opts.ReplyLimit(), MaxRequest: opts.RequestLimit()},
		timeout: 2*timeout + bridgeSlack, // a call may make a repair request
		helper:  orDefault(opts.APIHelper, DefaultAPIHelper),
		exec:    opts.Exec,
	}
	if b.exec == nil {
		b.exec = OSExec{}
	}
	return b, nil
}

func (b *bridge) Name() string { return b.kind }

// Call runs `helper call` with the call on stdin and reads the answer. The
// helper validates and repairs; only the answer's form is checked here.
func (b *bridge) Call(ctx context.Context, req Request) (Response, error) {
	if err := checkRequest(req); err != nil {
		return Response{}, &Error{Provider: b.kind, Kind: ErrBadRequest, Message: err.Error()}
	}
	if err := checkRequestSize(b.kind, req, b.opts.MaxRequest); err != nil {
		return Response{}, err
	}
	stdin, err := marshalWire(bridgeCall{Model: b.kind + ":" + b.model, Options: b.opts, Request: req})
	if err != nil {
		return Response{}, &Error{Provider: b.kind, Kind: ErrBadRequest, Message: "encode the request: " + err.Error(), Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, b.timeout)
	defer cancel()
	// The helper reads no more than the call it is given (the request and
	// the envelope), and answers with at most MaxReply bytes.
	argv := []string{b.helper, "call", "--max-input-bytes=" + strconv.Itoa(len(stdin))}
	res, err := b.exec.Exec(ctx, argv, stdin, b.opts.MaxReply.Bytes)
	if errors.Is(err, ErrStdoutLimit) {
		return Response{}, TooLarge(b.kind, b.helper+"'s answer", -1, b.opts.MaxReply)
	}
	if err != nil {
		return Response{}, b.runError(ctx, err)
	}
	if res.ExitCode != 0 {
		return Response{}, &Error{Provider: b.kind, Kind: ErrCommand, Message: fmt.Sprintf("%s: exit status %d: %s", b.helper, res.ExitCode, firstLines(string(res.Stderr), 5))}
	}
	var ans bridgeAnswer
	if err := json.Unmarshal(res.Stdout, &ans); err != nil || (ans.Response == nil && ans.Error == nil) {
		why := "no answer"
		if err != nil {
			why = err.Error()
		}
		return Response{}, &Error{Provider: b.kind, Kind: ErrCommand, Message: fmt.Sprintf("%s: bad answer on stdout (%s); stderr: %s", b.helper, why, firstLines(string(res.Stderr), 5))}
	}
	var resp Response
	if ans.Response != nil {
		resp = *ans.Response
		resp.Usage = Usage{}.Add(resp.Usage) // the helper's counts, in range
	}
	if ans.Error != nil {
		if ans.Error.Provider == "" {
			ans.Error.Provider = b.kind
		}
		return resp, ans.Error
	}
	if req.Schema != nil && len(resp.JSON) > 0 && !json.Valid(resp.JSON) {
		return resp, &Error{Provider: b.kind, Kind: ErrCommand, Message: b.helper + ": the structured reply is not valid JSON"}
	}
	return resp, nil
}

// runError reports a helper that could not run or was stopped.
func (b *bridge) runError(ctx context.Context, err error) error {
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return &Error{Provider: b.kind, Kind: ErrTimeout, Message: fmt.Sprintf("%s: stopped at the deadline (at most %v)", b.helper, b.timeout), Err: err}
	case errors.Is(err, context.Canceled):
		return &Error{Provider: b.kind, Kind: context.Canceled, Message: b.helper + ": canceled", Err: err}
	case errors.Is(err, exec.ErrNotFound), errors.Is(err, fs.ErrNotExist):
		return &Error{Provider: b.kind, Kind: ErrCommand, Err: err, Message: fmt.Sprintf(
			"%s, which makes the Anthropic and OpenAI API calls, is not installed next to git-yoimem or on PATH (install.sh builds both): %v", DefaultAPIHelper, err)}
	}
	return &Error{Provider: b.kind, Kind: ErrCommand, Message: b.helper + ": " + err.Error(), Err: err}
}
