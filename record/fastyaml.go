package record

import (
	"bytes"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"go.yaml.in/yaml/v3"
)

// fastParse builds the node tree of the frontmatter shapes records use
// without the general YAML parser, which dominates lint time. It reads
// block mappings and sequences (sources as "- session_id: …" items, range
// as a nested list, unknown keys in any order); plain scalars over one or
// more lines; single- and double-quoted strings with escapes and line
// folding; one-line flow collections; literal and folded block scalars
// with clip or strip chomping; full-line comments at column 1 before,
// between and after top-level keys (head and foot comments) and trailing
// comments; CRLF. Anything else (anchors, tags, complex or quoted keys,
// flow collections over lines, duplicate keys, tabs, document markers,
// keep chomping, comments in other places or in a CRLF file) returns
// ok=false and the caller uses the YAML library. For inputs it accepts,
// the tree — comments and positions included — equals the library's
// (FuzzFastYAML, TestBenchCorpusFallbacks).
func fastParse(data []byte) (root *yaml.Node, ok bool) {
	var p fastParser
	return p.parse(data, string(data))
}

// parse is fastParse with the parser's memory (its arena, lines and
// stack) kept for the next call; text is data as a string, which the
// tree's strings share.
func (p *fastParser) parse(data []byte, text string) (root *yaml.Node, ok bool) {
	if !printable(data) {
		return nil, false
	}
	p.arena.reset()
	p.lines = splitLines(p.lines[:0], text)
	p.stack, p.slab, p.i = p.stack[:0], nil, 0
	p.openEnd = len(data) > 0 && data[len(data)-1] != '\n'
	if crlfComment(data, p.lines) {
		return nil, false
	}
	head, ok := p.headComment(true)
	if !ok || p.i == len(p.lines) || indentOf(p.lines[p.i].text) != 0 {
		return nil, false
	}
	root, ok = p.mapping(p.lines[p.i], 0, head)
	if !ok || p.i != len(p.lines) {
		return nil, false
	}
	return root, true
}

// crlfComment reports whether data has CRLF line breaks and a line that
// starts with a comment: the library groups full-line comments otherwise
// than with LF breaks (a group may end up split between the keys around
// it), so those files are the library's.
func crlfComment(data []byte, lines []fline) bool {
	if !bytes.Contains(data, []byte("\r\n")) {
		return false
	}
	for _, l := range lines {
		if isComment(l.text) {
			return true
		}
	}
	return false
}

// printable reports whether data holds only characters YAML accepts in a
// stream (plus LF and CR; a tab is the library's to judge); anything else
// is the library's to report.
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

// fastParser reads lines in order; i is the first line not yet read. It
// hands out nodes from slabs: one allocation for many nodes keeps the
// garbage of linting 10,000 files small, and none at all when an arena
// (a Decoder's) gives its slabs again for every file.
type fastParser struct {
	arena   *nodeArena // nil: new slabs for every parse
	slab    []yaml.Node
	stack   []*yaml.Node // children of the collections being read
	lines   []fline
	scratch []byte   // a value being built (quoted, folded, over lines)
	block   []string // a block scalar's lines
	i       int
	openEnd bool // the last line has no line break
}

func (p *fastParser) node(n yaml.Node) *yaml.Node {
	if len(p.slab) == cap(p.slab) {
		p.slab = p.arena.slab()
	}
	p.slab = append(p.slab, n)
	return &p.slab[len(p.slab)-1]
}

// content ends a collection whose children were pushed on the stack from
// base: it returns them as a Content slice (nil for none) and pops them.
// Collections nest, so the stack holds the children of every collection
// still open, innermost last.
func (p *fastParser) content(base int) []*yaml.Node {
	kids := p.stack[base:]
	if len(kids) == 0 {
		return nil
	}
	out := p.arena.ptrs(len(kids))
	copy(out, kids)
	clear(kids) // no stale pointers kept in the stack's spare room
	p.stack = p.stack[:base]
	return out
}

