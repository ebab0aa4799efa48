package record

import (
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// inline reads a value that starts on a line (l, its line p.i) in a block
// at parentIndent: a plain scalar that may go on over more indented lines,
// a quoted string that may span lines, or a one-line flow collection; a
// trailing comment becomes the value's line comment, as the library does.
func (p *fastParser) inline(l fline, parentIndent int) (*yaml.Node, bool) {
	var (
		v    *yaml.Node
		rest fline
		ok   bool
	)
	switch l.text[0] {
	case '"', '\'':
		v, rest, ok = p.quoted(l, parentIndent)
	default:
		v, rest, ok = p.fastValue(l, false)
	}
	if !ok {
		return nil, false
	}
	if v.Kind == yaml.ScalarNode && v.Style == 0 {
		return p.plainLines(v, rest, parentIndent)
	}
	if v.LineComment, ok = trailingComment(rest.text); !ok {
		return nil, false
	}
	p.i++
	return v, true
}

// trailingComment accepts what follows a value on its line: nothing, or
// white space and a comment.
func trailingComment(rest string) (string, bool) {
	c := strings.TrimLeft(rest, " ")
	switch {
	case c == "":
		return "", true
	case c[0] == '#' && len(c) < len(rest):
		return c, true
	}
	return "", false
}

// plainLines finishes a plain scalar whose first line gave v: lines more
// indented than parentIndent continue it, folded as YAML folds them (a
// line break is a space, each empty line a newline).
func (p *fastParser) plainLines(v *yaml.Node, rest fline, parentIndent int) (*yaml.Node, bool) {
	var ok bool
	if v.LineComment, ok = trailingComment(rest.text); !ok {
		return nil, false
	}
	p.i++
	if v.LineComment != "" {
		return v, true
	}
	b := p.scratch[:0]
	defer func() { p.scratch = b[:0] }()
	for {
		j := p.peek()
		if j == len(p.lines) {
			break
		}
		next := p.lines[j]
		d := indentOf(next.text)
		if d <= parentIndent || isComment(next.text) {
			break
		}
		line := next.advance(d)
		piece, ok := plainText(line.text, false)
		if !ok {
			return nil, false
		}
		if len(b) == 0 {
			b = append(b, v.Value...)
		}
		if j == p.i {
			b = append(b, ' ')
		}
		for k := p.i; k < j; k++ {
			b = append(b, '\n')
		}
		b = append(b, piece...)
		p.i = j + 1
		if v.LineComment, ok = trailingComment(line.text[len(piece):]); !ok {
			return nil, false
		}
		if v.LineComment != "" {
			break // a comment ends a plain scalar
		}
	}
	if len(b) > 0 {
		v.Value = p.arena.str(b)
		v.Tag = resolveTag(v.Value)
	}
	return v, true
}

// fastValue reads one value on one line; in flow context plain scalars
// stop at flow indicators, in block context at a comment.
func (p *fastParser) fastValue(l fline, flow bool) (*yaml.Node, fline, bool) {
	if l.text == "" {
		return nil, l, false
	}
	switch l.text[0] {
	case '"', '\'':
		return p.quoted(l, -1)
	case '[':
		return p.fastFlow(l, false)
	case '{':
		return p.fastFlow(l, true)
	}
	v, ok := plainText(l.text, flow)
	if !ok {
		return nil, l, false
	}
	node := p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: resolveTag(v), Value: v, Line: l.line, Column: l.col})
	return node, l.advance(len(v)), true
}

