package sessionlog

import (
	"bytes"
	"errors"
	"fmt"
)

// ErrUnknownFormat is what Detect returns for a log it cannot place.
var ErrUnknownFormat = errors.New("unknown session log format")

// detectLines is how many non-blank lines Detect looks at.
const detectLines = 16

// Detect tells a log's format from its start (up to 64 KiB of it is
// plenty). It looks at the first complete lines and, when there are none,
// at the start of the first line, even cut short: the first fields of a
// line name the format.
func Detect(head []byte) (Format, error) {
	if blank(head) {
		return "", fmt.Errorf("%w: the log is empty", ErrUnknownFormat)
	}
	rest, seen := head, 0
	for len(rest) > 0 && seen < detectLines {
		text, tail, complete := bytes.Cut(rest, []byte("\n"))
		if !complete && seen > 0 {
			break
		}
		rest = tail
		if blank(text) {
			continue
		}
		seen++
		if f, ok := detectLine(text); ok {
			return f, nil
		}
	}
	return "", fmt.Errorf("%w: the first lines are not those of a native log, a Claude Code transcript or a Codex rollout", ErrUnknownFormat)
}

// detectLine places one line by the fields it has, as far as it can be read.
func detectLine(text []byte) (Format, bool) {
	var typ []byte
	has := map[string]bool{}
	o := newObject(text)
	for o.next() {
		has[string(o.key)] = true
		if string(o.key) == "type" {
			typ = o.val
		}
	}
	if o.key != nil {
		has[string(o.key)] = true
	}
	t := string(rawInner(typ))
	switch {
	case has["payload"] && has["timestamp"], t == "session_meta", t == "response_item", t == "event_msg", t == "turn_context", t == "compacted":
		return Codex, true
	case has["ts"] && (has["session_id"] || nativeType(t)):
		return Native, true
	case has["uuid"], has["parentUuid"], has["sessionId"], has["isSidechain"], has["leafUuid"], has["userType"], has["requestId"]:
		return ClaudeCode, true
	case t == "summary", t == "file-history-snapshot", t == "ai-title", t == "custom-title", t == "last-prompt", t == "queue-operation", t == "progress", t == "attachment":
		return ClaudeCode, true
	}
	return "", false
}

func nativeType(t string) bool {
	switch t {
	case "session", "user", "assistant", "tool_result", "usage", "compaction", "extension", "system":
		return true
	}
	return false
}
