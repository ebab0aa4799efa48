package mcp

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// DefaultMaxMessageBytes is the longest message the server reads, as the
// SDK's own stdio transport allows: 16 MiB.
const DefaultMaxMessageBytes = 16 << 20

// tooLongError is a line over the limit, skipped up to its newline.
type tooLongError struct {
	Size int64 // the line's real length, without its line ending
	Max  int
}

func (e *tooLongError) Error() string {
	return fmt.Sprintf("message is %s bytes, over the limit of %s (--max-message-bytes)", commas(e.Size), commas(int64(e.Max)))
}

// lineReader reads newline-delimited messages of at most max bytes (a
// trailing CR is part of the line ending). A longer line is counted and
// skipped up to its newline, never kept: the buffer stays within max.
type lineReader struct {
	r    *bufio.Reader
	max  int
	buf  []byte
	peak int // the largest the buffer has been, for tests
}

func newLineReader(r io.Reader, max int) *lineReader {
	if max <= 0 {
		max = DefaultMaxMessageBytes
	}
	return &lineReader{r: bufio.NewReaderSize(r, 64<<10), max: max}
}

// next returns the next line without its line ending, valid until the
// next call; a *tooLongError for a line over the limit (reading goes on
// after it); io.EOF at the end.
func (l *lineReader) next() ([]byte, error) {
	l.buf = l.buf[:0]
	var size int64   // bytes of the line so far, line ending included
	var last [2]byte // its last two bytes, for the line ending
	long := false
	for {
		chunk, err := l.r.ReadSlice('\n')
		size += int64(len(chunk))
		last = lastTwo(last, chunk)
		if !long {
			// max+2 leaves room for the CR LF of a line at the limit
			if len(l.buf)+len(chunk) > l.max+2 {
				long, l.buf = true, l.buf[:0]
			} else {
				l.append(chunk)
			}
		}
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case err != nil && !errors.Is(err, io.EOF):
			return nil, err
		case err != nil && size == 0:
			return nil, io.EOF
		}
		n := size - ending(size, last)
		if long || n > int64(l.max) {
			return nil, &tooLongError{Size: n, Max: l.max}
		}
		return l.buf[:n], nil
	}
}

func lastTwo(last [2]byte, chunk []byte) [2]byte {
	switch n := len(chunk); n {
	case 0:
		return last
	case 1:
		return [2]byte{last[1], chunk[0]}
	default:
		return [2]byte{chunk[n-2], chunk[n-1]}
	}
}

// ending is the length of the line ending of a line of size bytes ending
// in last: "\n", "\r\n", or nothing at the end of input.
func ending(size int64, last [2]byte) int64 {
	switch {
	case last[1] != '\n':
		return 0
	case size >= 2 && last[0] == '\r':
		return 2
	}
	return 1
}

// append adds chunk to the buffer, growing it no further than the limit.
func (l *lineReader) append(chunk []byte) {
	if need := len(l.buf) + len(chunk); need > cap(l.buf) {
		grown := make([]byte, len(l.buf), min(max(2*cap(l.buf), need), l.max+2))
		copy(grown, l.buf)
		l.buf = grown
		l.peak = max(l.peak, cap(l.buf))
	}
	l.buf = append(l.buf, chunk...)
}

// commas writes n with thousands separators: 16,777,216.
func commas(n int64) string {
	s := fmt.Sprint(n)
	if n < 0 {
		return "-" + commas(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
