// Package standin holds local stand-ins for the model APIs that the real
// agent CLIs call, so that tests can run Claude Code (and Codex) fully
// offline: an httptest server that speaks the wire format, answers with
// scripted turns (text, tool calls) and records every request it
// received, so that a test can assert what the model was shown.
//
// Messages is the Anthropic Messages API (POST /v1/messages, streaming
// server-sent events or plain JSON, and /v1/messages/count_tokens).
//
// Nothing here imports a model SDK: the wire format is written by hand,
// and the tests parse it by hand.
package standin
