package llm

import (
	"fmt"
	"strings"
)

// Transcript renders every call: the request as the replay provider
// matches it (the rendered text, and the match the replay file gives it),
// the tools offered, then the reply (text, tool calls with their inputs, the structured
// JSON, usage, stop reason, model) or the error. A call that has not
// returned is shown without a reply; one the replay provider refuses by
// itself is marked as left out of the replay file.
func (r *Recorder) Transcript() string {
	calls := r.snapshot()
	var b strings.Builder
	for i, c := range calls {
		fmt.Fprintf(&b, "=== call %d of %d ===\n", i+1, len(calls))
		fmt.Fprintf(&b, "--- request (match %q) ---\n", c.match)
		if len(c.req.Tools) > 0 {
			names := make([]string, len(c.req.Tools))
			for i, t := range c.req.Tools {
				names[i] = t.Name
			}
			fmt.Fprintf(&b, "(tools offered, not matched: %s)\n", strings.Join(names, ", "))
		}
		b.WriteString(c.rendered)
		if !c.done {
			b.WriteString("--- no reply yet ---\n\n")
			continue
		}
		writeReply(&b, c.resp)
		if c.err != nil {
			b.WriteString("--- error ---\n")
			b.WriteString(describeErr(c.err) + "\n")
			if refusedLocally(c.req) {
				b.WriteString("(refused before the model was asked; not in the replay file)\n")
			}
		}
		b.WriteString("\n")
	}
	return b.String()
}

// writeReply writes a response's fields, one a line, the text last but
// one so that multi-line text reads as a block.
func writeReply(b *strings.Builder, resp Response) {
	b.WriteString("--- reply ---\n")
	fmt.Fprintf(b, "model: %q, stop reason: %q, usage: %d input tokens, %d output tokens\n",
		resp.Model, resp.StopReason, resp.Usage.InputTokens, resp.Usage.OutputTokens)
	for _, c := range resp.ToolCalls {
		fmt.Fprintf(b, "tool call %s (%s): %s\n", c.Name, c.ID, c.Input)
	}
	if len(resp.JSON) > 0 {
		fmt.Fprintf(b, "json: %s\n", resp.JSON)
	}
	if resp.Text != "" {
		b.WriteString("text:\n" + resp.Text)
		if !strings.HasSuffix(resp.Text, "\n") {
			b.WriteString("\n")
		}
	}
}
