package lint

import (
	"bytes"
	"strings"
	"unicode/utf8"

	"github.com/yoimem/git-yoimem/internal/secrets"
	"github.com/yoimem/git-yoimem/record"
	"go.yaml.in/yaml/v3"
)

// parsedCredentials finds secrets that are whole only once the record is
// read: in frontmatter values as YAML gives them (a double-quoted line
// continuation joins lines, escapes turn into characters) and in the body
// as Markdown shows it (backslash escapes, zero-width characters). A
// secret the raw scan already reported on those lines is not reported
// again.
func (fl *fileLint) parsedCredentials(rec *record.Record) {
	raw := map[int]bool{}
	for _, f := range fl.out {
		if f.Rule == RuleCredential {
			raw[f.Line] = true
		}
	}
	doc := rec.Doc
	end := doc.BodyLine() - 2 // the closing --- is BodyLine-1
	for i, n := 0, doc.NumKeys(); i < n; i++ {
		key, k, v := doc.KeyAt(i)
		first, _ := doc.Pos(k)
		last := end
		if i+1 < n {
			_, nk, _ := doc.KeyAt(i + 1)
			next, _ := doc.Pos(nk)
			last = next - 1
		}
		if reportedIn(raw, first, last) {
			continue
		}
		fl.yamlValues(doc, key, v, first)
	}
	fl.markdownBody(rec, raw)
}

func reportedIn(lines map[int]bool, first, last int) bool {
	for l := first; l <= last; l++ {
		if lines[l] {
			return true
		}
	}
	return false
}

// yamlValues scans each scalar under n as "key: value", so that the
// keyword-anchored rules see the key.
func (fl *fileLint) yamlValues(doc *record.Document, key string, n *yaml.Node, line int) {
	if n == nil {
		return
	}
	switch n.Kind {
	case yaml.ScalarNode:
		if n.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 && !strings.Contains(n.Value, "\n") {
			return // plain one-line values read as they are written
		}
		fl.scratch = append(append(append(fl.scratch[:0], key...), ": "...), n.Value...)
		if ms := secrets.Find(fl.scratch); len(ms) > 0 {
			l, c := doc.Pos(n)
			fl.add(Error, RuleCredential, l, c, "%s once the YAML value of %s is read (it is split or escaped in the file); memory is committed and pushed, so remove it (and rotate it if it was real)", looksLike(ms[0].Kind), key)
		}
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			fl.yamlValues(doc, n.Content[i].Value, n.Content[i+1], line)
		}
	case yaml.SequenceNode:
		for _, c := range n.Content {
			fl.yamlValues(doc, key, c, line)
		}
	}
}

// markdownBody scans the body lines that Markdown shows otherwise than
// they are written: without the backslash of an escaped punctuation
// character and without zero-width characters.
func (fl *fileLint) markdownBody(rec *record.Record, raw map[int]bool) {
	body := rec.Body()
	if bytes.IndexByte(body, '\\') < 0 && !hasInvisible(body) {
		return
	}
	first := rec.Doc.BodyLine()
	for n, line := range bytes.Split(body, []byte("\n")) {
		if raw[first+n] {
			continue
		}
		shown, changed := asShown(line)
		if !changed {
			continue
		}
		if ms := secrets.Find(shown); len(ms) > 0 {
			fl.add(Error, RuleCredential, first+n, 1, "%s once the Markdown is read (escapes or invisible characters split it in the file); memory is committed and pushed, so remove it (and rotate it if it was real)", looksLike(ms[0].Kind))
		}
	}
}

// looksLike names a kind of secret with its article: "looks like an AWS
// access key ID", "looks like a GitHub token".
func looksLike(kind string) string {
	d := secrets.Describe(kind)
	if d != "" && strings.ContainsRune("AEIOUaeiou", rune(d[0])) {
		return "looks like an " + d
	}
	return "looks like a " + d
}

// invisible are the zero-width characters a token can hide behind: zero
// width space, non-joiner, joiner, word joiner, BOM, soft hyphen.
var invisible = [...]rune{'\u200b', '\u200c', '\u200d', '\u2060', '\ufeff', '\u00ad'}

func hasInvisible(b []byte) bool {
	if bytes.IndexByte(b, 0xe2) < 0 && bytes.IndexByte(b, 0xef) < 0 && bytes.IndexByte(b, 0xc2) < 0 {
		return false
	}
	for _, r := range invisible {
		if bytes.ContainsRune(b, r) {
			return true
		}
	}
	return false
}

// asShown is a line as Markdown displays it, for the scan: backslash
// escapes of ASCII punctuation resolved and invisible characters removed.
func asShown(line []byte) ([]byte, bool) {
	out := make([]byte, 0, len(line))
	changed := false
	for i := 0; i < len(line); {
		c := line[i]
		if c == '\\' && i+1 < len(line) && isASCIIPunct(line[i+1]) {
			out = append(out, line[i+1])
			i += 2
			changed = true
			continue
		}
		r, size := utf8.DecodeRune(line[i:])
		if isInvisible(r) {
			i += size
			changed = true
			continue
		}
		out = append(out, line[i:i+size]...)
		i += size
	}
	return out, changed
}

func isInvisible(r rune) bool {
	for _, v := range invisible {
		if r == v {
			return true
		}
	}
	return false
}

func isASCIIPunct(c byte) bool {
	return c > ' ' && c < 0x7f && !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9')
}