// plainText returns the plain scalar at the start of s: up to a comment in
// block context, up to a flow indicator in flow context; ok=false when s
// does not start one or it holds what the fast path leaves to the library
// (a tab, a nested "key: ", in flow context a comment or unusual bytes).
func plainText(s string, flow bool) (string, bool) {
	if s == "" || !startsPlain(s[0]) {
		return "", false
	}
	end := len(s)
	for i := 0; i < len(s) && end == len(s); i++ {
		c := s[i]
		switch {
		case c == '\t':
			return "", false
		case c == '#' && s[i-1] == ' ':
			if flow {
				return "", false
			}
			end = i
		case c == ':' && (i+1 == len(s) || s[i+1] == ' ' || flow && strings.IndexByte(",[]{}", s[i+1]) >= 0):
			if !flow {
				return "", false // a nested mapping
			}
			end = i
		case flow && strings.IndexByte(",[]{}", c) >= 0:
			end = i
		case flow && !flowPlainByte(c):
			return "", false
		}
	}
	v := strings.TrimRight(s[:end], " ")
	if v == "" || strings.HasSuffix(v, ":") {
		return "", false
	}
	return v, true
}

// quoted reads a single- or double-quoted scalar starting at l. With
// parentIndent >= 0 it may go on over lines more indented than that (a
// line break folds to a space, each empty line to a newline, a backslash
// before the break in double quotes joins the lines); with -1 (inside a
// flow collection) it must close on its line. p.i moves past the lines a
// multi-line scalar took; the returned rest is on the closing line.
func (p *fastParser) quoted(l fline, parentIndent int) (*yaml.Node, fline, bool) {
	q := l.text[0]
	style := yaml.DoubleQuotedStyle
	if q == '\'' {
		style = yaml.SingleQuotedStyle
	}
	cur, i := l, 1
	b := p.scratch[:0]
	defer func() { p.scratch = b[:0] }()
	simple := true // the value is still cur.text[1:i]
	solid := 0     // len(b) up to the last byte that is not folding white space
	for {
		if i == len(cur.text) {
			if parentIndent < 0 {
				return nil, l, false
			}
			if simple {
				// No escape yet: every trailing space folds away.
				b, simple = append(b, strings.TrimRight(cur.text[1:i], " ")...), false
				solid = len(b)
			}
			var ok bool
			if cur, b, ok = p.foldQuoted(b[:solid], parentIndent, false); !ok {
				return nil, l, false
			}
			i, solid = 0, len(b)
			continue
		}
		c := cur.text[i]
		switch {
		case c == q && q == '\'' && i+1 < len(cur.text) && cur.text[i+1] == '\'':
			if simple {
				b, simple = append(b, cur.text[1:i]...), false
			}
			b = append(b, '\'')
			solid = len(b)
			i += 2
		case c == q:
			var value string
			if simple {
				value = cur.text[1:i]
			} else {
				value = p.arena.str(b)
			}
			node := p.node(yaml.Node{Kind: yaml.ScalarNode, Style: style, Tag: "!!str", Value: value, Line: l.line, Column: l.col})
			return node, cur.advance(i + 1), true
		case c == '\\' && q == '"':
			if simple {
				b, simple = append(b, cur.text[1:i]...), false
			}
			if i+1 == len(cur.text) {
				if parentIndent < 0 {
					return nil, l, false
				}
				var ok bool
				if cur, b, ok = p.foldQuoted(b, parentIndent, true); !ok {
					return nil, l, false
				}
				i, solid = 0, len(b)
				continue
			}
			var n int
			var ok bool
			if b, n, ok = unescape(b, cur.text[i+1:]); !ok {
				return nil, l, false
			}
			solid = len(b)
			i += 1 + n
		default:
			if !simple {
				b = append(b, c)
				if c != ' ' {
					solid = len(b)
				}
			}
			i++
		}
	}
}

// foldQuoted moves a quoted scalar to its next line: b holds the value so
// far without the white space before the break. Empty lines add a newline
// each; otherwise the break is a space, unless it was escaped. The next
// line must be more indented than parentIndent and is returned without its
// indentation.
func (p *fastParser) foldQuoted(b []byte, parentIndent int, escaped bool) (fline, []byte, bool) {
	j := p.i + 1
	empty := 0
	for j < len(p.lines) && isBlank(p.lines[j].text) {
		j++
		empty++
	}
	if j == len(p.lines) || indentOf(p.lines[j].text) <= parentIndent || escaped && empty > 0 {
		return fline{}, b, false
	}
	switch {
	case escaped:
	case empty == 0:
		b = append(b, ' ')
	default:
		for ; empty > 0; empty-- {
			b = append(b, '\n')
		}
	}
	p.i = j
	return p.lines[j].skipSpaces(), b, true
}