// nodeArena is the node memory of a Decoder: the slabs, Content slices
// and built strings it handed out for one file are handed out again for
// the next. A nil arena allocates anew each time.
type nodeArena struct {
	slabs   [][]yaml.Node
	next    int // slabs[next:] are free
	ptrBuf  []*yaml.Node
	ptrUsed int
	text    []byte // the bytes of built strings
}

const slabNodes = 16

// reset makes all the arena's memory free again: the trees it built
// before must no longer be used.
func (a *nodeArena) reset() {
	if a != nil {
		a.next, a.ptrUsed, a.text = 0, 0, a.text[:0]
	}
}

func (a *nodeArena) slab() []yaml.Node {
	if a == nil {
		return make([]yaml.Node, 0, slabNodes)
	}
	if a.next == len(a.slabs) {
		a.slabs = append(a.slabs, make([]yaml.Node, 0, 4*slabNodes))
	}
	s := a.slabs[a.next][:0]
	a.next++
	return s
}

// str returns b as a string: a copy in the arena's memory, which the
// next reset hands out again.
func (a *nodeArena) str(b []byte) string {
	if a == nil {
		return string(b)
	}
	if len(b) == 0 {
		return ""
	}
	if cap(a.text)-len(a.text) < len(b) {
		// Strings already given keep the old memory; the arena the new.
		a.text = make([]byte, 0, max(4096, 2*cap(a.text), len(b)))
	}
	start := len(a.text)
	a.text = append(a.text, b...)
	return unsafe.String(&a.text[start], len(b))
}

// ptrs returns a slice of n pointers whose capacity is n, so that an
// append to a Content slice (an edit) never writes over its neighbour's.
func (a *nodeArena) ptrs(n int) []*yaml.Node {
	if a == nil {
		return make([]*yaml.Node, n)
	}
	if len(a.ptrBuf)-a.ptrUsed < n {
		// The old buffer stays with the tree that uses it; the arena keeps
		// the new, larger one.
		a.ptrBuf, a.ptrUsed = make([]*yaml.Node, max(256, 2*len(a.ptrBuf), n)), 0
	}
	s := a.ptrBuf[a.ptrUsed : a.ptrUsed+n : a.ptrUsed+n]
	a.ptrUsed += n
	return s
}

type fline struct {
	text string // without the line break
	line int    // 1-based
	col  int    // 1-based column (in characters) of text[0]
}

