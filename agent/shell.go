package agent

import "strings"

// A shell command line read well enough to see where it writes: the
// simple commands with their words (quotes removed, expansions left as
// written), the files their redirections write, the pipelines they are
// in, and the text of command substitutions to read in turn. Here-
// document bodies are input, not commands, and are skipped.

// simple is one simple command.
type simple struct {
	words  []string
	writes []string // targets of redirections that write a file
	pipe   int      // commands joined by | share it
}

// script is a parsed command line.
type script struct {
	cmds []simple
	subs []string // $(…) and `…` bodies
}

type lexer struct {
	s        string
	i        int
	subs     []string
	heredocs []heredoc // delimiters waiting for the next newline
}

type heredoc struct{ delim string }

// token kinds
const (
	tWord = iota
	tOp   // ; & && | || |& ( ) newline
	tRedir
)

type token struct {
	kind int
	text string // the word, the operator, or the redirection operator
}

func parseShell(s string) script {
	lx := &lexer{s: s}
	toks := lx.tokens()
	sc := script{subs: lx.subs}
	cur := simple{}
	pipe := 0
	flush := func() {
		if len(cur.words) > 0 || len(cur.writes) > 0 {
			sc.cmds = append(sc.cmds, cur)
		}
		cur = simple{pipe: pipe}
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		switch t.kind {
		case tWord:
			cur.words = append(cur.words, t.text)
		case tOp:
			flush()
			if t.text != "|" && t.text != "|&" {
				pipe++
			}
			cur.pipe = pipe
		case tRedir:
			if i+1 >= len(toks) || toks[i+1].kind != tWord {
				continue
			}
			i++
			if writesFile(t.text, toks[i].text) {
				cur.writes = append(cur.writes, toks[i].text)
			}
		}
	}
	flush()
	return sc
}

// writesFile tells whether a redirection op with target word writes a file.
func writesFile(op, target string) bool {
	switch op {
	case ">", ">>", ">|", "&>", "&>>", "<>":
		return true
	case ">&":
		return !isFD(target) // >&file is &>file; >&2 duplicates
	}
	return false
}

