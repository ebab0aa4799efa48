package sessionlog

import (
	"bytes"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// stringValue decodes a raw JSON string value whole. A value that is not a
// string decodes to "". Invalid UTF-8 becomes U+FFFD, as encoding/json does.
func stringValue(v []byte) string {
	s, _ := stringPrefix(v, -1)
	return s
}

// stringPrefix decodes at most max bytes of a raw JSON string value (max < 0:
// all of it), cut at a character boundary, and reports whether it stopped
// early. Only the prefix is looked at, so a 1 MB value costs what its first
// max bytes cost.
func stringPrefix(v []byte, max int) (string, bool) {
	in := rawInner(v)
	if in == nil {
		return "", false
	}
	limit := len(in)
	if max >= 0 && max < limit {
		limit = max
	}
	if bytes.IndexByte(in[:limit], '\\') < 0 {
		cut := cutRunes(in, limit)
		return validString(in[:cut]), cut < len(in)
	}
	return unescape(in, max)
}

// cutRunes returns n moved back to a UTF-8 character boundary of b.
func cutRunes(b []byte, n int) int {
	if n >= len(b) {
		return len(b)
	}
	for n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	return n
}

// validString converts b, each byte of invalid UTF-8 becoming U+FFFD.
func validString(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var s strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		s.WriteRune(r)
		b = b[n:]
	}
	return s.String()
}

// unescape decodes the inside of a JSON string up to max output bytes.
func unescape(in []byte, max int) (string, bool) {
	out := make([]byte, 0, min(len(in), max+utf8.UTFMax))
	if max < 0 {
		out = make([]byte, 0, len(in))
	}
	for i := 0; i < len(in); {
		if max >= 0 && len(out) >= max {
			return validString(out[:cutRunes(out, max)]), true
		}
		c := in[i]
		if c != '\\' {
			j := bytes.IndexByte(in[i:], '\\')
			if j < 0 {
				j = len(in) - i
			}
			if max >= 0 && len(out)+j > max {
				j = max - len(out) + utf8.UTFMax // cut below
			}
			j = min(j, len(in)-i)
			out = append(out, in[i:i+j]...)
			i += j
			continue
		}
		r, n := escape(in[i:])
		out = utf8.AppendRune(out, r)
		i += n
	}
	if max >= 0 && len(out) > max {
		return validString(out[:cutRunes(out, max)]), true
	}
	return validString(out), false
}

// escape decodes the escape sequence at the start of b (b[0] == '\\') and
// returns the character and the bytes it took. A malformed escape decodes
// to U+FFFD.
func escape(b []byte) (rune, int) {
	if len(b) < 2 {
		return utf8.RuneError, len(b)
	}
	switch b[1] {
	case '"', '\\', '/':
		return rune(b[1]), 2
	case 'b':
		return '\b', 2
	case 'f':
		return '\f', 2
	case 'n':
		return '\n', 2
	case 'r':
		return '\r', 2
	case 't':
		return '\t', 2
	case 'u':
		r, ok := hex4(b[2:])
		if !ok {
			return utf8.RuneError, 2
		}
		if utf16.IsSurrogate(r) {
			if len(b) >= 12 && b[6] == '\\' && b[7] == 'u' {
				if r2, ok := hex4(b[8:]); ok {
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						return d, 12
					}
				}
			}
			return utf8.RuneError, 6
		}
		return r, 6
	}
	return utf8.RuneError, 2
}

func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// decodedLen is the length in bytes of a raw JSON string value once
// decoded, computed without decoding it: only the escapes are looked at.
func decodedLen(v []byte) int {
	in := rawInner(v)
	n := len(in)
	for i := 0; ; {
		j := bytes.IndexByte(in[i:], '\\')
		if j < 0 {
			return n
		}
		i += j
		r, k := escape(in[i:])
		n -= k - utf8.RuneLen(r)
		i += k
	}
}
