package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/yoimem/git-yoimem/internal/tokens"
)

// commandBackend runs a local command: prompt on stdin, reply on stdout.
type commandBackend struct {
	argv     []string
	exec     Execer
	maxReply Limit
}

func newCommand(spec string, opts Options) (*commandBackend, error) {
	argv, err := splitArgv(spec)
	if err != nil {
		return nil, fmt.Errorf("model command:%s: %w", spec, err)
	}
	ex := opts.Exec
	if ex == nil {
		ex = OSExec{}
	}
	return &commandBackend{argv: argv, exec: ex, maxReply: opts.ReplyLimit()}, nil
}

func (c *commandBackend) Name() string { return "command" }

func (c *commandBackend) Send(ctx context.Context, req Request) (Reply, error) {
	if len(req.Tools) > 0 {
		return Reply{}, &Error{Provider: c.Name(), Kind: ErrBadRequest, Message: fmt.Sprintf("%s: the command provider does not support tools (%d given)", c.argv[0], len(req.Tools))}
	}
	res, err := c.exec.Exec(ctx, c.argv, []byte(render(req)), c.maxReply.Bytes)
	if errors.Is(err, ErrStdoutLimit) {
		return Reply{}, TooLarge(c.Name(), c.argv[0]+"'s reply on stdout", -1, c.maxReply)
	}
	if err != nil {
		return Reply{}, c.runError(ctx, err)
	}
	if res.ExitCode != 0 {
		return Reply{}, &Error{Provider: c.Name(), Kind: ErrCommand, Message: fmt.Sprintf("%s: exit status %d: %s", c.argv[0], res.ExitCode, firstLines(string(res.Stderr), 5))}
	}
	r, err := c.parse(res.Stdout)
	if err != nil {
		return r, err
	}
	if req.Schema == nil {
		r.Candidate, r.HasCandidate = nil, false
	} else if !r.HasCandidate && strings.TrimSpace(r.Text) != "" {
		r.Candidate, r.HasCandidate = ExtractObject(r.Text), true
	}
	return r, nil
}

// runError reports a command that could not run or was stopped.
func (c *commandBackend) runError(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &Error{Provider: c.Name(), Kind: ErrTimeout, Message: c.argv[0] + ": killed at the timeout", Err: err}
	}
	if errors.Is(err, context.Canceled) {
		return &Error{Provider: c.Name(), Kind: context.Canceled, Message: c.argv[0] + ": canceled", Err: err}
	}
	return &Error{Provider: c.Name(), Kind: ErrCommand, Message: err.Error(), Err: err}
}

// claudeResult is the envelope of `claude -p --output-format json`.
type claudeResult struct {
	Type    string  `json:"type"`
	Subtype string  `json:"subtype"`
	IsError bool    `json:"is_error"`
	Result  *string `json:"result"`
	// StructuredOutput is set when claude ran with --json-schema.
	StructuredOutput json.RawMessage `json:"structured_output"`
	Usage            struct {
		InputTokens              int64 `json:"input_tokens"`
		CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
		CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
		OutputTokens             int64 `json:"output_tokens"`
	} `json:"usage"`
}

// parse reads stdout: plain text, or Claude Code's JSON envelope.
func (c *commandBackend) parse(stdout []byte) (Reply, error) {
	var env claudeResult
	if json.Unmarshal(stdout, &env) != nil || env.Type != "result" || env.Result == nil {
		return Reply{Response: Response{Text: strings.TrimSpace(string(stdout)), Model: c.argv[0]}}, nil
	}
	r := Reply{Response: Response{
		Text:       strings.TrimSpace(*env.Result),
		Model:      c.argv[0],
		StopReason: env.Subtype,
		Usage: Usage{
			InputTokens:  tokens.Sum(env.Usage.InputTokens, env.Usage.CacheCreationInputTokens, env.Usage.CacheReadInputTokens),
			OutputTokens: tokens.Sum(env.Usage.OutputTokens),
		},
	}}
	if so := env.StructuredOutput; len(so) > 0 && string(so) != "null" {
		r.Candidate, r.HasCandidate = so, true
	}
	if env.IsError {
		return r, &Error{Provider: c.Name(), Kind: ErrCommand, Message: fmt.Sprintf("%s reported an error (%s): %s", c.argv[0], env.Subtype, firstLines(r.Text, 5))}
	}
	return r, nil
}

// lineBytes is the most of one line of a command's output an error quotes.
const lineBytes = 300

// firstLines returns the first n lines of s, trimmed, for an error: each
// line at most lineBytes (a longer one says its length), and control
// bytes and invalid UTF-8 escaped (\xNN), so that what a command printed
// can neither flood nor forge the terminal's lines.
func firstLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	more := len(lines) > n
	if more {
		lines = lines[:n]
	}
	for i, l := range lines {
		l = strings.TrimSuffix(l, "\r")
		if len(l) > lineBytes {
			lines[i] = escapeLine(l[:lineBytes]) + fmt.Sprintf("... (%d bytes)", len(l))
		} else {
			lines[i] = escapeLine(l)
		}
	}
	if more {
		lines = append(lines, "...")
	}
	out := strings.Join(lines, "\n")
	if out == "" {
		return "(no stderr)"
	}
	return out
}

// escapeLine writes control bytes (but tab) and invalid UTF-8 as \xNN.
func escapeLine(l string) string {
	var b strings.Builder
	for i := 0; i < len(l); {
		r, size := utf8.DecodeRuneInString(l[i:])
		switch {
		case r == utf8.RuneError && size <= 1, r < 0x20 && r != '\t', r == 0x7f:
			fmt.Fprintf(&b, "\\x%02x", l[i])
		default:
			b.WriteString(l[i : i+size])
		}
		i += size
	}
	return b.String()
}

// FirstLines is firstLines for other runners of commands: the first n
// lines of what a command printed, bounded and escaped, for an error.
func FirstLines(s string, n int) string { return firstLines(s, n) }
