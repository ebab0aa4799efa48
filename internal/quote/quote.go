// Package quote prints names that come from outside (file names, session
// ids, refs) the way git prints paths: unchanged when they are plain,
// otherwise in double quotes with C escapes (git's quote_c_style). A name
// can then never break a line of output, forge another line, or send a
// terminal escape sequence to the reader's screen.
package quote

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// escape is what git's quote_c_style does with a byte: 0 prints it as it
// is, 'o' as a three-digit octal escape, any other value as a backslash
// followed by that letter. Bytes of 0x80 and above depend on core.quotePath.
var escape = func() (t [256]byte) {
	for c := 0; c < 0x20; c++ {
		t[c] = 'o'
	}
	t['\a'], t['\b'], t['\t'], t['\n'], t['\v'], t['\f'], t['\r'] = 'a', 'b', 't', 'n', 'v', 'f', 'r'
	t['"'], t['\\'] = '"', '\\'
	t[0x7f] = 'o'
	return t
}()

// Needs reports whether name must be quoted. nonASCII is git's
// core.quotePath (true by default): whether bytes of 0x80 and above are
// escaped too.
func Needs(name string, nonASCII bool) bool {
	for i := 0; i < len(name); i++ {
		if c := name[i]; escape[c] != 0 || (nonASCII && c >= 0x80) {
			return true
		}
	}
	return false
}

// Path returns name as git prints a path: unchanged when no byte needs
// quoting, else "..." with \a \b \t \n \v \f \r \" \\ and three-digit octal
// escapes for the other control bytes (and, with nonASCII, for every byte
// of 0x80 and above).
func Path(name string, nonASCII bool) string {
	if !Needs(name, nonASCII) {
		return name
	}
	var b strings.Builder
	b.Grow(len(name) + 8)
	b.WriteByte('"')
	writeEscaped(&b, name, nonASCII)
	b.WriteByte('"')
	return b.String()
}

// Controls escapes the control bytes of s (as Path does, without the
// quotes and leaving quotes, backslashes and non-ASCII text alone), for
// free text such as a message that must stay on one line.
func Controls(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if isControl(s[i]) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isControl(c) {
			b.WriteByte(c)
			continue
		}
		writeByte(&b, c)
	}
	return b.String()
}

func isControl(c byte) bool { return c < 0x20 || c == 0x7f }

func writeEscaped(b *strings.Builder, s string, nonASCII bool) {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if escape[c] == 0 && !(nonASCII && c >= 0x80) {
			b.WriteByte(c)
			continue
		}
		writeByte(b, c)
	}
}

func writeByte(b *strings.Builder, c byte) {
	b.WriteByte('\\')
	switch e := escape[c]; e {
	case 0, 'o':
		b.WriteByte('0' + c>>6)
		b.WriteByte('0' + c>>3&7)
		b.WriteByte('0' + c&7)
	default:
		b.WriteByte(e)
	}
}

// maxEcho is how much of a value an error message repeats.
const maxEcho = 80

// Value quotes a value someone gave (a flag, a setting, a line of input)
// for an error message: in Go's double-quoted form, so that control
// characters are escaped, and cut to its first 80 bytes with "…" and the
// whole size when it is longer: `"aaaa…" (1048576 bytes)`. A message then
// stays short and on one line whatever the value.
func Value(s string) string {
	if len(s) <= maxEcho {
		return strconv.Quote(s)
	}
	cut := maxEcho
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strconv.Quote(s[:cut]+"…") + " (" + strconv.Itoa(len(s)) + " bytes)"
}

// Short is a name for a message (a key, a path someone typed): as it is
// when it is at most 80 bytes with no control character, quote, backslash
// or space, else as Value gives it.
func Short(s string) string {
	if len(s) <= maxEcho && !Needs(s, false) && !strings.Contains(s, " ") {
		return s
	}
	return Value(s)
}

// maxPathEcho is how much of a path an error message repeats: a record
// path is at most about 90 bytes, a file name 255.
const maxPathEcho = 256

// PathValue is Path for a path someone gave (an argument, a tool's input),
// for an error message: longer than 256 bytes, it is cut there, quoted,
// with "…" and its whole size, as Value does.
func PathValue(name string, nonASCII bool) string {
	if len(name) <= maxPathEcho {
		return Path(name, nonASCII)
	}
	cut := maxPathEcho
	for cut > 0 && !utf8.RuneStart(name[cut]) {
		cut--
	}
	var b strings.Builder
	b.Grow(cut + 32)
	b.WriteByte('"')
	writeEscaped(&b, name[:cut], nonASCII)
	b.WriteString(`…" (` + strconv.Itoa(len(name)) + " bytes)")
	return b.String()
}

// maxLine is the longest line of a message printed whole.
const maxLine = 1024

// Line cuts one line of a message to its first 1,024 bytes, with "…" and
// its whole size: the net under messages that echo what others wrote (git's
// stderr, a model's error), which no terminal needs whole.
func Line(s string) string {
	if len(s) <= maxLine {
		return s
	}
	cut := maxLine
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// Thousands formats n with a comma between groups of three digits, as
// sizes are printed in messages: 1,048,576.
func Thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	sign := ""
	if n < 0 {
		sign, s = "-", s[1:]
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return sign + b.String()
}
