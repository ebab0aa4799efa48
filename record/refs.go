package record

import (
	"bytes"
	"unicode/utf8"
)

// Ref is a #slug reference to a knowledge record found in a body.
type Ref struct {
	Slug      string
	Line, Col int // 1-based, relative to the text scanned; Col counts runes
	Offset    int // byte offset of the '#'
}

// Refs finds #slug references in Markdown. Headings ("# Title"), code spans,
// fenced and indented code blocks, URL fragments (page#anchor, ](#anchor))
// and issue numbers (#42) are not references. A slug needs a letter.
func Refs(text []byte) []Ref {
	if !mayHoldRef(text) {
		return nil
	}
	return refsScan(text)
}

// mayHoldRef reports whether text has a '#' followed by a slug byte, which
// every reference starts with. Most bodies have headings and no
// reference: one IndexByte pass then spares the line-by-line scan.
func mayHoldRef(text []byte) bool {
	for i := 0; ; i++ {
		j := bytes.IndexByte(text[i:], '#')
		if j < 0 {
			return false
		}
		i += j
		if i+1 < len(text) && isSlugByte(text[i+1]) {
			return true
		}
	}
}

// refsScan is Refs without the prefilter.
func refsScan(text []byte) []Ref {
	var refs []Ref
	var fence []byte  // the opening fence while inside a fenced block
	blank := true     // the previous line was blank (or the text starts)
	indented := false // inside an indented code block
	listy := false    // the paragraph before was a list item: indent continues it
	line := 1
	for start := 0; start < len(text); line++ {
		end := bytes.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		l := text[start:end]
		isBlank := len(bytes.TrimSpace(l)) == 0
		if !isBlank && fence == nil {
			code := isIndentedCode(l)
			switch {
			case code && (indented || blank && !listy):
				indented = true
			case !code:
				indented = false
				listy = isListItem(l) || (listy && !blank)
			}
		}
		blank = isBlank
		switch f := fenceOf(l); {
		case indented:
		case fence != nil:
			if f != nil && bytes.HasPrefix(f, fence[:1]) && len(f) >= len(fence) && len(bytes.TrimSpace(bytes.TrimLeft(bytes.TrimSpace(l), string(fence[:1])))) == 0 {
				fence = nil
			}
		case f != nil:
			fence = f
		case bytes.IndexByte(l, '#') >= 0:
			refs = lineRefs(refs, l, start, line)
		}
		start = end + 1
	}
	return refs
}

// isIndentedCode: four spaces or a tab open an indented code line.
func isIndentedCode(l []byte) bool {
	return bytes.HasPrefix(l, []byte("    ")) || bytes.HasPrefix(l, []byte("\t"))
}

// isListItem: "- ", "* ", "+ " or "1. " after up to three spaces.
func isListItem(l []byte) bool {
	t := bytes.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || len(t) < 2 {
		return false
	}
	if (t[0] == '-' || t[0] == '*' || t[0] == '+') && t[1] == ' ' {
		return true
	}
	i := 0
	for i < len(t) && t[i] >= '0' && t[i] <= '9' {
		i++
	}
	return i > 0 && i+1 < len(t) && (t[i] == '.' || t[i] == ')') && t[i+1] == ' '
}

// fenceOf returns the fence marker (``` or ~~~, possibly longer) when the
// line opens or closes a fenced code block.
func fenceOf(l []byte) []byte {
	t := bytes.TrimLeft(l, " ")
	if len(l)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return nil
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 {
		return nil
	}
	return t[:n]
}

func lineRefs(refs []Ref, l []byte, base, line int) []Ref {
	inCode := 0 // length of the backtick run that opened a code span
	for i := 0; i < len(l); i++ {
		c := l[i]
		if c == '`' {
			n := 1
			for i+n < len(l) && l[i+n] == '`' {
				n++
			}
			switch {
			case inCode == 0:
				inCode = n
			case inCode == n:
				inCode = 0
			}
			i += n - 1
			continue
		}
		if c != '#' || inCode != 0 || !refBoundary(l, i) {
			continue
		}
		j := i + 1
		for j < len(l) && isSlugByte(l[j]) {
			j++
		}
		for j > i+1 && l[j-1] == '-' {
			j--
		}
		slug := l[i+1 : j]
		if len(slug) == 0 || !hasLetter(slug) || (j < len(l) && continuesWord(l[j])) {
			continue
		}
		refs = append(refs, Ref{Slug: string(slug), Line: line, Col: utf8.RuneCount(l[:i]) + 1, Offset: base + i})
		i = j - 1
	}
	return refs
}

// refBoundary: a reference starts a line or follows white space or an
// opening bracket or quote; "](#" is a link fragment.
func refBoundary(l []byte, i int) bool {
	if i == 0 {
		return true
	}
	switch l[i-1] {
	case ' ', '\t', '[', '"', '\'', ',', ';', '*', '_':
		return true
	case '(':
		return i < 2 || l[i-2] != ']'
	}
	return false
}

func isSlugByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' }

// continuesWord rejects #Foo, #foo_bar, #foo/bar and #föo, which are not
// slugs. A period ends the slug, so "#foo." at the end of a sentence (and
// "#foo.bar") refer to foo.
func continuesWord(c byte) bool {
	return c >= 'A' && c <= 'Z' || c == '_' || c == '/' || c >= 0x80
}

func hasLetter(b []byte) bool {
	for _, c := range b {
		if c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}
