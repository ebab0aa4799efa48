package sessionlog

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxLineBytes is Options.MaxLineBytes when it is not set.
const DefaultMaxLineBytes = 64 << 20

// bufSize is the read buffer. Lines up to this size are handed out without
// a copy; longer ones are gathered in lineReader.long.
const bufSize = 64 << 10

// keepLong is the most memory kept for gathering long lines between lines.
const keepLong = 8 << 20

// lineReader splits a stream into complete lines and counts them. A final
// line without its '\n' is not handed out; what was read of it is kept, so
// that a later call can finish it if the stream grows (reading a file that
// is being appended to).
type lineReader struct {
	br   *bufio.Reader
	max  int
	long []byte // a line longer than the buffer, so far

	index  int   // lines consumed
	offset int64 // bytes consumed

	pending  int64 // bytes of the current line read so far
	dropping bool  // the current line is over max: read to its end, keep nothing
	err      error // sticky read error other than io.EOF
}

// line is one complete line.
type line struct {
	text    []byte // without '\n' (valid until the next call)
	index   int
	start   int64
	end     int64
	tooLong bool
}

func newLineReader(r io.Reader, opts Options) *lineReader {
	max := opts.MaxLineBytes
	if max <= 0 {
		max = DefaultMaxLineBytes
	}
	return &lineReader{br: bufio.NewReaderSize(r, bufferSize(r)), max: max, index: opts.StartIndex, offset: opts.StartOffset}
}

// bufferSize is bufSize, or less for a reader that says it holds less
// (bytes.Reader, strings.Reader, bytes.Buffer): reading a few new lines
// should not cost a full buffer.
func bufferSize(r io.Reader) int {
	if l, ok := r.(interface{ Len() int }); ok && l.Len() < bufSize {
		return max(l.Len()+1, 16)
	}
	return bufSize
}

// next returns the next complete line, or io.EOF when none is left.
func (lr *lineReader) next() (line, error) {
	if lr.err != nil {
		return line{}, lr.err
	}
	for {
		frag, err := lr.br.ReadSlice('\n')
		lr.pending += int64(len(frag))
		if err == nil {
			return lr.complete(frag), nil
		}
		if !errors.Is(err, bufio.ErrBufferFull) {
			lr.keep(frag)
			if err != io.EOF {
				lr.err = fmt.Errorf("reading line %d (byte %d): %w", lr.index+1, lr.offset, err)
				return line{}, lr.err
			}
			return line{}, io.EOF
		}
		lr.keep(frag)
	}
}

// keep holds on to part of a line not yet complete.
func (lr *lineReader) keep(frag []byte) {
	if lr.dropping {
		return
	}
	if lr.pending > int64(lr.max) {
		lr.dropping, lr.long = true, lr.long[:0]
		return
	}
	lr.long = grow(lr.long, len(frag))
	lr.long = append(lr.long, frag...)
}

// grow makes room for n more bytes, doubling: append alone grows large
// slices by a quarter at a time, allocating five times the final size.
func grow(b []byte, n int) []byte {
	if len(b)+n <= cap(b) {
		return b
	}
	nb := make([]byte, len(b), max(2*cap(b), len(b)+n))
	copy(nb, b)
	return nb
}

// complete finishes the current line with its last fragment (ending in '\n').
func (lr *lineReader) complete(frag []byte) line {
	l := line{index: lr.index + 1, start: lr.offset, end: lr.offset + lr.pending}
	switch {
	case lr.dropping || lr.pending > int64(lr.max):
		l.tooLong = true
	case len(lr.long) > 0:
		lr.long = append(grow(lr.long, len(frag)), frag...)
		l.text = lr.long
	default:
		l.text = frag
	}
	if n := len(l.text); n > 0 {
		l.text = l.text[:n-1]
	}
	lr.index, lr.offset = l.index, l.end
	lr.pending, lr.dropping, lr.long = 0, false, lr.long[:0]
	if cap(lr.long) > keepLong {
		lr.long = nil // do not hold on to one huge line's memory
	}
	return l
}

// blank reports whether a line holds only white space.
func blank(b []byte) bool { return skipSpace(b, 0) == len(b) }
