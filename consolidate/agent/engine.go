package agent

import (
	"context"
	"errors"
	"fmt"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/memory"
)

// DefaultMaxTurns is the turn limit when none is set
// (yoimem.consolidate.maxTurns).
const DefaultMaxTurns = 40

// SettingMaxTurns is the configuration key of the turn limit.
const SettingMaxTurns = "yoimem.consolidate.maxTurns"

// MaxCallsPerTurn bounds the tool calls run in one turn, and so what one
// turn adds to the conversation; the model is told which were not run.
const MaxCallsPerTurn = 32

// ErrNoReport: the model did not end the run with report within the
// turn limit. The run's changes are not to be committed.
var ErrNoReport = errors.New("the model did not call report")

// Engine is the llm consolidation engine: a bounded tool loop in which a
// model reads the run's input and changes memory through the session's
// guarded overlay. The session enforces the principles whatever the
// model asks; a refusal goes back to the model as a tool error it can
// act on. Any error of Run (the model failing, the turn limit reached
// without a report, ctx ending) means the run's changes must not be
// committed.
type Engine struct {
	Provider  llm.Provider
	ModelName string // the model string, for the commit's Yoimem-Model trailer
	// MaxTurns bounds the model calls; 0: DefaultMaxTurns.
	MaxTurns int
	// Brief bounds the first message; its BudgetChars also bounds each
	// tool result.
	Brief BriefOptions
	// Search are the searches' limits (yoimem.search.*).
	Search memory.Options
	// MaxTokens bounds each reply; 0: the provider's default.
	MaxTokens int
	// Progress, if set, is told about each turn, each tool call and the
	// report.
	Progress func(Event)
}

// EventKind says what an Event reports.
type EventKind int

// Kinds of events.
const (
	EventTurn   EventKind = iota // a model call begins
	EventTool                    // a tool call was run
	EventReport                  // the model reported: the run ends
)

// Event is a step of a run, for a progress line.
type Event struct {
	Kind     EventKind
	Turn     int
	MaxTurns int
	Tool     string    // EventTool: the tool's name
	Target   string    // EventTool: the path or query it was given
	Refused  bool      // EventTool: the call came back as a tool error
	Summary  string    // EventReport: the model's summary
	Usage    llm.Usage // tokens so far
}

// Name is the engine's name in the commit's Yoimem-Engine trailer.
func (e Engine) Name() string { return "llm" }

// Model is the model string.
func (e Engine) Model() string { return e.ModelName }

func (e Engine) maxTurns() int { return orDefault(e.MaxTurns, DefaultMaxTurns) }

// Run consolidates the session's staging entries and tidies the memory,
// through the tools, until the model calls report.
func (e Engine) Run(ctx context.Context, s *consolidate.Session) error {
	if e.Provider == nil {
		return errors.New("consolidation agent: no model")
	}
	req, tb, err := e.start(s)
	if err != nil {
		return err
	}
	t := turn{max: e.maxTurns()}
	for t.n = 1; t.n <= t.max; t.n++ {
		e.emit(Event{Kind: EventTurn, Turn: t.n, MaxTurns: t.max, Usage: t.usage})
		resp, err := e.Provider.Call(ctx, req)
		t.usage = t.usage.Add(resp.Usage)
		if err != nil {
			return fmt.Errorf("consolidation agent (%s), turn %d of %d: %w", e.ModelName, t.n, t.max, err)
		}
		req.Messages = append(req.Messages, llm.Message{Role: llm.RoleAssistant, Text: resp.Text, ToolCalls: resp.ToolCalls})
		if len(resp.ToolCalls) == 0 {
			req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, Text: "Carry on with the tools; when you are done, call report."})
			continue
		}
		results, done, err := e.runCalls(ctx, tb, t, resp.ToolCalls)
		if err != nil || done {
			return err
		}
		req.Messages = append(req.Messages, llm.Message{Role: llm.RoleUser, ToolResults: results})
	}
	return fmt.Errorf("consolidation agent (%s): %w within %d turns (%s)", e.ModelName, ErrNoReport, t.max, SettingMaxTurns)
}

// turn is where a run is: its turn, the limit, the tokens so far.
type turn struct {
	n, max int
	usage  llm.Usage
}

// runCalls runs one turn's tool calls in order, at most MaxCallsPerTurn
// of them, and says whether the model reported.
func (e Engine) runCalls(ctx context.Context, tb *toolbox, t turn, calls []llm.ToolCall) ([]llm.ToolResult, bool, error) {
	var results []llm.ToolResult
	for i, c := range calls {
		if i >= MaxCallsPerTurn {
			results = append(results, llm.ToolResult{CallID: c.ID, IsError: true,
				Content: fmt.Sprintf("%s: not run: at most %d tool calls a turn; make it again in the next turn", c.Name, MaxCallsPerTurn)})
			continue
		}
		out, err := tb.call(ctx, c)
		if err != nil {
			return nil, false, fmt.Errorf("consolidation agent (%s), turn %d of %d, %s: %w", e.ModelName, t.n, t.max, c.Name, err)
		}
		e.emit(Event{Kind: EventTool, Turn: t.n, MaxTurns: t.max, Tool: c.Name, Target: oneLine(out.target), Refused: out.result.IsError, Usage: t.usage})
		if out.report {
			e.emit(Event{Kind: EventReport, Turn: t.n, MaxTurns: t.max, Summary: out.summary, Usage: t.usage})
			return nil, true, nil
		}
		results = append(results, out.result)
	}
	return results, false, nil
}

// start builds the first request and the toolbox. A staging entry too
// large for a tool result could never be read whole: the run stops
// before the model is called, and the entries stay for another engine
// or a larger budget.
func (e Engine) start(s *consolidate.Session) (llm.Request, *toolbox, error) {
	in := s.Input()
	brief, err := NewBrief(in, e.Brief)
	if err != nil {
		return llm.Request{}, nil, err
	}
	tools, err := Tools()
	if err != nil {
		return llm.Request{}, nil, err
	}
	tb := &toolbox{s: s, es: newEntries(in.Entries), seen: brief.Whole, search: e.Search, maxChars: e.Brief.budget()}
	for i, en := range in.Entries {
		if n := len([]rune(renderEntry(i, en))); n > tb.maxChars {
			return llm.Request{}, nil, fmt.Errorf("staging entry %s is %s characters, over the limit of %s for one tool result (%s): raise it, or consolidate with the rules engine",
				en.ID, quote.Thousands(int64(n)), quote.Thousands(int64(tb.maxChars)), SettingBudget)
		}
	}
	req := llm.Request{
		System:    SystemPrompt,
		Messages:  []llm.Message{{Role: llm.RoleUser, Text: brief.Text}},
		Tools:     tools,
		MaxTokens: e.MaxTokens,
	}
	return req, tb, nil
}

func (e Engine) emit(ev Event) {
	if e.Progress != nil {
		e.Progress(ev)
	}
}
