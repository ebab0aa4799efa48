package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/consolidate/agent"
)

// TestProgress: on a terminal, one line rewritten in place (and cut to
// fit, so that it never wraps), cleared before the result; otherwise a
// plain line each; control bytes never reach the terminal; a nil
// progress says nothing.
func TestProgress(t *testing.T) {
	var plain bytes.Buffer
	p := &progress{w: &plain}
	p.stage(consolidate.StageLocked)
	p.agentEvent(agent.Event{Kind: agent.EventTurn, Turn: 2, MaxTurns: 40})
	p.agentEvent(agent.Event{Kind: agent.EventTool, Turn: 2, MaxTurns: 40, Tool: "memory_write", Target: ".yoi/x.md\x1b[2J", Refused: true})
	p.agentEvent(agent.Event{Kind: agent.EventTool, Turn: 2, MaxTurns: 40, Tool: "report"})
	p.done()
	want := "consolidate: lock taken; reading the input\n" +
		"consolidate: turn 2 of 40: asking the model\n" +
		"consolidate: turn 2 of 40: memory_write .yoi/x.md\\033[2J (refused)\n" +
		"consolidate: turn 2 of 40: report\n"
	if plain.String() != want {
		t.Errorf("plain:\n%q\nwant\n%q", plain.String(), want)
	}

	var term bytes.Buffer
	p = &progress{w: &term, terminal: true}
	p.stage(consolidate.StageInput)
	p.agentEvent(agent.Event{Kind: agent.EventTool, Turn: 1, MaxTurns: 40, Tool: "memory_read", Target: strings.Repeat("a", 200)})
	p.done()
	p.done() // nothing more to clear
	lines := strings.Split(term.String(), "\r\033[K")
	if len(lines) != 4 || lines[0] != "" || lines[1] != "consolidate: input read; the engine is at work" || lines[3] != "" {
		t.Fatalf("terminal: %q", term.String())
	}
	if n := len([]rune(lines[2])); n != progressWidth || !strings.HasSuffix(lines[2], "…") || strings.Contains(term.String(), "\n") {
		t.Errorf("a long line is %d runes, want %d ending in …, no line break: %q", n, progressWidth, lines[2])
	}

	var nilp *progress
	nilp.stage(consolidate.StageLocked)
	nilp.agentEvent(agent.Event{Kind: agent.EventReport})
	nilp.done()
}
