package jsonedit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Node is a JSON value with its byte span; objects and arrays have items.
type Node struct {
	Start, End int  // [Start, End) of the value
	Kind       byte // '{', '[', '"', or the first byte of a literal
	Items      []Item
}

// Item is an object member (key and value) or an array element.
type Item struct {
	Start int    // the key's quote, or the element's first byte
	Key   string // members only
	Val   *Node
}

type parser struct {
	b []byte
	i int
}

// Parse reads a comment-free JSON document whose top is an object.
func Parse(b []byte) (*Node, error) {
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
	if n.Kind != '{' {
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
func (p *parser) value() *Node {
	n := &Node{Start: p.i, Kind: p.b[p.i]}
	switch n.Kind {
	case '{', '[':
		p.i++
		p.space()
		for p.b[p.i] != '}' && p.b[p.i] != ']' {
			it := Item{Start: p.i}
			if n.Kind == '{' {
				ks := p.i
				p.str()
				_ = json.Unmarshal(p.b[ks:p.i], &it.Key)
				p.space()
				p.i++ // :
				p.space()
			}
			it.Val = p.value()
			n.Items = append(n.Items, it)
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
	n.End = p.i
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

// Member is the value of the object member named key, and its index;
// -1 and nil when n is not an object or has no such member.
func (n *Node) Member(key string) (int, *Node) {
	if n == nil || n.Kind != '{' {
		return -1, nil
	}
	for i := len(n.Items) - 1; i >= 0; i-- { // the last wins, as in JSON.parse
		if n.Items[i].Key == key {
			return i, n.Items[i].Val
		}
	}
	return -1, nil
}

// Style is how the document is written, read from it.
type Style struct {
	Unit  string // one level of indentation
	Colon string // ":" or ": "
	NL    string // "\n", or "\r\n" in a file with CRLF line ends
}

// DetectStyle reads a document's style: the first indented line's
// indentation, the first member's colon, CRLF line ends.
func DetectStyle(b []byte) Style {
	s := Style{Unit: "  ", Colon: ": ", NL: "\n"}
	if bytes.Contains(b, []byte("\r\n")) {
		s.NL = "\r\n"
	}
	for i := 0; i+1 < len(b); i++ {
		if b[i] == '\n' && (b[i+1] == ' ' || b[i+1] == '\t') {
			j := i + 1
			for j < len(b) && b[j] == b[i+1] {
				j++
			}
			s.Unit = string(b[i+1 : j])
			break
		}
	}
	var v map[string]json.RawMessage
	if json.Unmarshal(b, &v) == nil {
		p := &parser{b: b}
		p.space()
		if n := p.value(); len(n.Items) > 0 {
			it := n.Items[0]
			k := &parser{b: b, i: it.Start}
			k.str()
			if !bytes.Contains(b[k.i:it.Val.Start], []byte(" ")) {
				s.Colon = ":"
			}
		}
	}
	return s
}

// KV is an object member to render, in order.
type KV struct {
	K string
	V any
}

// Render writes v (KV lists, []any, strings, bools, numbers) at indent
// (the indentation of the line it starts on); compact on one line when
// indent is nil.
func (s Style) Render(v any, indent *string) string {
	var b strings.Builder
	s.write(&b, v, indent)
	return b.String()
}

func (s Style) write(b *strings.Builder, v any, indent *string) {
	open, close := byte('{'), byte('}')
	var items []func(*string)
	switch x := v.(type) {
	case []KV:
		for _, m := range x {
			items = append(items, func(in *string) {
				k, _ := json.Marshal(m.K)
				b.Write(k)
				b.WriteString(s.Colon)
				s.write(b, m.V, in)
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
		in := *indent + s.Unit
		inner = &in
	}
	for i, f := range items {
		if i > 0 {
			b.WriteByte(',')
			if indent == nil && s.Colon == ": " {
				b.WriteByte(' ')
			}
		}
		if inner != nil {
			b.WriteString(s.NL + *inner)
		}
		f(inner)
	}
	if indent != nil {
		b.WriteString(s.NL + *indent)
	}
	b.WriteByte(close)
}

// Splice replaces b[start:end] with text, in a new slice.
func Splice(b []byte, start, end int, text string) []byte {
	out := make([]byte, 0, len(b)-(end-start)+len(text))
	out = append(out, b[:start]...)
	out = append(out, text...)
	return append(out, b[end:]...)
}

// LineIndent is the indentation of the line holding offset at, and
// whether that line starts there (the Item is the first on its line).
func LineIndent(b []byte, at int) (string, bool) {
	ls := bytes.LastIndexByte(b[:at], '\n') + 1
	ind := ls
	for ind < at && (b[ind] == ' ' || b[ind] == '\t') {
		ind++
	}
	return string(b[ls:ind]), ind == at && ls > 0
}
