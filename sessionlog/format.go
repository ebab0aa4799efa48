package sessionlog

import (
	"fmt"
	"strings"
)

// Format is a session log format.
type Format string

// The formats read.
const (
	Native     Format = "native"      // git-yoimem's own JSONL (docs/session-log.md), as the Yoi agent writes it
	ClaudeCode Format = "claude-code" // Claude Code transcripts (~/.claude/projects/*/*.jsonl)
	Codex      Format = "codex"       // Codex CLI rollouts (~/.codex/sessions/**/rollout-*.jsonl)
)

// Formats lists the formats, in the order error messages name them.
func Formats() []Format { return []Format{Native, ClaudeCode, Codex} }

// ParseFormat reads a format name as written in flags and configuration.
func ParseFormat(s string) (Format, error) {
	for _, f := range Formats() {
		if s == string(f) {
			return f, nil
		}
	}
	names := make([]string, 0, 3)
	for _, f := range Formats() {
		names = append(names, string(f))
	}
	return "", fmt.Errorf("unknown session log format %q (valid: %s)", s, strings.Join(names, ", "))
}
