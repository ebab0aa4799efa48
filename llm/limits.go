package llm

import (
	"github.com/yoimem/git-yoimem/internal/quote"
)

// Default size limits (Options.MaxReply, Options.MaxRequest).
const (
	// DefaultMaxReplyBytes bounds a reply: a command model's stdout, an API
	// response body, the helper's answer. A model's answer is a few
	// kilobytes; 16 MiB is room for any real one.
	DefaultMaxReplyBytes = 16 << 20
	// DefaultMaxRequestBytes bounds a request: the largest context windows
	// hold a few megabytes of text.
	DefaultMaxRequestBytes = 32 << 20
)

// Limit is a size bound and the setting that sets it, which errors name
// (e.g. "yoimem.llm.maxReplyBytes"; "" names none).
type Limit struct {
	Bytes   int64  `json:"bytes"`
	Setting string `json:"setting,omitempty"`
}

// orDefault returns l with Bytes set to def when it is not positive.
func (l Limit) orDefault(def int64) Limit {
	if l.Bytes <= 0 {
		l.Bytes = def
	}
	return l
}

// ReplyLimit is MaxReply, its Bytes DefaultMaxReplyBytes when not set.
func (o Options) ReplyLimit() Limit { return o.MaxReply.orDefault(DefaultMaxReplyBytes) }

// RequestLimit is MaxRequest, its Bytes DefaultMaxRequestBytes when not set.
func (o Options) RequestLimit() Limit { return o.MaxRequest.orDefault(DefaultMaxRequestBytes) }

// TooLarge is the error of a reply over its limit: what it is, its size
// when known (-1: only that it is over), the limit and its setting. Its
// kind is ErrTooLarge. Nothing of the reply is used.
func TooLarge(provider, what string, size int64, lim Limit) *Error {
	msg := what + " is more than " + quote.Thousands(lim.Bytes) + " bytes, the limit"
	if size >= 0 {
		msg = what + " is " + quote.Thousands(size) + " bytes, over the limit of " + quote.Thousands(lim.Bytes)
	}
	if lim.Setting != "" {
		msg += " (" + lim.Setting + ")"
	}
	return &Error{Provider: provider, Kind: ErrTooLarge, Message: msg}
}

// checkRequestSize refuses a request whose wire form is over lim, as too
// long for the model (ErrContextLength: extract splits such a range): no
// model takes one, and a helper reads no more than that.
func checkRequestSize(provider string, req Request, lim Limit) error {
	b, err := marshalWire(req)
	if err != nil {
		return &Error{Provider: provider, Kind: ErrBadRequest, Message: "encode the request: " + err.Error(), Err: err}
	}
	if int64(len(b)) <= lim.Bytes {
		return nil
	}
	e := TooLarge(provider, "the request", int64(len(b)), lim)
	e.Kind = ErrContextLength
	return e
}
