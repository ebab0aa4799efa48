package config

import (
	"bytes"
	"fmt"
	"io"
	"strings"

	"github.com/go-git/gcfg/scanner"
	"github.com/go-git/gcfg/token"
	"github.com/yoimem/git-yoimem/internal/quote"
)

// OriginKind tells which layer a value comes from.
type OriginKind int

// The layers, from the weakest to the strongest.
const (
	Default OriginKind = iota // built-in default
	File                      // the committed .yoi/config
	Git                       // git config yoimem.*
	Flag                      // a command-line flag
)

// String returns "default", "file", "git" or "flag".
func (k OriginKind) String() string {
	switch k {
	case Default:
		return "default"
	case File:
		return "file"
	case Git:
		return "git"
	case Flag:
		return "flag"
	}
	return "unknown"
}

// Origin tells where a value comes from.
type Origin struct {
	Kind OriginKind
	// Detail is the file path for File; for Git the scope and origin as
	// git reports them, separated by a space ("local file:.git/config",
	// "command command line:"); the flag for Flag ("-c").
	Detail string
}

// String describes the origin for people: "default", ".yoi/config",
// "git config (local: .git/config)", "git config (command line)",
// "flag -c".
func (o Origin) String() string {
	switch o.Kind {
	case Default:
		return "default"
	case File:
		if o.Detail == "" {
			return "file"
		}
		return o.Detail
	case Git:
		if o.Detail == "" {
			return "git config"
		}
		scope, where, _ := strings.Cut(o.Detail, " ")
		if where == "command line:" {
			return "git config (command line)"
		}
		where = strings.TrimPrefix(where, "file:")
		if where == "" {
			return "git config (" + scope + ")"
		}
		return "git config (" + scope + ": " + where + ")"
	case Flag:
		if o.Detail == "" {
			return "flag"
		}
		return "flag " + o.Detail
	}
	return "unknown origin"
}

// Entry is one raw setting read from one layer.
type Entry struct {
	// Name is the key as written in the layer, e.g.
	// "yoimem.search.maxResults", or git's "yoimem.search.maxresults".
	Name  string
	Value string
	// NoValue is set when the key was written without "=": git's way of
	// saying true. It is an error for keys that are not of type Bool.
	NoValue bool
	Origin  Origin
	Line    int // 1-based line in the file; 0 when unknown
}

// where returns the origin with the line when there is one:
// ".yoi/config:3".
func (e Entry) where() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d", e.Origin, e.Line)
	}
	return e.Origin.String()
}

// MaxFileBytes is the most of a configuration file ParseFile reads: a
// .yoi/config is a few kilobytes, and a committed file must not make every
// command read gigabytes. A larger file is an error.
const MaxFileBytes = 1 << 20

// ParseFile parses r, a file in git-config syntax such as .yoi/config,
// and returns its yoimem.* settings in the order they appear. name is the
// path used in errors and in each Entry's Origin. Other sections are
// checked for syntax and ignored; include directives are not followed.
//
// The syntax is git's: comments start with # or ;, values may be quoted
// and use the escapes \\, \", \n, \t and \b, a backslash at the end of a
// line continues the value, a key without "=" is true, and the deprecated
// [section.subsection] header lowercases the subsection. A syntax error
// names the file and line: ".yoi/config:4: expected '=' after branch".
func ParseFile(r io.Reader, name string) ([]Entry, error) {
	src, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(src) > MaxFileBytes {
		return nil, fmt.Errorf("%s is more than %s bytes, the limit of a configuration file", name, quote.Thousands(MaxFileBytes))
	}
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf")) // git skips a UTF-8 BOM
	p := &fileParser{name: name}
	p.fset = token.NewFileSet()
	file := p.fset.AddFile(name, p.fset.Base(), len(src))
	p.s.Init(file, src, func(pos token.Position, msg string) {
		// "key value" without '=': the scanner only sees an odd character
		// after white space; say what it wants.
		if off := pos.Offset; strings.HasPrefix(msg, "illegal character") && off > 0 && off <= len(src) && (src[off-1] == ' ' || src[off-1] == '\t') {
			msg += " (expected key = value)"
		}
		p.errs = append(p.errs, scanErr{pos.Line, msg})
	}, 0)
	return p.parse()
}

