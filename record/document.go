package record

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/adrg/frontmatter"
	"go.yaml.in/yaml/v3"
)

// Document is a record file kept as bytes, with its frontmatter parsed into
// a YAML node tree for reading. Edits splice the raw bytes, so everything an
// edit does not touch stays byte for byte.
type Document struct {
	raw       []byte
	dataStart int // offset of the YAML text between the --- lines
	dataEnd   int
	bodyStart int // offset just after the closing --- line
	firstLine int // 1-based line of raw at dataStart
	root      *yaml.Node
	nl        string
}

// ParseError is a problem that stops a file from being read as a record.
// Rule is the linter rule id it is reported under.
type ParseError struct {
	Rule      string
	Line, Col int
	Msg       string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("line %d:%d: %s", e.Line, e.Col, e.Msg)
}

// Rule ids of parse errors (see docs/lint-rules.md).
const (
	RuleFrontmatter  = "frontmatter"
	RuleEncoding     = "encoding"
	RuleYAMLSyntax   = "yaml-syntax"
	RuleDuplicateKey = "yaml-duplicate-key"
	RuleYAMLAlias    = "yaml-alias"
)

var bom = []byte("\xEF\xBB\xBF")

// Parse reads a record file. It never panics; a file that cannot be read as
// a record gives a *ParseError with the position of the problem.
func Parse(content []byte) (*Document, error) {
	return parseWith(content, fastParse)
}

// parseWith is Parse with the fast frontmatter reader as a parameter: nil
// leaves every frontmatter to the YAML library, which is how tests compare
// the two paths.
func parseWith(content []byte, fast func([]byte) (*yaml.Node, bool)) (*Document, error) {
	d := new(Document)
	if err := d.parse(content, fast); err != nil {
		return nil, err
	}
	return d, nil
}

// parse fills d (a zero Document) from content.
func (d *Document) parse(content []byte, fast func([]byte) (*yaml.Node, bool)) error {
	if err := checkEncoding(content); err != nil {
		return err
	}
	header, data, err := splitFrontmatter(content)
	if err != nil {
		return err
	}
	closing := lastLineStart(header)
	*d = Document{raw: content, bodyStart: len(header), nl: detectNewline(content)}
	d.dataEnd = closing
	d.dataStart = closing - len(data)
	if d.dataStart < 0 || !bytes.Equal(content[d.dataStart:d.dataEnd], data) {
		return &ParseError{Rule: RuleFrontmatter, Line: 1, Col: 1, Msg: "frontmatter could not be located"}
	}
	d.firstLine = bytes.Count(content[:d.dataStart], []byte("\n")) + 1
	return d.parseYAML(data, fast)
}

// splitFrontmatter returns the header (everything up to and including the
// closing --- line) and the YAML text inside it. The common shape — the
// file opens with a "---" line — is split here; anything else goes to
// adrg/frontmatter, whose rules (leading blank lines, delimiters with
// trailing white space) are the reference; FuzzSplitFrontmatter checks
// that both agree.
func splitFrontmatter(content []byte) (header, data []byte, err error) {
	if h, d, ok := quickSplit(content); ok {
		return h, d, nil
	}
	capture := frontmatter.NewFormat("---", "---", func(b []byte, _ any) error {
		data = b
		return nil
	})
	body, err := frontmatter.MustParse(bytes.NewReader(content), nil, capture)
	if err != nil {
		return nil, nil, frontmatterError(content, err)
	}
	return content[:len(content)-len(body)], data, nil
}

// quickSplit handles files whose first line is exactly "---" and whose
// frontmatter ends at a line that is exactly "---" (either with LF or CRLF).
func quickSplit(content []byte) (header, data []byte, ok bool) {
	var start int
	switch {
	case bytes.HasPrefix(content, []byte("---\n")):
		start = 4
	case bytes.HasPrefix(content, []byte("---\r\n")):
		start = 5
	default:
		return nil, nil, false
	}
	for off := start; off < len(content); {
		end := bytes.IndexByte(content[off:], '\n')
		next := len(content)
		line := content[off:]
		if end >= 0 {
			line, next = content[off:off+end], off+end+1
		}
		switch trimmed := bytes.TrimSpace(line); {
		case string(trimmed) == "---" && (len(line) == 3 || len(line) == 4 && line[3] == '\r'):
			return content[:next], content[start:off], true
		case string(trimmed) == "---":
			return nil, nil, false // a delimiter with odd white space: the reference decides
		}
		off = next
	}
	return nil, nil, false
}

