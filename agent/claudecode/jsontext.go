package claudecode

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// A JSON document edited as text, so that everything but our entries
// keeps its bytes: the user's key order, indentation and spacing.

// node is a JSON value with its byte span; objects and arrays have items.
type node struct {
	start, end int // [start, end) of the value
	kind       byte
	items      []item
}

// item is an object member (key and value) or an array element.
type item struct {
	start int    // the key's quote, or the element's first byte
	key   string // members only
	val   *node
}

type parser struct {
	b []byte
	i int
}

// parseDoc reads a comment-free JSON document whose top is an object.
func parseDoc(b []byte) (*node, error) {
	if !json.Valid(b) {
		var v any
		err := json.Unmarshal(b, &v)
		if se, ok := err.(*json.SyntaxError); ok {
			line := bytes.Count(b[:min(int(se.Offset), len(b))], []byte("\n")) + 1
			return nil, fmt.Errorf("not valid JSON at line %d (byte %d): %v (comments and trailing commas are not JSON)", line, se.Offset, se)
		}
		return nil, fmt.Errorf("not valid JSON: %v", err)
	}
	p := &parser{b: b}
	p.space()
	n := p.value()
	if n.kind != '{' {
		return nil, fmt.Errorf("the top level is not a JSON object")
	}
	return n, nil
}

func (p *parser) space() {
	for p.i < len(p.b) && strings.IndexByte(" \t\r\n", p.b[p.i]) >= 0 {
		p.i++
	}
}

// value reads one value of a document json.Valid accepted.
func (p *parser) value() *node {
	n := &node{start: p.i, kind: p.b[p.i]}
	switch n.kind {
	case '{', '[':
		p.i++
		p.space()
		for p.b[p.i] != '}' && p.b[p.i] != ']' {
			it := item{start: p.i}
			if n.kind == '{' {
				ks := p.i
				p.str()
				_ = json.Unmarshal(p.b[ks:p.i], &it.key)
				p.space()
				p.i++ // :
				p.space()
			}
			it.val = p.value()
			n.items = append(n.items, it)
			p.space()
			if p.b[p.i] == ',' {
				p.i++
				p.space()
			}
		}
		p.i++
	case '"':
		p.str()
	default:
		for p.i < len(p.b) && strings.IndexByte(",}] \t\r\n", p.b[p.i]) < 0 {
			p.i++
		}
	}
	n.end = p.i
	return n
}

func (p *parser) str() {
	p.i++
	for p.b[p.i] != '"' {
		if p.b[p.i] == '\\' {
			p.i++
		}
		p.i++
	}
	p.i++
}

func (n *node) member(key string) (int, *node) {
	if n == nil || n.kind != '{' {
		return -1, nil
	}
	for i := len(n.items) - 1; i >= 0; i-- { // the last wins, as in JSON.parse
		if n.items[i].key == key {
			return i, n.items[i].val
		}
	}
	return -1, nil
}

// style is how the document is written, read from it.
type style struct {
	unit  string // one level of indentation
	colon string // ":" or ": "
	nl    string // "\n", or "\r\n" in a file with CRLF line ends
}

func detectStyle(b []byte) style {
	s := style{unit: "  ", colon: ": ", nl: "\n"}
	if bytes.Contains(b, []byte("\r\n")) {
		s.nl = "\r\n"
	}
	for i := 0; i+1 < len(b); i++ {
		if b[i] == '\n' && (b[i+1] == ' ' || b[i+1] == '\t') {
			j := i + 1
			for j < len(b) && b[j] == b[i+1] {
				j++
			}
			s.unit = string(b[i+1 : j])
			break
		}
	}
	var v map[string]json.RawMessage
	if json.Unmarshal(b, &v) == nil {
		p := &parser{b: b}
		p.space()
		if n := p.value(); len(n.items) > 0 {
			it := n.items[0]
			k := &parser{b: b, i: it.start}
			k.str()
			if !bytes.Contains(b[k.i:it.val.start], []byte(" ")) {
				s.colon = ":"
			}
		}
	}
	return s
}

// kv is an object member to render, in order.
type kv struct {
	k string
	v any
}

// render writes v (kv lists, []any, strings, bools, numbers) at indent
// (the indentation of the line it starts on); compact on one line when
// indent is nil.
func (s style) render(v any, indent *string) string {
	var b strings.Builder
	s.write(&b, v, indent)
	return b.String()
}

func (s style) write(b *strings.Builder, v any, indent *string) {
	open, close := byte('{'), byte('}')
	var items []func(*string)
	switch x := v.(type) {
	case []kv:
		for _, m := range x {
			items = append(items, func(in *string) {
				k, _ := json.Marshal(m.k)
				b.Write(k)
				b.WriteString(s.colon)
				s.write(b, m.v, in)
			})
		}
	case []any:
		open, close = '[', ']'
		for _, e := range x {
			items = append(items, func(in *string) { s.write(b, e, in) })
		}
	default:
		enc, _ := json.Marshal(x)
		b.Write(enc)
		return
	}
	b.WriteByte(open)
	if len(items) == 0 {
		b.WriteByte(close)
		return
	}
	var inner *string
	if indent != nil {
		in := *indent + s.unit
		inner = &in
	}
	for i, f := range items {
		if i > 0 {
			b.WriteByte(',')
			if indent == nil && s.colon == ": " {
				b.WriteByte(' ')
			}
		}
		if inner != nil {
			b.WriteString(s.nl + *inner)
		}
		f(inner)
	}
	if indent != nil {
		b.WriteString(s.nl + *indent)
	}
	b.WriteByte(close)
}

// edit is a replacement of b[start:end] with text.
func splice(b []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(b)-(end-start)+len(text))
	out = append(out, b[:start]...)
	out = append(out, text...)
	return append(out, b[end:]...)
}

// lineIndent is the indentation of the line holding offset at, and
// whether that line starts there (the item is the first on its line).
func lineIndent(b []byte, at int) (string, bool) {
	ls := bytes.LastIndexByte(b[:at], '\n') + 1
	ind := ls
	for ind < at && (b[ind] == ' ' || b[ind] == '\t') {
		ind++
	}
	return string(b[ls:ind]), ind == at && ls > 0
}