type scanErr struct {
	line int
	msg  string
}

// fileParser mirrors the loop of gcfg's reader (which go-git's config
// Decoder calls), keeping what that Decoder drops: line numbers and whether
// a key had a value at all. It also follows git where gcfg does not:
// continuation lines, whitespace inside values, a key on the line of its
// section header and the deprecated [section.subsection] header.
type fileParser struct {
	name string
	fset *token.FileSet
	s    scanner.Scanner
	errs []scanErr

	pos token.Pos
	tok token.Token
	lit string
}

// next scans the next token and reports the first syntax error so far.
func (p *fileParser) next() error {
	p.scan()
	return p.check()
}

func (p *fileParser) scan() {
	p.pos, p.tok, p.lit = p.s.Scan()
}

func (p *fileParser) check() error {
	if len(p.errs) > 0 {
		e := p.errs[0]
		return fmt.Errorf("%s:%d: %s", p.name, e.line, e.msg)
	}
	return nil
}

func (p *fileParser) fail(msg string) error {
	return fmt.Errorf("%s:%d: %s", p.name, p.fset.Position(p.pos).Line, msg)
}

func (p *fileParser) parse() (entries []Entry, err error) {
	defer func() {
		// gcfg's scanner is not meant to panic; should it, report a
		// syntax error rather than crash the command.
		if r := recover(); r != nil {
			entries, err = nil, fmt.Errorf("%s: cannot parse: %v", p.name, r)
		}
	}()
	var section, subsection string
	inSection := false
	if err := p.next(); err != nil {
		return nil, err
	}
	for {
		switch p.tok {
		case token.EOF:
			return entries, nil
		case token.EOL:
			if err := p.next(); err != nil {
				return nil, err
			}
		case token.LBRACK:
			if section, subsection, err = p.header(); err != nil {
				return nil, err
			}
			inSection = true
			// git allows a key on the line of the header.
			if p.tok != token.EOL && p.tok != token.EOF && p.tok != token.IDENT {
				return nil, p.fail("expected end of line after section header")
			}
		case token.IDENT:
			if !inSection {
				return nil, p.fail("expected section header before " + quote.Short(p.lit))
			}
			e, err := p.variable()
			if err != nil {
				return nil, err
			}
			if strings.EqualFold(section, "yoimem") {
				prefix := "yoimem."
				if subsection != "" {
					prefix += subsection + "."
				}
				e.Name = prefix + e.Name
				entries = append(entries, e)
			}
		default:
			return nil, p.fail("expected section header or key")
		}
	}
}

// header parses "[section]", "[section "subsection"]" or the deprecated
// "[section.subsection]" and leaves the token after "]" current.
func (p *fileParser) header() (section, subsection string, err error) {
	if err := p.next(); err != nil {
		return "", "", err
	}
	if p.tok != token.IDENT {
		return "", "", p.fail("expected section name")
	}
	section = p.lit
	p.scan()
	if p.isDot() {
		// The scanner calls '.' illegal; git accepts [section.sub] and
		// lowercases the subsection.
		var parts []string
		for p.isDot() {
			p.errs = p.errs[:len(p.errs)-1]
			if err := p.next(); err != nil {
				return "", "", err
			}
			if p.tok != token.IDENT {
				return "", "", p.fail("expected subsection name after '.'")
			}
			parts = append(parts, p.lit)
			p.scan()
		}
		subsection = strings.ToLower(strings.Join(parts, "."))
	}
	if err := p.check(); err != nil {
		return "", "", err
	}
	if p.tok == token.STRING && subsection == "" {
		subsection = unquoteSubsection(p.lit)
		if subsection == "" {
			return "", "", p.fail("empty subsection name")
		}
		if err := p.next(); err != nil {
			return "", "", err
		}
	}
	if p.tok != token.RBRACK {
		return "", "", p.fail("expected ']'")
	}
	if err := p.next(); err != nil {
		return "", "", err
	}
	return section, subsection, nil
}

// isDot reports whether the current token is a '.' that the scanner has
// just reported as illegal (and nothing else went wrong).
func (p *fileParser) isDot() bool {
	return p.tok == token.ILLEGAL && p.lit == "." && len(p.errs) == 1
}

