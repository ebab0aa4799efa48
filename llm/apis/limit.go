package apis

import (
	"errors"
	"io"
	"net/http"

	"github.com/yoimem/git-yoimem/llm"
)

// errReplyLimit is a response body over the reply limit. size is its
// Content-Length when the server sent one, else -1.
type errReplyLimit struct {
	size int64
	lim  llm.Limit
}

func (e *errReplyLimit) Error() string {
	return llm.TooLarge("", "the response", e.size, e.lim).Message
}

// limitReplies is a middleware of both SDKs (their Middleware types are the
// same function type): it bounds what is read of each response body, error
// responses included, to lim. A body over it fails its read with
// *errReplyLimit, at once when Content-Length says so; the response is
// marked x-should-retry: false, which the SDKs honour, so that a
// failed read is not retried.
func limitReplies(lim llm.Limit) func(*http.Request, func(*http.Request) (*http.Response, error)) (*http.Response, error) {
	return func(req *http.Request, next func(*http.Request) (*http.Response, error)) (*http.Response, error) {
		res, err := next(req)
		if err != nil || res == nil || res.Body == nil {
			return res, err
		}
		b := &limitedBody{rc: res.Body, left: lim.Bytes, res: res, lim: lim}
		if res.ContentLength > lim.Bytes {
			b.fail(res.ContentLength)
		}
		res.Body = b
		return res, nil
	}
}

// limitedBody reads at most lim.Bytes of a response body.
type limitedBody struct {
	rc   io.ReadCloser
	left int64
	res  *http.Response
	lim  llm.Limit
	err  error
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1]
	}
	n, err := b.rc.Read(p)
	b.left -= int64(n)
	if b.left < 0 {
		return n - 1, b.fail(-1)
	}
	return n, err
}

// fail makes every read fail from now on, and tells the SDK not to retry.
func (b *limitedBody) fail(size int64) error {
	b.err = &errReplyLimit{size: size, lim: b.lim}
	b.res.Header.Set("X-Should-Retry", "false")
	return b.err
}

func (b *limitedBody) Close() error { return b.rc.Close() }

// replyLimitError converts a read over the limit, wherever the SDK wrapped
// it, to llm's ErrTooLarge; ok is false for any other error.
func replyLimitError(provider string, err error) (*llm.Error, bool) {
	var rl *errReplyLimit
	if !errors.As(err, &rl) {
		return nil, false
	}
	return llm.TooLarge(provider, "the response", rl.size, rl.lim), true
}
