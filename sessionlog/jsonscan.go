package sessionlog

import (
	"bytes"
	"errors"
	"strconv"

	"github.com/yoimem/git-yoimem/internal/tokens"
)

// A small, allocation-free walker over JSON held in memory. The readers use
// it instead of encoding/json so that a line's large values (tool output,
// file contents) are stepped over with bytes.IndexByte rather than decoded:
// only the few values an entry needs are ever unquoted.
//
// It checks the structure of what it walks (objects, members, strings,
// brackets), not every byte of what it skips: a malformed number deep inside
// a skipped value is not noticed. Keys are compared as raw bytes, without
// decoding escapes ("\u0075sage" is not "usage"); no agent writes escaped
// keys, and comparing raw bytes keeps CountTokens' byte pre-checks exact.

var errSyntax = errors.New("not JSON")

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\r' || c == '\n' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// skipString returns the index just after the string starting at b[i] == '"'.
func skipString(b []byte, i int) (int, error) {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return 0, errSyntax
		}
		q := j + k
		n := 0
		for p := q - 1; p > i && b[p] == '\\'; p-- {
			n++
		}
		if n%2 == 0 {
			return q + 1, nil
		}
		j = q + 1
	}
}

// skipValue returns the index just after the value starting at b[i].
func skipValue(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, errSyntax
	}
	switch c := b[i]; {
	case c == '"':
		return skipString(b, i)
	case c == '{' || c == '[':
		return skipNested(b, i)
	default:
		return skipScalar(b, i)
	}
}

func skipScalar(b []byte, i int) (int, error) {
	j := i
	for j < len(b) && isScalarByte(b[j]) {
		j++
	}
	if j == i {
		return 0, errSyntax
	}
	switch s := b[i:j]; {
	case string(s) == "true", string(s) == "false", string(s) == "null":
	case s[0] == '-' || (s[0] >= '0' && s[0] <= '9'):
	default:
		return 0, errSyntax
	}
	return j, nil
}

func isScalarByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'E'
}

// skipNested steps over an object or array, matching brackets and stepping
// over strings whole.
func skipNested(b []byte, i int) (int, error) {
	var small [64]byte
	stack := small[:0]
	for j := i; j < len(b); {
		switch c := b[j]; c {
		case '"':
			end, err := skipString(b, j)
			if err != nil {
				return 0, err
			}
			j = end
			continue
		case '{':
			stack = append(stack, '}')
		case '[':
			stack = append(stack, ']')
		case '}', ']':
			if len(stack) == 0 || stack[len(stack)-1] != c {
				return 0, errSyntax
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return j + 1, nil
			}
		}
		j++
	}
	return 0, errSyntax
}

// object iterates the members of a JSON object. Use:
//
//	it := newObject(raw)
//	for it.next() { use it.key, it.val }
//	if it.err != nil { ... }
//
// key is the raw key between the quotes; val the raw value.
type object struct {
	b        []byte
	i        int
	key, val []byte
	err      error
	done     bool
}

func newObject(raw []byte) object {
	o := object{b: raw}
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '{' {
		o.err, o.done = errSyntax, true
		return o
	}
	o.i = skipSpace(raw, i+1)
	if o.i < len(raw) && raw[o.i] == '}' {
		o.done = true
		o.i++
	}
	return o
}

func (o *object) next() bool {
	if o.done {
		return false
	}
	if err := o.member(); err != nil {
		o.err, o.done = err, true
		return false
	}
	return true
}

// member reads one member. When only the value is bad (or cut short),
// key is left set: Detect looks at the keys of a line cut short.
func (o *object) member() error {
	b, i := o.b, o.i
	o.key = nil
	if i >= len(b) || b[i] != '"' {
		return errSyntax
	}
	end, err := skipString(b, i)
	if err != nil {
		return err
	}
	o.key = b[i+1 : end-1]
	i = skipSpace(b, end)
	if i >= len(b) || b[i] != ':' {
		return errSyntax
	}
	i = skipSpace(b, i+1)
	end, err = skipValue(b, i)
	if err != nil {
		return err
	}
	o.val = b[i:end]
	i = skipSpace(b, end)
	switch {
	case i < len(b) && b[i] == ',':
		o.i = skipSpace(b, i+1)
	case i < len(b) && b[i] == '}':
		o.i, o.done = i+1, true
	default:
		return errSyntax
	}
	return nil
}

// rest reports whether only white space follows the object (after the
// iteration ended without error).
func (o *object) rest() bool { return skipSpace(o.b, o.i) == len(o.b) }

// array iterates the elements of a JSON array, like object.
type array struct {
	b    []byte
	i    int
	val  []byte
	err  error
	done bool
}

func newArray(raw []byte) array {
	a := array{b: raw}
	i := skipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '[' {
		a.err, a.done = errSyntax, true
		return a
	}
	a.i = skipSpace(raw, i+1)
	if a.i < len(raw) && raw[a.i] == ']' {
		a.done = true
	}
	return a
}

func (a *array) next() bool {
	if a.done {
		return false
	}
	b, i := a.b, a.i
	end, err := skipValue(b, i)
	if err != nil {
		a.err, a.done = err, true
		return false
	}
	a.val = b[i:end]
	i = skipSpace(b, end)
	switch {
	case i < len(b) && b[i] == ',':
		a.i = skipSpace(b, i+1)
	case i < len(b) && b[i] == ']':
		a.done = true
	default:
		a.err, a.done = errSyntax, true
		a.val = nil
		return false
	}
	return true
}

// isString, isObject, isArray tell a raw value's type by its first byte.
func isString(v []byte) bool { return len(v) >= 2 && v[0] == '"' }
func isObject(v []byte) bool { return len(v) >= 2 && v[0] == '{' }
func isArray(v []byte) bool  { return len(v) >= 2 && v[0] == '[' }

// rawIs reports whether v is the JSON string s written without escapes.
func rawIs(v []byte, s string) bool {
	return len(v) == len(s)+2 && v[0] == '"' && string(v[1:len(v)-1]) == s
}

// rawInner returns the bytes between a string's quotes, escapes undecoded.
func rawInner(v []byte) []byte {
	if !isString(v) {
		return nil
	}
	return v[1 : len(v)-1]
}

// boolValue reports whether v is the literal true.
func boolValue(v []byte) bool { return string(v) == "true" }

// intValue reads an integer; anything else (fractions, exponents, strings,
// negative numbers, overflow) reads as 0: token counts are never those.
func intValue(v []byte) int64 {
	n, err := strconv.ParseInt(string(v), 10, 64)
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// tokenValue reads a token counter: a whole number from 0 to tokens.Max;
// anything else (negative, larger, a fraction, a string) counts 0.
func tokenValue(v []byte) int64 {
	n, _ := tokens.Parse(v)
	return n
}
