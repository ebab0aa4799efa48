package llm

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sizes of the pieces a recorded match is made of, in bytes.
const (
	matchHeadBytes   = 48 // of a user text's first line
	matchAnchorBytes = 40 // of the end of the message before it
)

// matchFor is the replay match a Recorder gives req: a short substring of
// its rendered text that holds what the conversation's code decides at
// this turn, and little that a small code change would reword.
//
//   - The last message answers tool calls: the label and ID of its first
//     error result, else of its last result ("Tool result (toolu_01):\n").
//     The IDs come from the recorded replies, so the match finds the turn
//     answering that call; a call that failed and now succeeds (or the
//     reverse) is a different conversation and is not matched. The
//     results' text is not matched: a reworded tool output still replays.
//   - The last message is user text: its first line up to the first digit
//     (run IDs, dates and counts change from run to run), at most 48
//     bytes ("Consolidation run"); after an earlier message, anchored on
//     the last 40 bytes of that message's rendering (the recorded reply,
//     which replay gives again), so that a nudge matches only the turn it
//     followed.
//   - Anything else (an assistant message last): "", which takes the next
//     unused response.
//
// Responses are taken in order among those that match, so a drifted
// conversation meets a response whose match it lacks and fails with
// ErrExhausted (naming the match the response wants) instead of taking
// an answer meant for another request. Not matched, so that a recording
// survives the code changing them: the system prompt, the tools offered,
// the schema, tool outputs. Concurrent calls whose matches are equal may
// be paired in another order than they were recorded.
func matchFor(req Request) string {
	n := len(req.Messages)
	if n == 0 {
		return ""
	}
	last := req.Messages[n-1]
	if len(last.ToolResults) > 0 {
		return resultMatch(last.ToolResults)
	}
	if last.Role != RoleUser {
		return ""
	}
	head := textHead(last.Text)
	if n == 1 {
		return head
	}
	return renderedTail(req.Messages[n-2]) + "User:\n" + head
}

// resultMatch is the rendered label of the first error result, else of
// the last result.
func resultMatch(results []ToolResult) string {
	r := results[len(results)-1]
	for _, x := range results {
		if x.IsError {
			r = x
			break
		}
	}
	label := "Tool result"
	if r.IsError {
		label = "Tool error"
	}
	return label + " (" + r.CallID + "):\n"
}

// textHead is the start of text's first line, before its first digit, at
// most matchHeadBytes, without trailing blanks: a prefix of text.
func textHead(text string) string {
	line, _, _ := strings.Cut(text, "\n")
	if i := strings.IndexAny(line, "0123456789"); i >= 0 {
		line = line[:i]
	}
	if len(line) > matchHeadBytes {
		cut := matchHeadBytes
		for cut > 0 && !utf8.RuneStart(line[cut]) {
			cut--
		}
		line = line[:cut]
	}
	return strings.TrimRightFunc(line, unicode.IsSpace)
}

// renderedTail is the last matchAnchorBytes of m's rendering, starting on
// a rune.
func renderedTail(m Message) string {
	var b strings.Builder
	renderMessage(&b, m)
	s := b.String()
	start := max(len(s)-matchAnchorBytes, 0)
	for start < len(s) && !utf8.RuneStart(s[start]) {
		start++
	}
	return s[start:]
}
