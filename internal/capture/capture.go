// Package capture keeps what a child process or a server sends within a
// limit: Limited for the output a caller reads (past the limit it stops
// taking bytes and tells the caller, which stops the sender), HeadTail
// for error output (the first and last bytes, for a message). Neither
// ever holds more than its limit, whatever the peer sends.
package capture

import (
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/quote"
	"sync"
)

// ErrLimit is what Limited's Write returns past the limit. A writer that
// fails makes os/exec close the pipe, so a child that keeps printing gets
// SIGPIPE; OnOver should stop it for good (kill its process group).
var ErrLimit = errors.New("output over the limit")

// Limited keeps the first Max bytes written to it. Past them, Write keeps
// nothing more, calls OnOver once and fails with ErrLimit.
type Limited struct {
	Max    int64
	OnOver func() // may be nil

	mu   sync.Mutex
	buf  []byte
	over bool
}

// Write keeps p while the total stays within Max.
func (l *Limited) Write(p []byte) (int, error) {
	l.mu.Lock()
	if l.over {
		l.mu.Unlock()
		return 0, ErrLimit
	}
	room := max(l.Max-int64(len(l.buf)), 0)
	n := int(min(int64(len(p)), room))
	l.keep(p[:n])
	if n == len(p) {
		l.mu.Unlock()
		return n, nil
	}
	l.over = true
	onOver := l.OnOver
	l.mu.Unlock()
	if onOver != nil {
		onOver()
	}
	return n, ErrLimit
}

// keep appends p, growing the buffer at most to Max: a buffer that
// doubled past it would hold twice the limit.
func (l *Limited) keep(p []byte) {
	if len(l.buf)+len(p) > cap(l.buf) {
		c := min(max(2*cap(l.buf), len(l.buf)+len(p), 4096), int(l.Max))
		nb := make([]byte, len(l.buf), c)
		copy(nb, l.buf)
		l.buf = nb
	}
	l.buf = append(l.buf, p...)
}

// Bytes is what was kept.
func (l *Limited) Bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf
}

// Over reports whether more than Max bytes were written.
func (l *Limited) Over() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.over
}

// HeadTail keeps the first and the last Keep bytes written to it and
// counts the rest: error output is read to its end (a child must not block
// on a full pipe), but only its ends are worth a message.
type HeadTail struct {
	Keep int

	mu      sync.Mutex
	head    []byte
	tail    []byte // a ring of the last Keep bytes once head is full
	start   int    // where the ring begins
	dropped int64  // bytes between head and tail, not kept
}

// Write never fails.
func (h *HeadTail) Write(p []byte) (int, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := len(p)
	if room := h.Keep - len(h.head); room > 0 {
		k := min(room, len(p))
		h.head = append(h.head, p[:k]...)
		p = p[k:]
	}
	for len(p) > 0 {
		if len(h.tail) < h.Keep {
			k := min(h.Keep-len(h.tail), len(p))
			h.tail = append(h.tail, p[:k]...)
			p = p[k:]
			continue
		}
		if len(p) >= h.Keep { // the new bytes replace the whole ring
			h.dropped += int64(len(h.tail)) + int64(len(p)-h.Keep)
			h.tail = append(h.tail[:0], p[len(p)-h.Keep:]...)
			h.start = 0
			break
		}
		// overwrite the oldest bytes of the ring
		for _, c := range p {
			h.tail[h.start] = c
			h.start = (h.start + 1) % h.Keep
			h.dropped++
		}
		break
	}
	return n, nil
}

// String is the head, then a line saying how much was left out, then the
// tail.
func (h *HeadTail) String() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	tail := append(append([]byte(nil), h.tail[h.start:]...), h.tail[:h.start]...)
	if h.dropped == 0 {
		return string(h.head) + string(tail)
	}
	return string(h.head) + fmt.Sprintf("\n[... %s bytes left out ...]\n", quote.Thousands(h.dropped)) + string(tail)
}
