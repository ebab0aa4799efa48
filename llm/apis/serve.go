package apis

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/quote"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/llm"
)

// callInput is the stdin of `call`.
type callInput struct {
	Model   string `json:"model"`
	Options struct {
		BaseURL    string    `json:"base_url"`
		TimeoutMS  int64     `json:"timeout_ms"`
		MaxRetries int       `json:"max_retries"`
		MaxReply   llm.Limit `json:"max_reply"`
		MaxRequest llm.Limit `json:"max_request"`
	} `json:"options"`
	Request *llm.Request `json:"request"`
}

// answer is the stdout of `call`.
type answer struct {
	Response *llm.Response `json:"response,omitempty"`
	Error    *llm.Error    `json:"error,omitempty"`
}

// DefaultMaxInputBytes is what Serve reads of its stdin at most when
// ServeCall is not told (--max-input-bytes): the largest default request
// and room for the envelope.
const DefaultMaxInputBytes = llm.DefaultMaxRequestBytes + 1<<20

// ServeCall is `git-yoimem-llm call [--max-input-bytes=N]`: args are what
// follows "call". The bridge gives the size of the call it writes, so that
// the helper reads no more than that from its stdin.
func ServeCall(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	maxInput := int64(DefaultMaxInputBytes)
	for _, a := range args {
		v, ok := strings.CutPrefix(a, "--max-input-bytes=")
		n, err := strconv.ParseInt(v, 10, 64)
		if !ok || err != nil || n <= 0 {
			fmt.Fprintf(stderr, "git-yoimem-llm call: unknown argument %q (want --max-input-bytes=N)\n", a)
			return 2
		}
		maxInput = n
	}
	return Serve(ctx, stdin, stdout, stderr, getenv, maxInput)
}

// Serve answers one call of the bridge's wire format (package llm): the
// call's JSON on stdin, at most maxInput bytes of it, and the answer on
// stdout, at most the call's max_reply bytes (a larger answer is replaced
// by a too_large error). It returns the process's exit code: 0 when it
// answered (an API error is an answer), 2 for input that is not a call
// (more than maxInput bytes included), 1 when the answer could not be
// written. git-yoimem-llm is this function; tests run it in their own
// binaries.
func Serve(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string, maxInput int64) int {
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "git-yoimem-llm call: "+format+"\n", a...)
		return 2
	}
	data, err := io.ReadAll(io.LimitReader(stdin, maxInput+1))
	if err != nil {
		return bad("read stdin: %v", err)
	}
	if int64(len(data)) > maxInput {
		return bad("stdin is more than %s bytes, the most this call reads (--max-input-bytes)", quote.Thousands(maxInput))
	}
	var in callInput
	if err := json.Unmarshal(data, &in); err != nil {
		return bad("stdin is not the call's JSON object: %v", err)
	}
	kind, model, _ := strings.Cut(in.Model, ":")
	model = strings.TrimSpace(model)
	if (kind != "anthropic" && kind != "openai") || model == "" {
		return bad("model %q: want anthropic:<model> or openai:<model>", in.Model)
	}
	if in.Request == nil {
		return bad("no request")
	}
	opts := llm.Options{
		Getenv:     getenv,
		BaseURL:    in.Options.BaseURL,
		Timeout:    time.Duration(in.Options.TimeoutMS) * time.Millisecond,
		MaxRetries: in.Options.MaxRetries,
		MaxReply:   in.Options.MaxReply,
		MaxRequest: in.Options.MaxRequest,
	}
	var ans answer
	p, err := Open(kind, model, opts)
	if err == nil {
		var resp llm.Response
		resp, err = p.Call(ctx, *in.Request)
		ans.Response = &resp
	}
	if err != nil {
		var e *llm.Error
		if !errors.As(err, &e) {
			e = &llm.Error{Provider: kind, Kind: llm.ErrCommand, Message: err.Error()}
		}
		ans.Error = e
	}
	out, err := encodeAnswer(ans)
	if err != nil {
		fmt.Fprintf(stderr, "git-yoimem-llm call: encode the answer: %v\n", err)
		return 1
	}
	// The bridge reads no more than the reply limit: an answer over it
	// (a reply near the limit, escaped) is replaced by the error.
	if lim := opts.ReplyLimit(); int64(out.Len()) > lim.Bytes {
		small := answer{Error: llm.TooLarge(kind, "the answer", int64(out.Len()), lim)}
		if ans.Response != nil {
			small.Response = &llm.Response{Usage: ans.Response.Usage, Model: ans.Response.Model}
		}
		if out, err = encodeAnswer(small); err != nil {
			fmt.Fprintf(stderr, "git-yoimem-llm call: encode the answer: %v\n", err)
			return 1
		}
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		fmt.Fprintf(stderr, "git-yoimem-llm call: write the answer: %v\n", err)
		return 1
	}
	return 0
}

// encodeAnswer is the answer's JSON line, <, > and & unescaped.
func encodeAnswer(ans answer) (*bytes.Buffer, error) {
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	return &out, enc.Encode(ans)
}
