package apis

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/llm"
)

// callInput is the stdin of `call`.
type callInput struct {
	Model   string `json:"model"`
	Options struct {
		BaseURL    string `json:"base_url"`
		TimeoutMS  int64  `json:"timeout_ms"`
		MaxRetries int    `json:"max_retries"`
	} `json:"options"`
	Request *llm.Request `json:"request"`
}

// answer is the stdout of `call`.
type answer struct {
	Response *llm.Response `json:"response,omitempty"`
	Error    *llm.Error    `json:"error,omitempty"`
}

// Serve answers one call of the bridge's wire format (package llm): the
// call's JSON on stdin, the answer on stdout. It returns the process's exit
// code: 0 when it answered (an API error is an answer), 2 for input that
// is not a call, 1 when the answer could not be written. git-yoimem-llm
// is this function; tests run it in their own binaries.
func Serve(ctx context.Context, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "git-yoimem-llm call: "+format+"\n", a...)
		return 2
	}
	data, err := io.ReadAll(stdin)
	if err != nil {
		return bad("read stdin: %v", err)
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
	var out bytes.Buffer
	enc := json.NewEncoder(&out)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(ans); err != nil {
		fmt.Fprintf(stderr, "git-yoimem-llm call: encode the answer: %v\n", err)
		return 1
	}
	if _, err := stdout.Write(out.Bytes()); err != nil {
		fmt.Fprintf(stderr, "git-yoimem-llm call: write the answer: %v\n", err)
		return 1
	}
	return 0
}
