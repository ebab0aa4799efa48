package record

import (
	"strings"

	"go.yaml.in/yaml/v3"
)

// blockScalar reads a literal (|, |-) or folded (>, >-) scalar whose
// header is h, in a mapping at indent. Keep chomping (+), indentation
// indicators, a comment on the header, white-space lines longer than the
// indentation and more-indented lines of a folded scalar are the
// library's.
func (p *fastParser) blockScalar(h fline, indent int) (*yaml.Node, bool) {
	style, strip := yaml.LiteralStyle, false
	if h.text[0] == '>' {
		style = yaml.FoldedStyle
	}
	switch hdr := strings.TrimRight(h.text[1:], " "); hdr {
	case "":
	case "-":
		strip = true
	default:
		return nil, false
	}
	p.i++
	n := -1 // the block's indentation, set by its first non-empty line
	lines := p.block[:0]
	defer func() { p.block = lines[:0] }()
	end := p.i
	for ; end < len(p.lines); end++ {
		t := p.lines[end].text
		if isBlank(t) {
			if n >= 0 && len(t) > n || n < 0 && len(t) > indent+1 {
				return nil, false
			}
			lines = append(lines, "")
			continue
		}
		d := indentOf(t)
		if n < 0 {
			if d <= indent {
				return nil, false // an empty block scalar: rare, the library's
			}
			for _, e := range lines {
				if len(e) > d {
					return nil, false
				}
			}
			n = d
		}
		if d < n {
			break
		}
		if style == yaml.FoldedStyle && d > n {
			return nil, false
		}
		lines = append(lines, t[n:])
	}
	if n < 0 {
		return nil, false
	}
	// Trailing empty lines belong to no one but chomping.
	content := len(lines)
	for content > 0 && lines[content-1] == "" {
		content--
	}
	p.i = end
	b := joinBlock(p.scratch[:0], lines[:content], style == yaml.FoldedStyle)
	if !strip && (end < len(p.lines) || !p.openEnd || content < len(lines)) {
		b = append(b, '\n') // clip keeps the last line's break, if it has one
	}
	p.scratch = b[:0]
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Style: style, Tag: "!!str", Value: p.arena.str(b), Line: h.line, Column: h.col}), true
}

// joinBlock appends a block scalar's lines (without their indentation) to
// b, joined: a literal keeps every break; a folded scalar turns the break
// between two lines into a space, or drops it when empty lines follow it,
// whose breaks it keeps.
func joinBlock(b []byte, lines []string, folded bool) []byte {
	seen := false // a non-empty line came before
	for i, l := range lines {
		if i > 0 {
			switch {
			case !folded, l == "", !seen:
				b = append(b, '\n')
			case lines[i-1] != "":
				b = append(b, ' ')
			}
		}
		seen = seen || l != ""
		b = append(b, l...)
	}
	return b
}