func checkEncoding(content []byte) error {
	if len(content) == 0 {
		return &ParseError{Rule: RuleFrontmatter, Line: 1, Col: 1, Msg: "empty file; a record starts with a --- line, its frontmatter and a closing --- line"}
	}
	if bytes.HasPrefix(content, bom) {
		return &ParseError{Rule: RuleEncoding, Line: 1, Col: 1, Msg: "file starts with a byte-order mark; save it as UTF-8 without BOM"}
	}
	if utf8.Valid(content) {
		return nil
	}
	off := 0
	for off < len(content) {
		r, size := utf8.DecodeRune(content[off:])
		if r == utf8.RuneError && size <= 1 {
			break
		}
		off += size
	}
	line, col := position(content, off)
	return &ParseError{Rule: RuleEncoding, Line: line, Col: col, Msg: fmt.Sprintf("invalid UTF-8 (byte 0x%02x at offset %d); records must be UTF-8 text", content[off], off)}
}

func frontmatterError(content []byte, err error) error {
	if !errors.Is(err, frontmatter.ErrNotFound) {
		return &ParseError{Rule: RuleFrontmatter, Line: 1, Col: 1, Msg: err.Error()}
	}
	first := firstNonBlankLine(content)
	if string(bytes.TrimSpace(first)) == "---" {
		return &ParseError{Rule: RuleFrontmatter, Line: 1, Col: 1, Msg: "frontmatter is not closed: no second --- line"}
	}
	return &ParseError{Rule: RuleFrontmatter, Line: 1, Col: 1, Msg: "no frontmatter: a record starts with a --- line"}
}

func firstNonBlankLine(b []byte) []byte {
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		line := b
		if i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		if len(bytes.TrimSpace(line)) > 0 {
			return line
		}
	}
	return nil
}

// lastLineStart returns the offset where the last line of b starts, not
// counting a final newline.
func lastLineStart(b []byte) int {
	end := len(b)
	if end > 0 && b[end-1] == '\n' {
		end--
	}
	return bytes.LastIndexByte(b[:end], '\n') + 1
}

func detectNewline(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i > 0 && b[i-1] == '\r' {
		return "\r\n"
	}
	return "\n"
}

// position converts a byte offset into a 1-based line and column (columns
// count runes).
func position(b []byte, off int) (line, col int) {
	if off > len(b) {
		off = len(b)
	}
	line = bytes.Count(b[:off], []byte("\n")) + 1
	start := bytes.LastIndexByte(b[:off], '\n') + 1
	return line, utf8.RuneCount(b[start:off]) + 1
}

var yamlLineRe = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// oddBreak finds a line break YAML knows but line-based editing does not:
// a bare CR, NEL, LINE SEPARATOR or PARAGRAPH SEPARATOR.
func oddBreak(data []byte) int {
	for i := 0; i < len(data); i++ {
		switch {
		case data[i] == '\r' && (i+1 == len(data) || data[i+1] != '\n'):
			return i
		case data[i] == 0xC2 && i+1 < len(data) && data[i+1] == 0x85:
			return i
		case data[i] == 0xE2 && i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xA8 || data[i+2] == 0xA9):
			return i
		}
	}
	return -1
}

func (d *Document) parseYAML(data []byte, fast func([]byte) (*yaml.Node, bool)) error {
	if i := oddBreak(data); i >= 0 {
		line, col := position(d.raw, d.dataStart+i)
		return &ParseError{Rule: RuleEncoding, Line: line, Col: col, Msg: "frontmatter has a line break other than LF or CRLF (a bare CR or a Unicode line separator)"}
	}
	if fast != nil {
		if root, ok := fast(data); ok {
			d.root = root
			return d.checkTree(root)
		}
	}
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		line, msg := 1, err.Error()
		if m := yamlLineRe().FindStringSubmatch(msg); m != nil {
			line, _ = strconv.Atoi(m[1])
			msg = m[2]
		} else {
			msg = trimYAMLPrefix(msg)
		}
		return &ParseError{Rule: RuleYAMLSyntax, Line: d.firstLine + line - 1, Col: 1, Msg: "frontmatter is not valid YAML: " + msg}
	}
	switch {
	case n.Kind == 0:
		d.root = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		return nil
	case n.Kind == yaml.DocumentNode && len(n.Content) == 1 && n.Content[0].Kind == yaml.MappingNode:
		d.root = n.Content[0]
	default:
		return &ParseError{Rule: RuleYAMLSyntax, Line: d.firstLine, Col: 1, Msg: "frontmatter must be a mapping of keys to values"}
	}
	return d.checkTree(d.root)
}