// splitLines cuts text into lines, appended to out; they share text's
// memory.
func splitLines(out []fline, text string) []fline {
	out = slices.Grow(out, strings.Count(text, "\n")+1)
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

// indentOf counts the spaces a line starts with.
func indentOf(s string) int {
	n := 0
	for n < len(s) && s[n] == ' ' {
		n++
	}
	return n
}

// advance returns the part of l after n bytes, with its column.
func (l fline) advance(n int) fline {
	return fline{text: l.text[n:], line: l.line, col: l.col + utf8.RuneCountInString(l.text[:n])}
}

func (l fline) skipSpaces() fline { return l.advance(indentOf(l.text)) }

// peek returns the index of the next line that is not blank, or
// len(p.lines).
func (p *fastParser) peek() int {
	j := p.i
	for j < len(p.lines) && isBlank(p.lines[j].text) {
		j++
	}
	return j
}

func isComment(s string) bool { return strings.HasPrefix(strings.TrimLeft(s, " "), "#") }

// headComment reads full-line comments at column 1 that stand right
// before a top-level key: the library makes them the key's head comment.
// Comments elsewhere (after a blank line at the start, where the library
// keeps them on the document; before the end, a foot comment; indented)
// are refused.
func (p *fastParser) headComment(atStart bool) (string, bool) {
	j := p.peek()
	if j == len(p.lines) || !isComment(p.lines[j].text) {
		return "", true
	}
	if atStart && j != p.i {
		return "", false
	}
	start := j
	for j < len(p.lines) && strings.HasPrefix(p.lines[j].text, "#") {
		j++
	}
	if j == len(p.lines) || isBlank(p.lines[j].text) || indentOf(p.lines[j].text) != 0 || isComment(p.lines[j].text) {
		return "", false
	}
	texts := make([]string, 0, j-start)
	for _, l := range p.lines[start:j] {
		texts = append(texts, l.text)
	}
	p.i = j
	return strings.Join(texts, "\n"), true
}

// topComments reads the comment lines after a top-level value. A group
// at column 1 right after the value, followed by the end or by a blank
// line, is the key's foot comment, as the library makes it, or the last
// item's when the value is a sequence at column 1 (unless that item is a
// block mapping: the library's). After a value with a line comment on its
// key's line only a group at the end is taken, the key's foot; after a
// first value on its key's line other than a plain scalar the library's
// placing varies (the document's or the key's). What follows is a head
// comment for the next key, if any.
func (p *fastParser) topComments(key, val *yaml.Node, first bool) (string, bool) {
	j := p.peek()
	if j == len(p.lines) || !strings.HasPrefix(p.lines[j].text, "#") || isBlank(p.lines[j-1].text) {
		return p.headComment(false)
	}
	k := j
	for k < len(p.lines) && strings.HasPrefix(p.lines[k].text, "#") {
		k++
	}
	if k < len(p.lines) && !isBlank(p.lines[k].text) {
		return p.headComment(false) // the next key's head comment
	}
	if k == len(p.lines) && p.openEnd {
		return "", false // the library drops a last comment with no line break
	}
	owner := key
	if val.Kind == yaml.SequenceNode && val.Column == 1 {
		// Items at column 1: the library gives the group to the last
		// item when it is a scalar or a flow collection.
		last := val.Content[len(val.Content)-1]
		if last.Kind != yaml.ScalarNode && last.Style&yaml.FlowStyle == 0 {
			return "", false
		}
		owner, val = last, last
	}
	onKeyLine := p.lines[j-1].line == key.Line
	plain := val.Kind == yaml.ScalarNode && val.Style == 0 && val.LineComment == ""
	switch {
	case owner == key && first && onKeyLine && !plain:
		// After a first value that is quoted, a flow collection or
		// commented on its line, the library may give the group to the
		// document node or to the key, depending on a head comment.
		return "", false
	case val.LineComment != "" && (owner != key || !onKeyLine || !p.onlyBlanks(k)):
		return "", false
	}
	texts := make([]string, 0, k-j)
	for _, l := range p.lines[j:k] {
		texts = append(texts, l.text)
	}
	owner.FootComment = strings.Join(texts, "\n")
	p.i = k
	if n := p.peek(); n < len(p.lines) && isComment(p.lines[n].text) {
		// Another group after a blank line heads the next key only when
		// the key follows it directly; headComment refuses anything else.
		p.i = n
		return p.headComment(false)
	}
	return "", true
}

// onlyBlanks reports whether the lines from k on are all blank.
func (p *fastParser) onlyBlanks(k int) bool {
	for ; k < len(p.lines); k++ {
		if !isBlank(p.lines[k].text) {
			return false
		}
	}
	return true
}

func isKeyByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-'
}

// keyLen returns the length of a plain-word key at the start of s that
// is followed by ':' and a space or the line's end, or 0.
func keyLen(s string) int {
	n := 0
	for n < len(s) && isKeyByte(s[n]) {
		n++
	}
	// YAML limits implicit keys to 1024 characters; ours are short.
	if n == 0 || n > 128 || n == len(s) || s[n] != ':' || !startsPlain(s[0]) {
		return 0
	}
	if n+1 < len(s) && s[n+1] != ' ' {
		return 0
	}
	return n
}

// mapping reads a block mapping whose first key starts first (a line or
// the rest of a "- " item line, p.i being its line) at column indent+1.
func (p *fastParser) mapping(first fline, indent int, head string) (*yaml.Node, bool) {
	m := p.node(yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Line: first.line, Column: first.col})
	base := len(p.stack)
	if !p.entries(first, indent, head, base) {
		return nil, false
	}
	m.Content = p.content(base)
	return m, true
}

