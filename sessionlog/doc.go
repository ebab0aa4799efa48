// Package sessionlog reads agent session logs: the native JSONL log (see
// docs/session-log.md), Claude Code transcripts and Codex CLI rollouts. Each
// reader yields one Entry per line, indexed by line number (the stable index
// that source ranges and extract pointers use), with its role, visible text,
// tool calls and results as short summaries, deduplicated token usage and
// time. CountTokens is the cheap usage-only scan behind the extract trigger.
//
// It is pure: it reads from an io.Reader and returns values. Finding the
// files, remembering where a previous read stopped and deciding what to do
// with the entries are the callers' business. Logs are written while they
// are read, so a final line without its newline is never read, and lines
// that are not JSON, or of types not known, are reported as Kind "other"
// and never stop reading.
package sessionlog