// unescape appends the character of the escape sequence at the start of s
// (after the backslash) and reports how many bytes of s it used; ok=false
// for sequences the library refuses.
func unescape(b []byte, s string) ([]byte, int, bool) {
	if s == "" {
		return b, 0, false
	}
	if r, ok := simpleEscape(s[0]); ok {
		return append(b, r...), 1, true
	}
	width := 0
	switch s[0] {
	case 'x':
		width = 2
	case 'u':
		width = 4
	case 'U':
		width = 8
	}
	if width == 0 || len(s) < 1+width {
		return b, 0, false
	}
	var r uint32 // eight hex digits overflow a rune: the library's value is unsigned
	for _, c := range []byte(s[1 : 1+width]) {
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return b, 0, false
		}
		r = r<<4 | uint32(v)
	}
	if r >= 0xD800 && r <= 0xDFFF || r > 0x10FFFF {
		return b, 0, false
	}
	return utf8.AppendRune(b, rune(r)), 1 + width, true
}

// simpleEscape maps the one-character escapes of double-quoted YAML
// (as go.yaml.in/yaml/v3's scanner reads them) to their text.
func simpleEscape(c byte) (string, bool) {
	switch c {
	case '0':
		return "\x00", true
	case 'a':
		return "\a", true
	case 'b':
		return "\b", true
	case 't':
		return "\t", true
	case 'n':
		return "\n", true
	case 'v':
		return "\v", true
	case 'f':
		return "\f", true
	case 'r':
		return "\r", true
	case 'e':
		return "\x1b", true
	case ' ', '"', '\'', '\\':
		return string(c), true
	case 'N':
		return "\u0085", true
	case '_':
		return "\u00a0", true
	case 'L':
		return "\u2028", true
	case 'P':
		return "\u2029", true
	}
	return "", false
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
	base := len(p.stack)
	for {
		var ok bool
		if mapping {
			var k, v *yaml.Node
			if k, l, ok = p.fastValue(l, true); !ok || k.Kind != yaml.ScalarNode || k.Style != 0 || len(k.Value) > 128 || l.text == "" || l.text[0] != ':' {
				return nil, l, false
			}
			for i := base; i < len(p.stack); i += 2 {
				if p.stack[i].Value == k.Value {
					return nil, l, false // a duplicate key: the library's
				}
			}
			l = l.advance(1)
			if l.text == "" || l.text[0] != ' ' {
				return nil, l, false
			}
			if v, l, ok = p.fastValue(l.skipSpaces(), true); !ok {
				return nil, l, false
			}
			p.stack = append(p.stack, k, v)
		} else {
			var v *yaml.Node
			if v, l, ok = p.fastValue(l, true); !ok {
				return nil, l, false
			}
			p.stack = append(p.stack, v)
		}
		l = l.skipSpaces()
		if l.text == "" {
			return nil, l, false
		}
		switch l.text[0] {
		case closer:
			node.Content = p.content(base)
			return node, l.advance(1), true
		case ',':
			// "[1,2]": the comma ends the entry, space or not.
			l = l.advance(1).skipSpaces()
			if l.text == "" || l.text[0] == closer || l.text[0] == ',' {
				return nil, l, false
			}
		default:
			return nil, l, false
		}
	}
}

// flowPlainByte limits plain scalars inside [..] and {..} to the bytes of
// words, numbers, ids and times; anything fancier goes to the library.
func flowPlainByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '-' || c == '_' || c == '.' || c == '/' || c == '+' || c == ' ' || c == ':' || c >= 0x80
}
