package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/memory"
)

// Served is the engine's tools without its model: what an agent CLI run
// as the model (a command: model) calls over MCP. The same definitions,
// the same session and the same checks as the built-in loop; only who
// decides the calls differs. Safe for concurrent use: calls are run one
// at a time, in the order they arrive.
type Served struct {
	// Observe, if set, is told about each call run, under the lock: the
	// run's log and progress.
	Observe func(name string, input json.RawMessage, r CallResult)

	mu      sync.Mutex
	tb      *toolbox
	brief   Brief
	tools   []llm.Tool
	done    bool // report was accepted
	stopped bool // the run serves no more calls
	summary string
	fatal   error // the first error that ends the run
}

// Serve prepares the tools over session s, and the first message, as
// Engine.Run does before its first model call (the same limits: an entry
// too large for one tool result stops the run before the agent starts).
func Serve(s *consolidate.Session, brief BriefOptions, search memory.Options) (*Served, error) {
	e := Engine{Brief: brief, Search: search}
	req, tb, err := e.start(s)
	if err != nil {
		return nil, err
	}
	b := Brief{Text: req.Messages[0].Text}
	return &Served{tb: tb, brief: b, tools: req.Tools}, nil
}

// Tools are the tools offered: memory.ToolDefs' with the loop's
// extensions, and report.
func (v *Served) Tools() []llm.Tool { return v.tools }

// Prompt is the whole brief an agent CLI is given: the system prompt's
// principles, how it reaches the tools, then the first message.
func (v *Served) Prompt(server string) string {
	var b strings.Builder
	b.WriteString(SystemPrompt)
	fmt.Fprintf(&b, "\n\n# How you work in this run\nYour only tools are those of the MCP server %q (%s). Use no other tool: do not read or write files, do not run commands. The run ends when you call report; if you stop without it, nothing is committed.\n\n", server, strings.Join(toolNames(), ", "))
	b.WriteString(v.brief.Text)
	return b.String()
}

// CallResult is one tool call's answer: IsError marks a refusal or a
// call to correct, which the agent reads and acts on.
type CallResult struct {
	Content string
	IsError bool
	Target  string // the path or query the call named, for progress
}

// Call runs one tool call. The error return is for what ends the run
// (ctx, a failure to read the memory); after report, every call is
// answered as a tool error and changes nothing.
func (v *Served) Call(ctx context.Context, name string, input json.RawMessage) (CallResult, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.done || v.stopped {
		why := "its agent CLI exited"
		if v.done {
			why = "report was called"
		}
		return CallResult{Content: name + ": not run: the run has ended (" + why + ")", IsError: true}, nil
	}
	if v.fatal != nil {
		return CallResult{}, v.fatal
	}
	out, err := v.tb.call(ctx, llm.ToolCall{Name: name, Input: input})
	if err != nil {
		v.fatal = fmt.Errorf("%s: %w", name, err)
		return CallResult{}, v.fatal
	}
	if out.report {
		v.done, v.summary = true, out.summary
	}
	r := CallResult{Content: out.result.Content, IsError: out.result.IsError, Target: oneLine(out.target)}
	if v.Observe != nil {
		v.Observe(name, input, r)
	}
	return r, nil
}

// Err is the error that ended the run's tool calls, if any: the run
// must not be committed.
func (v *Served) Err() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.fatal
}

// Stop ends the serving: a call in progress finishes first, later ones
// change nothing. The run then reads the session without a late call
// changing it underneath.
func (v *Served) Stop() {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.stopped = true
}

// Reported says whether report was accepted, with its summary.
func (v *Served) Reported() (string, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.summary, v.done
}

// Unseen are the entries (e1, e2, …) neither shown whole, read nor drawn
// on, which report would refuse.
func (v *Served) Unseen() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	var out []string
	for i, ok := range v.tb.seen {
		if !ok {
			out = append(out, alias(i))
		}
	}
	return out
}
