package record

import (
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// fastParse builds the node tree of the frontmatter shapes records use —
// top-level "key: value" lines whose values are plain or quoted scalars on
// one line, one-line flow collections, or a block sequence of such items —
// without the general YAML parser, which dominates lint time. Anything
// else (comments, block scalars, multi-line values, anchors, tabs, escapes)
// returns ok=false and the caller uses the YAML library. For inputs it
// accepts, the tree equals the library's (FuzzFastYAML checks).
func fastParse(data []byte) (root *yaml.Node, ok bool) {
	if !printable(data) {
		return nil, false
	}
	p := &fastParser{}
	lines := splitLines(string(data))
	root = p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"})
	for i := 0; i < len(lines); {
		l := lines[i]
		if isBlank(l.text) {
			i++
			continue
		}
		key, rest, ok := p.fastKey(l)
		if !ok {
			return nil, false
		}
		if len(root.Content) == 0 {
			root.Line, root.Column = key.Line, key.Column
		}
		var val *yaml.Node
		if isBlank(rest.text) {
			val, i, ok = p.fastBlockSeq(lines, i+1)
		} else {
			val, ok = p.fastInline(rest)
			i++
			if ok && i < len(lines) && !isBlank(lines[i].text) && (lines[i].text[0] == ' ' || lines[i].text[0] == '-') {
				ok = false // a continuation line or a stray item: leave it to the library
			}
		}
		if !ok {
			return nil, false
		}
		root.Content = append(root.Content, key, val)
	}
	if len(root.Content) == 0 {
		return nil, false
	}
	return root, true
}

// printable reports whether data holds only characters YAML accepts in a
// stream (plus LF and CR); anything else is the library's to report.
func printable(data []byte) bool {
	for i := 0; i < len(data); {
		c := data[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\r') || c == 0x7F {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == utf8.RuneError && size <= 1, r < 0xA0, r >= 0xD800 && r < 0xE000, r == 0xFEFF, r == 0xFFFE, r == 0xFFFF:
			return false
		}
		i += size
	}
	return true
}

// fastParser hands out nodes from slabs: one allocation for many nodes
// keeps the garbage of linting 10,000 files small.
type fastParser struct {
	slab []yaml.Node
}

func (p *fastParser) node(n yaml.Node) *yaml.Node {
	if len(p.slab) == cap(p.slab) {
		p.slab = make([]yaml.Node, 0, 16)
	}
	p.slab = append(p.slab, n)
	return &p.slab[len(p.slab)-1]
}

type fline struct {
	text string // without the line break
	line int    // 1-based
	col  int    // 1-based column (in characters) of text[0]
}

// splitLines cuts text into lines; they share text's memory.
func splitLines(text string) []fline {
	out := make([]fline, 0, strings.Count(text, "\n")+1)
	for n := 1; len(text) > 0; n++ {
		i := strings.IndexByte(text, '\n')
		var l string
		if i < 0 {
			l, text = text, ""
		} else {
			l, text = text[:i], text[i+1:]
		}
		out = append(out, fline{text: strings.TrimSuffix(l, "\r"), line: n, col: 1})
	}
	return out
}

func isBlank(s string) bool { return strings.TrimRight(s, " ") == "" }

// advance returns the part of l after n bytes, with its column.
func (l fline) advance(n int) fline {
	return fline{text: l.text[n:], line: l.line, col: l.col + utf8.RuneCountInString(l.text[:n])}
}

func (l fline) skipSpaces() fline {
	n := 0
	for n < len(l.text) && l.text[n] == ' ' {
		n++
	}
	return l.advance(n)
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// fastKey reads "key:" at column 1; the key is a plain word.
func (p *fastParser) fastKey(l fline) (*yaml.Node, fline, bool) {
	n := 0
	for n < len(l.text) && isKeyByte(l.text[n]) {
		n++
	}
	// YAML limits implicit keys to 1024 characters; ours are short.
	if n == 0 || n > 128 || n == len(l.text) || l.text[n] != ':' || !startsPlain(l.text[0], "") {
		return nil, l, false
	}
	if n+1 < len(l.text) && l.text[n+1] != ' ' {
		return nil, l, false
	}
	k := l.text[:n]
	key := p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: resolveTag(k), Value: k, Line: l.line, Column: l.col})
	return key, l.advance(n + 1).skipSpaces(), true
}

// startsPlain: the first byte may start a plain scalar (next is the byte
// after it, for '-', '?' and ':' which need a non-space after them; we
// simply refuse those).
func startsPlain(c byte, _ string) bool {
	switch c {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ', '\t':
		return false
	}
	return c >= 0x20
}

// fastInline reads a one-line value and requires nothing after it.
func (p *fastParser) fastInline(l fline) (*yaml.Node, bool) {
	n, rest, ok := p.fastValue(l, false)
	if !ok || !isBlank(rest.text) {
		return nil, false
	}
	return n, true
}