// entries reads the keys and values of a mapping onto the stack, which
// holds the mapping's from base.
func (p *fastParser) entries(l fline, indent int, head string, base int) bool {
	for {
		n := keyLen(l.text)
		if n == 0 {
			return false
		}
		k := l.text[:n]
		for i := base; i < len(p.stack); i += 2 {
			if p.stack[i].Value == k {
				return false // a duplicate: the library's tree, checkTree's finding
			}
		}
		key := p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: resolveTag(k), Value: k, Line: l.line, Column: l.col, HeadComment: head})
		val, ok := p.value(l.advance(n+1), indent)
		if !ok {
			return false
		}
		p.stack = append(p.stack, key, val)
		if indent == 0 {
			if head, ok = p.topComments(key, val, len(p.stack)-base == 2); !ok {
				return false
			}
		}
		j := p.peek()
		if j == len(p.lines) {
			p.i = j
			return true
		}
		next := p.lines[j]
		switch d := indentOf(next.text); {
		case d < indent:
			return true
		case d == indent && !strings.HasPrefix(next.text[d:], "-") && !isComment(next.text):
			p.i = j
			l = next.advance(d)
		default:
			return false
		}
	}
}

// value reads what follows "key:" (after, on the key's line) in a mapping
// at indent.
func (p *fastParser) value(after fline, indent int) (*yaml.Node, bool) {
	rest := after.skipSpaces()
	switch {
	case rest.text == "" && after.text == "":
		return p.blockValue(after, indent)
	case rest.text == "":
		return nil, false // "key:" with trailing spaces: rare, the library's
	case after.text[0] != ' ':
		return nil, false
	case rest.text[0] == '|' || rest.text[0] == '>':
		return p.blockScalar(rest, indent)
	}
	return p.inline(rest, indent)
}

// blockValue reads the value of a "key:" line: a sequence or mapping on
// the lines below, or null.
func (p *fastParser) blockValue(after fline, indent int) (*yaml.Node, bool) {
	p.i++
	j := p.peek()
	if j == len(p.lines) {
		return p.null(after), true
	}
	next := p.lines[j]
	d := indentOf(next.text)
	switch {
	case isComment(next.text):
		return nil, false
	case (d > indent || d == indent) && strings.HasPrefix(next.text[d:], "- "):
		p.i = j
		return p.sequence(d)
	case d > indent:
		p.i = j
		return p.mapping(next.advance(d), d, "")
	}
	return p.null(after), true
}

func (p *fastParser) null(at fline) *yaml.Node {
	return p.node(yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Line: at.line, Column: at.col})
}

// sequence reads "- item" lines at indent d, p.i at the first.
func (p *fastParser) sequence(d int) (*yaml.Node, bool) {
	first := p.lines[p.i]
	seq := p.node(yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Line: first.line, Column: first.col + d})
	base := len(p.stack)
	if !p.items(d) {
		return nil, false
	}
	seq.Content = p.content(base)
	return seq, true
}

// items reads the items of a sequence at indent d onto the stack.
func (p *fastParser) items(d int) bool {
	for {
		l := p.lines[p.i]
		if !strings.HasPrefix(l.text[d:], "- ") {
			return false
		}
		item := l.advance(d + 2).skipSpaces()
		var (
			v  *yaml.Node
			ok bool
		)
		switch {
		case item.text == "" || item.text[0] == '-' || item.text[0] == '|' || item.text[0] == '>':
			return false
		case keyLen(item.text) > 0:
			v, ok = p.mapping(item, item.col-1, "")
		default:
			v, ok = p.inline(item, d)
		}
		if !ok {
			return false
		}
		p.stack = append(p.stack, v)
		j := p.peek()
		if j == len(p.lines) {
			p.i = j
			return true
		}
		next := p.lines[j]
		switch nd := indentOf(next.text); {
		case nd == d && strings.HasPrefix(next.text[nd:], "- "):
			p.i = j
		case nd < d || nd == d && !strings.HasPrefix(next.text[nd:], "-") && !isComment(next.text):
			return true
		case d == 0 && j == p.i && strings.HasPrefix(next.text, "#"):
			return true // the top-level mapping places the comment
		default:
			return false
		}
	}
}

// startsPlain: the first byte may start a plain scalar ('-', '?' and ':'
// may too when a non-space follows; we simply refuse those).
func startsPlain(c byte) bool {
	switch c {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`', ' ', '\t':
		return false
	}
	return c >= 0x20
}
