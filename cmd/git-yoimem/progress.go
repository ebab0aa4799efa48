package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/consolidate/agent"
	"github.com/yoimem/git-yoimem/internal/quote"
)

// progress tells how a long command goes, on standard error: one line
// rewritten in place on a terminal, a plain line each otherwise (a log,
// a pipe, a hook's output). A nil *progress says nothing.
type progress struct {
	w        io.Writer
	terminal bool
	shown    bool // a line is on the terminal, to be cleared
}

// progressWidth bounds a line rewritten in place: a longer one would wrap,
// and the next rewrite would leave its first part behind.
const progressWidth = 78

// newProgress reports on env's standard error.
func newProgress(env Env) *progress {
	dumb := env.Getenv != nil && env.Getenv("TERM") == "dumb"
	return &progress{w: env.Stderr, terminal: isTerminal(env.Stderr) && !dumb}
}

// isTerminal: w is a character device (a terminal), where a line can be
// rewritten in place.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

func (p *progress) say(format string, args ...any) {
	if p == nil {
		return
	}
	msg := "consolidate: " + terminalSafe(fmt.Sprintf(format, args...))
	if !p.terminal {
		fmt.Fprintln(p.w, msg)
		return
	}
	if r := []rune(msg); len(r) > progressWidth {
		msg = string(r[:progressWidth-1]) + "…"
	}
	fmt.Fprintf(p.w, "\r\033[K%s", msg)
	p.shown = true
}

// done clears the line on a terminal, before the command prints its
// result or an error.
func (p *progress) done() {
	if p != nil && p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}

// stage reports a step of a run (consolidate.Hooks.Stage).
func (p *progress) stage(s consolidate.Stage) {
	switch s {
	case consolidate.StageLocked:
		p.say("lock taken; reading the input")
	case consolidate.StageInput:
		p.say("input read; the engine is at work")
	case consolidate.StageLinted:
		p.say("the result lints clean")
	case consolidate.StageCommitted:
		p.say("committed; writing the note")
	case consolidate.StageCleaned:
		p.say("consumed staging entries removed")
	}
}

// agentEvent reports the llm engine's turns and tool calls.
func (p *progress) agentEvent(ev agent.Event) {
	if ev.MaxTurns == 0 {
		p.agentCLIEvent(ev)
		return
	}
	switch ev.Kind {
	case agent.EventTurn:
		p.say("turn %d of %d: asking the model", ev.Turn, ev.MaxTurns)
	case agent.EventTool:
		refused := ""
		if ev.Refused {
			refused = " (refused)"
		}
		p.say("turn %d of %d: %s%s", ev.Turn, ev.MaxTurns, strings.TrimSpace(ev.Tool+" "+quote.Line(ev.Target)), refused)
	case agent.EventReport:
		p.say("turn %d of %d: the model reported", ev.Turn, ev.MaxTurns)
	}
}

// agentCLIEvent is a step of an agent CLI run as the model, which counts
// its own turns.
func (p *progress) agentCLIEvent(ev agent.Event) {
	switch ev.Kind {
	case agent.EventTurn:
		p.say("agent CLI: running %s", quote.Line(ev.Target))
	case agent.EventTool:
		refused := ""
		if ev.Refused {
			refused = " (refused)"
		}
		p.say("agent CLI: %s%s", strings.TrimSpace(ev.Tool+" "+quote.Line(ev.Target)), refused)
	case agent.EventReport:
		p.say("agent CLI: reported")
	}
}

// writer is where the progress goes (nothing when p is nil).
func (p *progress) writer() io.Writer {
	if p == nil || p.w == nil {
		return io.Discard
	}
	return p.w
}
