package claudecode

import (
	"bytes"
	"encoding/json"

	"github.com/yoimem/git-yoimem/agent"
)

// OutputCap is Claude Code's cap on each string a hook outputs; longer
// text is saved to a file and only a preview reaches the model, so we
// fit within it ourselves and say what was left out.
const OutputCap = 10000

// out is Claude Code's JSON hook output, the fields we use.
type out struct {
	Decision string    `json:"decision,omitempty"` // "block" (UserPromptSubmit)
	Reason   string    `json:"reason,omitempty"`
	Specific *specific `json:"hookSpecificOutput,omitempty"`
	Message  string    `json:"systemMessage,omitempty"`
}

type specific struct {
	Event             string `json:"hookEventName"`
	AdditionalContext string `json:"additionalContext,omitempty"`
	Permission        string `json:"permissionDecision,omitempty"`
	PermissionReason  string `json:"permissionDecisionReason,omitempty"`
}

// Encode writes resp as Claude Code reads it for ev, and the exit code.
// The exit code is always 0: Claude Code reads JSON output only then, and
// a hook of ours must not fail the agent's action. What each event
// carries:
//   - SessionStart, UserPromptSubmit: Context as
//     hookSpecificOutput.additionalContext (the model sees it); Message as
//     systemMessage (the user sees it); on UserPromptSubmit, Block as
//     decision "block" with Reason (the prompt is dropped, the user sees
//     the reason).
//   - PreToolUse: Deny as permissionDecision "deny" with Reason (the model
//     sees it); Context as additionalContext; Message as systemMessage.
//     Without Deny the normal permission flow goes on.
//   - Stop, PreCompact, SessionEnd and events we do not act on: nothing,
//     so that the agent neither waits on nor acts on them; their work runs
//     in the background and reports to its log.
//
// Every string is fitted within OutputCap with a visible line naming what
// was left out (agent.Context.Fit).
func Encode(ev agent.Event, resp agent.Response) (stdout []byte, exitCode int) {
	o := out{}
	switch ev.Kind {
	case agent.SessionStart, agent.UserPrompt:
		if ev.Kind == agent.UserPrompt && resp.Block {
			o.Decision, o.Reason = "block", fit(resp.Reason, "the reason")
			break
		}
		o.Specific = contextOutput(ev.Name, resp.Context)
	case agent.PreTool:
		o.Specific = contextOutput(ev.Name, resp.Context)
		if resp.Deny {
			if o.Specific == nil {
				o.Specific = &specific{Event: ev.Name}
			}
			o.Specific.Permission = "deny"
			o.Specific.PermissionReason = fit(resp.Reason, "the reason")
		}
	default:
		return nil, 0
	}
	o.Message = fit(resp.Message, "the message")
	if o == (out{}) {
		return nil, 0
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // <path> stays readable in a debug log
	if err := enc.Encode(o); err != nil {
		return nil, 0 // strings only: cannot fail
	}
	return b.Bytes(), 0
}

func contextOutput(event string, c agent.Context) *specific {
	text, _ := c.Fit(OutputCap)
	if text == "" {
		return nil
	}
	return &specific{Event: event, AdditionalContext: text}
}

func fit(s, what string) string { return agent.Shorten(s, OutputCap, what) }
