package llm

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strings"
)

// Kinds of failure, for errors.Is.
var (
	ErrRateLimited   = errors.New("rate limited")
	ErrServer        = errors.New("server error")
	ErrTimeout       = errors.New("timed out")
	ErrRefusal       = errors.New("model refused")
	ErrContextLength = errors.New("context length exceeded")
	ErrInvalidOutput = errors.New("invalid structured output")
	ErrEmpty         = errors.New("empty reply")
	ErrNoKey         = errors.New("missing API key")
	ErrAuth          = errors.New("authentication failed")
	ErrBadRequest    = errors.New("bad request")
	ErrConnection    = errors.New("connection failed")
	ErrCommand       = errors.New("command failed")
	ErrExhausted     = errors.New("no recorded response left")
)

// Error is a failed call. Kind is one of the Err variables (or
// context.Canceled); Err, if set, is the underlying cause.
type Error struct {
	Provider string
	Status   int // HTTP status, 0 when there was no response
	Kind     error
	Message  string
	Err      error
}

func (e *Error) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %v", e.Provider, e.Kind)
	if e.Status != 0 {
		fmt.Fprintf(&b, " (HTTP %d)", e.Status)
	}
	if e.Message != "" {
		b.WriteString(": " + e.Message)
	}
	return b.String()
}

// Unwrap returns the kind and the cause.
func (e *Error) Unwrap() []error {
	if e.Err == nil {
		return []error{e.Kind}
	}
	return []error{e.Kind, e.Err}
}

// kindOfStatus maps an HTTP error status and message to a kind.
func kindOfStatus(status int, message string) error {
	switch {
	case status == 401 || status == 403:
		return ErrAuth
	case status == 408:
		return ErrTimeout
	case status == 429:
		return ErrRateLimited
	case status >= 500:
		return ErrServer
	case status == 413 || looksLikeContextLength(message):
		return ErrContextLength
	}
	return ErrBadRequest
}

// looksLikeContextLength recognizes the context-length messages of the
// Anthropic and OpenAI APIs and of the usual OpenAI-compatible servers.
func looksLikeContextLength(message string) bool {
	m := strings.ToLower(message)
	for _, s := range []string{"prompt is too long", "context_length_exceeded", "maximum context length", "context length", "context window", "context size"} {
		if strings.Contains(m, s) {
			return true
		}
	}
	return false
}

// transportError wraps an error that came without an HTTP response.
func transportError(provider string, err error, secret string) *Error {
	kind := ErrConnection
	var ne net.Error
	switch {
	case errors.Is(err, context.Canceled):
		kind = context.Canceled
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		kind = ErrTimeout
	}
	return &Error{Provider: provider, Kind: kind, Message: redact(err.Error(), secret), Err: err}
}

// redact removes secret from s.
func redact(s, secret string) string {
	if secret == "" {
		return s
	}
	return strings.ReplaceAll(s, secret, "[redacted]")
}
