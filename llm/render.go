package llm

import (
	"strings"
)

// PromptText is a request as plain text: what the command provider writes
// to a command's stdin, and the text replay entries match against.
func PromptText(req Request) string { return render(req) }

// render writes a request as plain text: the command provider's stdin and
// the text replay entries match against.
func render(req Request) string {
	var b strings.Builder
	if req.System != "" {
		b.WriteString("System:\n" + req.System + "\n\n")
	}
	for _, m := range req.Messages {
		renderMessage(&b, m)
	}
	if req.Schema != nil {
		b.WriteString("Reply with only a JSON object matching this JSON schema:\n")
		b.Write(req.Schema.JSON)
		b.WriteString("\n")
	}
	return b.String()
}

func renderMessage(b *strings.Builder, m Message) {
	if m.Role == RoleAssistant {
		b.WriteString("Assistant:\n")
	} else {
		b.WriteString("User:\n")
	}
	for _, r := range m.ToolResults {
		label := "Tool result"
		if r.IsError {
			label = "Tool error"
		}
		b.WriteString(label + " (" + r.CallID + "):\n" + r.Content + "\n")
	}
	if m.Text != "" {
		b.WriteString(m.Text + "\n")
	}
	for _, c := range m.ToolCalls {
		b.WriteString("Tool call " + c.Name + " (" + c.ID + "): " + string(c.Input) + "\n")
	}
	b.WriteString("\n")
}