func isFD(s string) bool {
	if s == "-" {
		return true
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return s != ""
}

func (lx *lexer) tokens() []token {
	var toks []token
	for lx.i < len(lx.s) {
		c := lx.s[lx.i]
		switch {
		case c == ' ' || c == '\t' || c == '\r':
			lx.i++
		case c == '#':
			for lx.i < len(lx.s) && lx.s[lx.i] != '\n' {
				lx.i++
			}
		case c == '\n':
			lx.i++
			toks = append(toks, token{tOp, "\n"})
			lx.skipHeredocs()
		case c == '\\' && lx.i+1 < len(lx.s) && lx.s[lx.i+1] == '\n':
			lx.i += 2 // a line continuation
		default:
			if op := lx.redirOp(); op != "" {
				toks = append(toks, token{tRedir, op})
				if op == "<<" || op == "<<-" {
					if w, ok := lx.word(); ok {
						lx.heredocs = append(lx.heredocs, heredoc{w})
					}
				}
				continue
			}
			if op := lx.op(); op != "" {
				toks = append(toks, token{tOp, op})
				continue
			}
			if w, ok := lx.word(); ok {
				toks = append(toks, token{tWord, w})
			} else {
				lx.i++ // a lone metacharacter the cases above do not take
			}
		}
	}
	return toks
}

// redirOp reads a redirection operator, with the file descriptor number
// before it, when one starts here.
func (lx *lexer) redirOp() string {
	j := lx.i
	for j < len(lx.s) && lx.s[j] >= '0' && lx.s[j] <= '9' {
		j++
	}
	rest := lx.s[j:]
	for _, op := range []string{"&>>", "<<<", "<<-", ">>", ">|", "&>", "<<", "<>", ">&", "<&", ">", "<"} {
		if strings.HasPrefix(rest, op) {
			if j > lx.i && op[0] == '&' {
				return "" // 2&>x is the word 2, then &>
			}
			lx.i = j + len(op)
			return op
		}
	}
	return ""
}

func (lx *lexer) op() string {
	for _, op := range []string{"&&", "||", "|&", ";;", ";", "&", "|", "(", ")"} {
		if strings.HasPrefix(lx.s[lx.i:], op) {
			lx.i += len(op)
			return op
		}
	}
	return ""
}

func isMeta(c byte) bool {
	switch c {
	case ' ', '\t', '\r', '\n', ';', '&', '|', '(', ')', '<', '>':
		return true
	}
	return false
}

// word reads one word, quotes removed; substitutions are kept in it as
// written and their bodies noted in lx.subs.
func (lx *lexer) word() (string, bool) {
	for lx.i < len(lx.s) && (lx.s[lx.i] == ' ' || lx.s[lx.i] == '\t') {
		lx.i++
	}
	var b strings.Builder
	start := lx.i
	for lx.i < len(lx.s) && !isMeta(lx.s[lx.i]) {
		switch c := lx.s[lx.i]; c {
		case '\'':
			end := strings.IndexByte(lx.s[lx.i+1:], '\'')
			if end < 0 {
				b.WriteString(lx.s[lx.i+1:])
				lx.i = len(lx.s)
				continue
			}
			b.WriteString(lx.s[lx.i+1 : lx.i+1+end])
			lx.i += end + 2
		case '"':
			lx.i++
			lx.double(&b)
		case '\\':
			if lx.i+1 < len(lx.s) {
				b.WriteByte(lx.s[lx.i+1])
				lx.i += 2
			} else {
				lx.i++
			}
		case '$':
			lx.dollar(&b)
		case '`':
			lx.backtick(&b)
		default:
			b.WriteByte(c)
			lx.i++
		}
	}
	return b.String(), lx.i > start
}

// double reads the inside of a double-quoted string, after the quote.
func (lx *lexer) double(b *strings.Builder) {
	for lx.i < len(lx.s) {
		switch c := lx.s[lx.i]; c {
		case '"':
			lx.i++
			return
		case '\\':
			if lx.i+1 < len(lx.s) && strings.IndexByte("\"\\$`\n", lx.s[lx.i+1]) >= 0 {
				b.WriteByte(lx.s[lx.i+1])
				lx.i += 2
				continue
			}
			b.WriteByte(c)
			lx.i++
		case '$':
			lx.dollar(b)
		case '`':
			lx.backtick(b)
		default:
			b.WriteByte(c)
			lx.i++
		}
	}
}

// dollar reads $(…), $((…)), ${…} or a plain $, keeping the text.
func (lx *lexer) dollar(b *strings.Builder) {
	rest := lx.s[lx.i:]
	open := ""
	switch {
	case strings.HasPrefix(rest, "$("):
		open = "("
	case strings.HasPrefix(rest, "${"):
		open = "{"
	default:
		b.WriteByte('$')
		lx.i++
		return
	}
	end := matching(rest, 1)
	body := rest[2:max(end, 2)]
	if end < 0 {
		body = rest[2:]
		end = len(rest) - 1
	}
	if open == "(" && !strings.HasPrefix(body, "(") {
		lx.subs = append(lx.subs, body)
	}
	b.WriteString(rest[:end+1])
	lx.i += end + 1
}

// matching is the index of the bracket closing the one at rest[at], or -1.
func matching(rest string, at int) int {
	open := rest[at]
	closer := byte(')')
	if open == '{' {
		closer = '}'
	}
	depth := 0
	for j := at; j < len(rest); j++ {
		switch rest[j] {
		case open:
			depth++
		case closer:
			depth--
			if depth == 0 {
				return j
			}
		case '\\':
			j++
		case '\'':
			if k := strings.IndexByte(rest[j+1:], '\''); k >= 0 {
				j += k + 1
			}
		}
	}
	return -1
}

func (lx *lexer) backtick(b *strings.Builder) {
	end := strings.IndexByte(lx.s[lx.i+1:], '`')
	if end < 0 {
		lx.subs = append(lx.subs, lx.s[lx.i+1:])
		b.WriteString(lx.s[lx.i:])
		lx.i = len(lx.s)
		return
	}
	lx.subs = append(lx.subs, lx.s[lx.i+1:lx.i+1+end])
	b.WriteString(lx.s[lx.i : lx.i+end+2])
	lx.i += end + 2
}

// skipHeredocs skips the bodies of the here-documents opened on the line
// just ended: input, not commands.
func (lx *lexer) skipHeredocs() {
	for _, h := range lx.heredocs {
		for lx.i < len(lx.s) {
			end := strings.IndexByte(lx.s[lx.i:], '\n')
			line := lx.s[lx.i:]
			if end >= 0 {
				line = lx.s[lx.i : lx.i+end]
				lx.i += end + 1
			} else {
				lx.i = len(lx.s)
			}
			if strings.TrimLeft(line, "\t") == h.delim {
				break
			}
		}
	}
	lx.heredocs = nil
}