// variable parses "key", "key =" or "key = value" and leaves the token
// after it current. The returned Entry's Name is the bare key.
func (p *fileParser) variable() (Entry, error) {
	e := Entry{
		Name:   p.lit,
		Origin: Origin{Kind: File, Detail: p.name},
		Line:   p.fset.Position(p.pos).Line,
	}
	if err := p.next(); err != nil {
		return Entry{}, err
	}
	switch p.tok {
	case token.EOL, token.EOF:
		e.NoValue = true
		return e, nil
	case token.ASSIGN:
	default:
		return Entry{}, p.fail("expected '=' after " + quote.Short(e.Name))
	}
	if err := p.next(); err != nil {
		return Entry{}, err
	}
	if p.tok != token.STRING {
		return Entry{}, p.fail("expected value")
	}
	e.Value = unquoteValue(p.lit)
	if err := p.next(); err != nil {
		return Entry{}, err
	}
	if p.tok != token.EOL && p.tok != token.EOF {
		return Entry{}, p.fail("expected end of line after value")
	}
	return e, nil
}

// unquoteValue turns the raw text of a value into the value, as git's
// parse_value does: whitespace outside quotes becomes one space per
// character and is dropped at the ends, quotes are removed, escapes are
// replaced and a backslash-newline joins the lines. The scanner has already
// cut the comment, rejected unknown escapes and unterminated quotes, and
// dropped carriage returns.
func unquoteValue(lit string) string {
	var b strings.Builder
	quote := false
	space := 0
	for i := 0; i < len(lit); i++ {
		c := lit[i]
		if !quote && (c == ' ' || c == '\t' || c == '\v' || c == '\f') {
			if b.Len() > 0 {
				space++
			}
			continue
		}
		for ; space > 0; space-- {
			b.WriteByte(' ')
		}
		switch c {
		case '\\':
			i++
			if i == len(lit) {
				return b.String()
			}
			switch c = lit[i]; c {
			case '\n':
				continue
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'n':
				c = '\n'
			}
		case '"':
			quote = !quote
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// unquoteSubsection removes the quotes of a subsection name and its
// escapes (\" and \\, the only ones the scanner accepts there).
func unquoteSubsection(lit string) string {
	lit = strings.TrimPrefix(lit, `"`)
	lit = strings.TrimSuffix(lit, `"`)
	var b strings.Builder
	for i := 0; i < len(lit); i++ {
		if lit[i] == '\\' && i+1 < len(lit) {
			i++
		}
		b.WriteByte(lit[i])
	}
	return b.String()
}

// ParseFlag parses the argument of a -c flag: "yoimem.search.maxResults=5".
// A key without "=" is git's way of saying true; "key=" is the empty value.
// The key must be a yoimem.* name; whether it is known and whether the
// value fits its type is checked by [Resolve].
func ParseFlag(s string) (Entry, error) {
	name, value, hasValue := strings.Cut(s, "=")
	if err := checkName(name); err != nil {
		return Entry{}, fmt.Errorf("flag -c %s: %w", quote.Value(s), err)
	}
	return Entry{
		Name:    name,
		Value:   value,
		NoValue: !hasValue,
		Origin:  Origin{Kind: Flag, Detail: "-c"},
	}, nil
}

// checkName checks that name is a well-formed yoimem.* key name: a
// section, an optional subsection and a key that starts with a letter and
// has only letters, digits and '-'.
func checkName(name string) error {
	if name == "" {
		return fmt.Errorf("missing key name")
	}
	sec, _, key, ok := splitName(name)
	if !ok {
		return fmt.Errorf("%s is not a key name of the form yoimem.<section>.<key>", quote.Value(name))
	}
	if !strings.EqualFold(sec, "yoimem") {
		return fmt.Errorf("%s is not a git yoimem setting (they start with \"yoimem.\")", quote.Value(name))
	}
	for i, c := range key {
		letter := 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
		if !letter && (i == 0 || !('0' <= c && c <= '9' || c == '-')) {
			return fmt.Errorf("%s is not a valid key name", quote.Value(name))
		}
	}
	return nil
}
