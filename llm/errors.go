package llm

import (
	"context"
	"encoding/json"
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
	ErrTooLarge      = errors.New("reply over the size limit")
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

// StatusError is the error of an HTTP response with an error status:
// its kind from the status and the message (context-length messages of
// the usual APIs are recognized), and secret (an API key) removed from
// the message.
func StatusError(provider string, status int, message, secret string) *Error {
	return &Error{Provider: provider, Status: status, Kind: kindOfStatus(status, message), Message: redact(message, secret)}
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

// TransportError is the error of a request that got no HTTP response:
// context.Canceled, ErrTimeout (a deadline or a network timeout) or
// ErrConnection, with secret removed from the message.
func TransportError(provider string, err error, secret string) *Error {
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

// kindNames are the names of the kinds in the bridge's wire form and in
// replay files.
var kindNames = []struct {
	name string
	kind error
}{
	{"rate_limited", ErrRateLimited},
	{"server", ErrServer},
	{"timeout", ErrTimeout},
	{"refusal", ErrRefusal},
	{"context_length", ErrContextLength},
	{"invalid_output", ErrInvalidOutput},
	{"empty", ErrEmpty},
	{"no_key", ErrNoKey},
	{"auth", ErrAuth},
	{"bad_request", ErrBadRequest},
	{"connection", ErrConnection},
	{"command", ErrCommand},
	{"exhausted", ErrExhausted},
	{"too_large", ErrTooLarge},
	{"canceled", context.Canceled},
}

// kindName returns the name of kind, "" for an unknown kind.
func kindName(kind error) string {
	for _, k := range kindNames {
		if k.kind == kind {
			return k.name
		}
	}
	return ""
}

// kindByName returns the kind a name stands for.
func kindByName(name string) (error, bool) {
	for _, k := range kindNames {
		if k.name == name {
			return k.kind, true
		}
	}
	return nil, false
}

// errorJSON is the wire form of an Error.
type errorJSON struct {
	Provider string `json:"provider"`
	Status   int    `json:"status,omitempty"`
	Kind     string `json:"kind"`
	Message  string `json:"message,omitempty"`
}

// MarshalJSON writes {"provider", "status", "kind", "message"}, the kind
// as its name (rate_limited, server, timeout, refusal, context_length,
// invalid_output, empty, no_key, auth, bad_request, connection, command,
// exhausted, too_large, canceled). The cause (Err) is not written; an unknown kind
// is written as command with the kind in the message.
func (e *Error) MarshalJSON() ([]byte, error) {
	w := errorJSON{Provider: e.Provider, Status: e.Status, Kind: kindName(e.Kind), Message: e.Message}
	if w.Kind == "" {
		w.Kind = "command"
		w.Message = strings.TrimSuffix(fmt.Sprintf("%v: %s", e.Kind, e.Message), ": ")
	}
	return marshalWire(w)
}

// UnmarshalJSON reads what MarshalJSON writes; an unknown kind reads as
// ErrCommand.
func (e *Error) UnmarshalJSON(data []byte) error {
	var w errorJSON
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	kind, ok := kindByName(w.Kind)
	if !ok {
		kind = ErrCommand
		w.Message = strings.TrimSuffix(fmt.Sprintf("unknown error kind %q: %s", w.Kind, w.Message), ": ")
	}
	*e = Error{Provider: w.Provider, Status: w.Status, Kind: kind, Message: w.Message}
	return nil
}
