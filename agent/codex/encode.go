package codex

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/yoimem/git-yoimem/agent"
)

// OutputCap is the bytes we let each string a hook outputs take. Codex
// keeps hook text within 2,500 estimated tokens (codex-rs/hooks
// output_spill.rs); past that it saves the text under
// $CODEX_HOME/hook_outputs and the model sees a head-and-tail preview. It
// estimates tokens from bytes, four to a token, and newer builds also
// from words and punctuation, which dense text (paths, lists) makes
// larger; 6,000 bytes (1,500 tokens by bytes) leaves room for that, so we
// fit within the cap ourselves and say what was left out.
const OutputCap = 6000

// out is Codex's JSON hook output, the fields we use. Codex refuses
// unknown fields, so there are no others.
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

// fallbackReason stands in for an empty reason: Codex ignores a deny or a
// block without one (and the deny with it).
const fallbackReason = "git-yoimem refused this"

// Encode writes resp as Codex reads it for ev, and the exit code. The
// exit code is always 0: Codex reads JSON output only then, and a hook of
// ours must not fail the agent's action. What each event carries:
//   - SessionStart, UserPromptSubmit: Context as
//     hookSpecificOutput.additionalContext (added to what the model
//     sees); Message as systemMessage (shown to the user); on
//     UserPromptSubmit, Block as decision "block" with Reason.
//   - PreToolUse: Deny as permissionDecision "deny" with Reason (the
//     model sees it); Context as additionalContext; Message as
//     systemMessage. Without Deny the normal approval flow goes on.
//   - Stop, PreCompact, a notify payload and events we do not act on:
//     nothing, so that Codex neither waits on nor acts on them (a Stop
//     "block" would make the agent go on); their work runs in the
//     background and reports to its log.
//
// Every string is fitted within OutputCap bytes with a visible line
// naming what was left out (agent.Context.Fit); a deny or block without
// a reason gets one, as Codex requires.
func Encode(ev agent.Event, resp agent.Response) (stdout []byte, exitCode int) {
	o := out{}
	switch {
	case ev.Kind == agent.UserPrompt && resp.Block:
		o.Decision, o.Reason = "block", reason(resp.Reason)
	case ev.Kind == agent.SessionStart || ev.Kind == agent.UserPrompt:
		o.Specific = contextOutput(ev.Name, resp.Context)
	case ev.Kind == agent.PreTool && ev.Name == "PreToolUse":
		o.Specific = contextOutput(ev.Name, resp.Context)
		if resp.Deny {
			if o.Specific == nil {
				o.Specific = &specific{Event: ev.Name}
			}
			o.Specific.Permission = "deny"
			o.Specific.PermissionReason = reason(resp.Reason)
		}
	default:
		return nil, 0
	}
	o.Message = fit(agent.Context{Summary: resp.Message}, "the message")
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
	text := fit(c, "")
	if text == "" {
		return nil
	}
	return &specific{Event: event, AdditionalContext: text}
}

func reason(s string) string {
	if strings.TrimSpace(s) == "" {
		s = fallbackReason
	}
	return fit(agent.Context{Summary: s}, "the reason")
}

// fit is c within OutputCap bytes (what names a cut summary, for a
// reason or message; "" for a context of parts).
func fit(c agent.Context, what string) string { return fitBytes(c, what, OutputCap) }

// fitBytes is c within capBytes bytes. agent.Context.Fit counts UTF-16
// units, of which a character takes one or two and UTF-8 up to three
// bytes a unit: the limit in units shrinks until the text fits in bytes.
func fitBytes(c agent.Context, what string, capBytes int) string {
	limit := capBytes
	for {
		var text string
		if what == "" {
			text, _ = c.Fit(limit)
		} else {
			text = agent.Shorten(c.Summary, limit, what)
		}
		if len(text) <= capBytes || limit <= 1 {
			return text
		}
		next := limit * capBytes / len(text)
		if next >= limit {
			next = limit - 1
		}
		limit = next
	}
}