// fastValue reads one value; in flow context plain scalars stop at flow
// indicators.
func (p *fastParser) fastValue(l fline, flow bool) (*yaml.Node, fline, bool) {
	if l.text == "" {
		return nil, l, false
	}
	switch l.text[0] {
	case '"':
		return p.fastQuoted(l, '"')
	case '\'':
		return p.fastQuoted(l, '\'')
	case '[':
		return p.fastFlow(l, false)
	case '{':
		return p.fastFlow(l, true)
	}
	if !startsPlain(l.text[0], "") {
		return nil, l, false
	}
	end := len(l.text)
	for i := 0; i < len(l.text); i++ {
		c := l.text[i]
		switch {
		case c == '\t' || c == '#' && i > 0 && l.text[i-1] == ' ':
			return nil, l, false
		case c == ':' && (i+1 == len(l.text) || l.text[i+1] == ' ' || flow && strings.IndexByte(",[]{}", l.text[i+1]) >= 0):
			if !flow {
				return nil, l, false // a nested mapping
			}
			end = i
		case flow && strings.IndexByte(",[]{}", c) >= 0:
			end = i
		case flow && !flowPlainByte(c):
			return nil, l, false
		}
		if end != len(l.text) {
			break
		}
	}
	v := strings.TrimRight(l.text[:end], " ")
	if v == "" || strings.HasSuffix(v, ":") {
		return nil, l, false
	}
	node := p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: resolveTag(v), Value: v, Line: l.line, Column: l.col})
	return node, l.advance(len(v)), true
}

func (p *fastParser) fastQuoted(l fline, q byte) (*yaml.Node, fline, bool) {
	var b strings.Builder
	escaped := false // a '' in a single-quoted scalar: the value is not a substring
	for i := 1; i < len(l.text); i++ {
		c := l.text[i]
		switch {
		case c == '\\' && q == '"', c == '\t':
			return nil, l, false
		case c == q && q == '\'' && i+1 < len(l.text) && l.text[i+1] == '\'':
			if !escaped {
				b.WriteString(l.text[1:i])
				escaped = true
			}
			b.WriteByte('\'')
			i++
		case c == q:
			style, value := yaml.DoubleQuotedStyle, l.text[1:i]
			if q == '\'' {
				style = yaml.SingleQuotedStyle
			}
			if escaped {
				value = b.String()
			}
			node := p.node(yaml.Node{Kind: yaml.ScalarNode, Style: style, Tag: "!!str", Value: value, Line: l.line, Column: l.col})
			return node, l.advance(i + 1), true
		case escaped:
			b.WriteByte(c)
		}
	}
	return nil, l, false // not closed on this line
}

// fastFlow reads [a, b] or {k: v, …} on one line.
func (p *fastParser) fastFlow(l fline, mapping bool) (*yaml.Node, fline, bool) {
	node := p.node(yaml.Node{Kind: yaml.SequenceNode, Style: yaml.FlowStyle, Tag: "!!seq", Line: l.line, Column: l.col})
	closer := byte(']')
	if mapping {
		node.Kind, node.Tag, closer = yaml.MappingNode, "!!map", '}'
	}
	l = l.advance(1).skipSpaces()
	if l.text != "" && l.text[0] == closer {
		return node, l.advance(1), true
	}
	for {
		var ok bool
		if mapping {
			var k, v *yaml.Node
			if k, l, ok = p.fastValue(l, true); !ok || k.Kind != yaml.ScalarNode || k.Style != 0 || len(k.Value) > 128 || l.text == "" || l.text[0] != ':' {
				return nil, l, false
			}
			l = l.advance(1)
			if l.text == "" || l.text[0] != ' ' {
				return nil, l, false
			}
			if v, l, ok = p.fastValue(l.skipSpaces(), true); !ok {
				return nil, l, false
			}
			node.Content = append(node.Content, k, v)
		} else {
			var v *yaml.Node
			if v, l, ok = p.fastValue(l, true); !ok {
				return nil, l, false
			}
			node.Content = append(node.Content, v)
		}
		l = l.skipSpaces()
		if l.text == "" {
			return nil, l, false
		}
		switch l.text[0] {
		case closer:
			return node, l.advance(1), true
		case ',':
			l = l.advance(1)
			if l.text == "" || l.text[0] != ' ' {
				return nil, l, false
			}
			l = l.skipSpaces()
			if l.text == "" || l.text[0] == closer || l.text[0] == ',' {
				return nil, l, false
			}
		default:
			return nil, l, false
		}
	}
}

// fastBlockSeq reads "- item" lines at one indentation after a key with
// no inline value.
func (p *fastParser) fastBlockSeq(lines []fline, i int) (*yaml.Node, int, bool) {
	var seq *yaml.Node
	indent := -1
	for ; i < len(lines); i++ {
		l := lines[i]
		if isBlank(l.text) {
			continue
		}
		d := len(l.text) - len(strings.TrimLeft(l.text, " "))
		if indent < 0 {
			indent = d
		}
		if d != indent || !strings.HasPrefix(l.text[d:], "- ") {
			if d == 0 && seq != nil && l.text[0] != '-' && l.text[0] != ' ' {
				break // the next key
			}
			return nil, i, false
		}
		dash := l.advance(d)
		if seq == nil {
			seq = p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: dash.line, Column: dash.col})
		}
		item, ok := p.fastInline(dash.advance(2).skipSpaces())
		if !ok {
			return nil, i, false
		}
		seq.Content = append(seq.Content, item)
	}
	if seq == nil {
		return nil, i, false
	}
	return seq, i, true
}

// flowPlainByte limits plain scalars inside [..] and {..} to the bytes of
// words, numbers, ids and times; anything fancier goes to the library.
func flowPlainByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '_' || c == '.' || c == '/' || c == '+' || c == ' ' || c == ':' || c >= 0x80
}