func trimYAMLPrefix(s string) string {
	if len(s) > 6 && s[:6] == "yaml: " {
		return s[6:]
	}
	return s
}

// checkTree refuses anchors and aliases (records never need them, and they
// are how alias bombs are built) and duplicate keys at any depth.
func (d *Document) checkTree(n *yaml.Node) error {
	if n.Kind == yaml.AliasNode || n.Anchor != "" {
		return &ParseError{Rule: RuleYAMLAlias, Line: d.absLine(n.Line), Col: n.Column, Msg: "YAML anchors and aliases are not allowed in records; write the value out"}
	}
	if n.Kind == yaml.MappingNode {
		seen := make(map[string]bool, len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if k.Kind != yaml.ScalarNode {
				return &ParseError{Rule: RuleYAMLSyntax, Line: d.absLine(k.Line), Col: k.Column, Msg: "mapping keys must be plain strings"}
			}
			if seen[k.Value] {
				return &ParseError{Rule: RuleDuplicateKey, Line: d.absLine(k.Line), Col: k.Column, Msg: fmt.Sprintf("key %q appears more than once", k.Value)}
			}
			seen[k.Value] = true
		}
	}
	for _, c := range n.Content {
		if err := d.checkTree(c); err != nil {
			return err
		}
	}
	return nil
}

func (d *Document) absLine(rel int) int { return d.firstLine + rel - 1 }

// Bytes returns the file's bytes. The caller must not modify them.
func (d *Document) Bytes() []byte { return d.raw }

// Body returns the bytes after the closing --- line.
func (d *Document) Body() []byte { return d.raw[d.bodyStart:] }

// BodyLine is the 1-based line number where the body starts.
func (d *Document) BodyLine() int { return bytes.Count(d.raw[:d.bodyStart], []byte("\n")) + 1 }

// Newline is the document's line ending ("\n" or "\r\n").
func (d *Document) Newline() string { return d.nl }

// Keys lists the top-level frontmatter keys in file order.
func (d *Document) Keys() []string {
	keys := make([]string, 0, len(d.root.Content)/2)
	for i := 0; i+1 < len(d.root.Content); i += 2 {
		keys = append(keys, d.root.Content[i].Value)
	}
	return keys
}

// NumKeys is the number of top-level frontmatter keys.
func (d *Document) NumKeys() int { return len(d.root.Content) / 2 }

// KeyAt returns the i-th top-level key in file order (0 <= i < NumKeys)
// with its key and value nodes: Keys without a slice to allocate.
func (d *Document) KeyAt(i int) (key string, k, v *yaml.Node) {
	k, v = d.root.Content[2*i], d.root.Content[2*i+1]
	return k.Value, k, v
}

// Get returns the value node of a top-level key, or nil.
func (d *Document) Get(key string) *yaml.Node {
	if i := d.index(key); i >= 0 {
		return d.root.Content[i+1]
	}
	return nil
}

// Pos returns the absolute 1-based line and column of a node of this
// document's tree.
func (d *Document) Pos(n *yaml.Node) (line, col int) {
	if n == nil || n.Line == 0 {
		return d.firstLine, 1
	}
	return d.absLine(n.Line), n.Column
}

// KeyPos returns the position of a top-level key, or of the frontmatter's
// start when the key is absent.
func (d *Document) KeyPos(key string) (line, col int) {
	if i := d.index(key); i >= 0 {
		return d.Pos(d.root.Content[i])
	}
	return d.firstLine - 1, 1
}

func (d *Document) index(key string) int {
	for i := 0; i+1 < len(d.root.Content); i += 2 {
		if d.root.Content[i].Value == key {
			return i
		}
	}
	return -1
}
