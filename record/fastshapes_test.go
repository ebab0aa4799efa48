package record

import (
	"strings"
	"testing"
)

// fastShapes are frontmatter shapes people and models write; the fast path
// must decide each of them itself, with the library's tree.
var fastShapes = []struct{ name, in string }{
	{"sources block mappings", "created_at: 2026-01-05T09:30:00Z\nsources:\n  - session_id: abc\n    range: [3, 9]\n  - session_id: def\n    range: [10, 12]\nupdated_at: 2026-01-06T00:00:00Z\n"},
	{"sources block mappings at column 1", "sources:\n- session_id: abc\n  range: [3, 9]\n- session_id: def\n  range: [1, 2]\nstatus: open\n"},
	{"sources flow mappings", "sources:\n  - {session_id: abc, range: [3, 9]}\n  - {session_id: d, range: [1, 2]}\n"},
	{"range as a block sequence", "sources:\n  - session_id: abc\n    range:\n      - 3\n      - 9\n"},
	{"range as a block sequence at the key's column", "sources:\n  - session_id: abc\n    range:\n    - 3\n    - 9\nstatus: open\n"},
	{"multi-line plain description", "kind: howto\ndescription: Retry the upload when the server answers\n  with 503, at most three times,\n\n  then give up.\nmodel_invokation: true\n"},
	{"multi-line plain, deeper continuation", "description: one\n    two\n  three\n"},
	{"single-quoted", "description: 'it''s the ''retry'' rule: read it'\n"},
	{"single-quoted over lines", "description: 'first line\n  second line\n\n  new paragraph'\nkind: rule\n"},
	{"double-quoted escapes", "description: \"tab\\there, quote \\\" backslash \\\\ \\u00e9\\u65e5 \\x41 \\U0001F600 \\' \\N\\_\\L\\P\\e\\0\\a\\b\\v\\f\\r\\n\"\n"},
	{"double-quoted over lines", "description: \"first line\n  second\\u0020line\n\n  and an escaped \\\n  break\"\nkind: rule\n"},
	{"full-line comments between keys", "kind: rule\n# why this is a rule\n# (two lines)\ndescription: x\n"},
	{"head comment on the first key", "# written by hand\nkind: rule\ndescription: x\n"},
	{"trailing comments", "kind: rule # the kind\ndescription: 'x'   # quoted\nsources: [] # none yet\nmodel_invokation: false #no space after\n"},
	{"trailing comments in a sequence", "sources:\n  - {session_id: a, range: [1, 2]} # first\n  - session_id: b # second\n    range: [3, 4] # its range\n"},
	{"folded description", "description: >\n  Retry the upload\n  when the server answers 503.\n\n  Give up after three.\nkind: rule\n"},
	{"folded strip description", "description: >-\n  Retry the upload\n  when the server answers 503.\nkind: rule\n"},
	{"literal description", "description: |\n  line one\n    indented\n\n  line three\n\n\nkind: rule\n"},
	{"literal strip description", "description: |-\n  line one\n  line two\nkind: rule\n"},
	{"block scalar, leading empty line", "description: |\n\n  after a blank\nkind: rule\n"},
	{"block scalar at the end", "kind: rule\ndescription: >-\n  last\n"},
	{"japanese", "kind: rule\ndescription: 再試行は三回まで。サーバーが 503 を返したとき\n  に限る。\nsources:\n  - session_id: セッション\n    range: [1, 2]\n"},
	{"japanese block scalar", "description: |\n  日本語の説明。\n  二行目。\n"},
	{"crlf", "kind: rule\r\ndescription: >\r\n  folded\r\n  text\r\nsources:\r\n  - session_id: a # c\r\n    range: [1, 2]\r\n"},
	{"unknown keys in any order", "zeta: 1\nupdated_at: 2026-01-05T09:30:00Z\nextra_list:\n  - a\n  - b\nkind: rule\nnested:\n  inner: value\n  more: [1, 2]\n"},
	{"empty value", "replaced_by:\nstatus: open\n"},
	{"sequence of plain scalars", "tags:\n  - one\n  - two words\n  - 'quoted'\n"},
	{"flow sequence without spaces", "last_sources:\n  - {session_id: '019a-f7f4', range: [414,492]}\n"},
	{"flow mapping without spaces", "k: {a: 1,b: [1,2],c: 'x'}\n"},
	{"flow collections, spaces inside", "sources:\n  - { session_id: 019a-f7f4, range: [ 3, 9 ] }\n"},
	{"foot comment at the end", "kind: rule\ndescription: x\n# keep until the v2 rollout is done\n"},
	{"foot comment, two lines, blank lines after", "kind: rule\n# a\n# b   \n\n\n"},
	{"foot comment after flow items", "sources:\n  - {session_id: a, range: [1,2]}\n  - {session_id: b, range: [3, 4]} # c\n# copied by hand\n"},
	{"foot comment after block items", "sources:\n  - session_id: a\n    range:\n      - 1\n      - 2\n# copied by hand\n"},
	{"foot comment after a nested mapping", "a:\n  b: 1 # c\n# end\n"},
	{"foot comment after a folded description", "description: >\n  folded\n  text\n# end\n"},
	{"foot comment after a literal strip description", "description: |-\n  text\n# end\n\n"},
	{"foot comment after a multi-line plain description", "description: one\n  two\n# end\n"},
	{"foot comment after a multi-line quoted description", "description: 'one\n  two'\n# end\n"},
	{"comment, blank line, key", "updated_at: 2025-12-10T13:58:00Z\n# edited by the agent\n\nsources:\n  - session_id: a\n    range: [1, 2]\n"},
	{"comment, blank lines, comment, key", "a: b\n# x\n# y\n\n\n# z\nc: d\n"},
	{"comment, blank line, key after items", "a:\n  - x: 1\n    y: [1,2]\n# x\n\nc: d\n# end\n"},
	{"comment after column-1 items, then a key", "last_sources:\n- {session_id: a, range: [731, 808]}\n# TODO: fold this in\nupdated_at: 2025-09-15T23:00:00Z\n"},
	{"comment after column-1 block items, then a key", "a:\n- x: 1\n  y: 2\n# c\nb: d\n"},
	{"foot comment after column-1 items", "a:\n- x\n- {x: 1, r: [1, 2]}\n# c\n# d\n\n\n"},
	{"foot comment after a column-1 scalar item", "b: 1\na:\n- x\n  y\n# c\n"},
	{"comment after column-1 items, blank line, key", "a:\n- x\n# c\n\nb: d\n"},
	{"comment at the end after a quoted later value", "x: 1\na: \"\"\n# e\n"},
	{"comment, blank line, key after a quoted later value", "x: 1\na: 'x'\n# e\n\nb: 1\n"},
	{"comment at the end after a multi-line quoted first value", "a: \"one\n  two\"\n# end\n"},
	{"comment at the end after a flow value with a line comment", "x:\n- 1\na: {x: [1,2]} # lc\n# end\n"},
	{"comment at the end after later keys' line comments", "x: |\n  y\na: b # lc\n# end\n"},
	{"comment at the end after a line comment, nested before", "x:\n  y: 1\na: [1] # lc\n# end\n\n"},
}

// fallbackShapes are left to the YAML library: the fast path must refuse
// them rather than guess.
var fallbackShapes = []struct{ name, in string }{
	{"escape past the rune range", "description: \"\\U80000000\"\n"},
	{"escape past Unicode", "description: \"\\UFFFFFFFF\"\n"},
	{"anchor", "a: &x v\nb: w\n"},
	{"alias", "a: v\nb: *x\n"},
	{"tag", "a: !!str 1\n"},
	{"complex key", "? a\n: b\n"},
	{"quoted key", "\"a\": b\n"},
	{"flow sequence over lines", "a: [1,\n  2]\n"},
	{"flow mapping over lines", "sources:\n  - {session_id: a,\n     range: [1, 2]}\n"},
	{"duplicate key", "a: 1\na: 2\n"},
	{"duplicate nested key", "s:\n  - a: 1\n    a: 2\n"},
	{"tab indentation", "s:\n\t- a\n"},
	{"tab in value", "a: b\tc\n"},
	{"document marker inside", "a: b\n---\nc: d\n"},
	{"document end inside", "a: b\n...\n"},
	{"directive", "%YAML 1.2\na: b\n"},
	{"keep chomping", "a: |+\n  x\n\n"},
	{"indentation indicator", "a: |2\n   x\n"},
	{"block scalar header comment", "a: | # c\n  x\n"},
	{"folded more-indented line", "a: >\n  x\n    y\n  z\n"},
	{"comment at the end after a line comment, blank line, comment", "a: b # lc\n# x\n\n# y\n"},
	{"comment at the end after a multi-line value with a line comment", "a: b\n  c # lc\n# end\n"},
	{"comment after a line comment, blank line, key", "a: b # lc\n# x\n\nc: d\n"},
	{"comment after a blank line at the end (the document's)", "a: b\n\n# end\n"},
	{"comment after a block scalar's blank line at the end", "a: |\n  x\n\n# end\n"},
	{"comment groups with a blank line at the end", "a: b\n# x\n\n# y\n"},
	{"comment groups, blank line, key", "a: b\n# x\n\n# y\n\nc: d\n"},
	{"indented comment at the end", "a: b\n  # x\n"},
	{"foot comment after column-1 block mapping items", "a:\n- x: 1\n  y: 2\n# c\n"},
	{"foot comment after a column-1 item with a line comment", "a:\n- {x: 1} # lc\n# c\n"},
	{"comment between column-1 items", "a:\n- x\n# c\n- y\n"},
	{"crlf comment between keys", "a: b\r\n# x\r\nc: d\r\n"},
	{"crlf comment lines", "a: b\r\n# x\r\n# y\r\nc: d\r\ne: f\r\n"},
	{"crlf head comment", "# x\r\na: b\r\n"},
	{"crlf foot comment", "a: b\r\nc: d\r\n# x\r\n"},
	{"crlf comment after items", "a:\r\n  - x\r\n# x\r\nc: d\r\n"},
	{"foot comment without a line break", "0:\n 0: 0\n#"},
	{"quoted first value, comment, blank line, key", "a: 'x'\n# e\n\nb: 1\n"},
	{"flow first value, comment, blank line, key", "a: [1]\n# e\n\nb: 1\n"},
	{"comment at the end after a quoted first value with a head comment", "#\n0: ''\n#\n"},
	{"comment at the end after a quoted first value (the document's)", "a: ''\n#\n"},
	{"comment at the end after a flow first value (the document's)", "a: [1]\n# e\n\n"},
	{"comment at the end after a line comment (the document's)", "a: b # lc\n# end\n# two\n\n\n"},
	{"flow sequence, empty item", "a: [1,,2]\n"},
	{"flow sequence, trailing comma", "a: [1,2,]\n"},
	{"comment after a blank line at the start", "# top\n\na: b\n"},
	{"comment inside a sequence", "s:\n  # c\n  - a\n"},
	{"comment on a key with a block value", "s: # c\n  - a\n"},
	{"dash alone", "s:\n  -\n    a\n"},
	{"nested sequence", "s:\n  - - a\n"},
	{"unknown escape", "a: \"\\q\"\n"},
	{"escaped slash (YAML 1.2, not this library)", "a: \"\\/\"\n"},
	{"surrogate escape", "a: \"\\ud800\"\n"},
	{"unclosed quote", "a: 'x\nb: c\n"},
	{"bad indentation", "a:\n  b: 1\n c: 2\n"},
}

func TestFastPathShapes(t *testing.T) {
	for _, c := range fastShapes {
		t.Run(c.name, func(t *testing.T) {
			if !checkFast(t, []byte(c.in)) {
				t.Fatalf("fast path refused it; it must decide this shape itself:\n%s", c.in)
			}
		})
	}
}

func TestFastPathFallsBack(t *testing.T) {
	for _, c := range fallbackShapes {
		t.Run(c.name, func(t *testing.T) {
			if _, ok := fastParse([]byte(c.in)); ok {
				t.Fatalf("fast path accepted it; it must leave it to the library:\n%s", c.in)
			}
			// The document reads as the library alone would read it.
			whole := "---\n" + c.in + "---\n"
			d, err := Parse([]byte(whole))
			lib, libErr := parseWith([]byte(whole), nil)
			if (err == nil) != (libErr == nil) {
				t.Fatalf("Parse error %v, library-only error %v", err, libErr)
			}
			if err == nil {
				if diff := treeDiff("", d.root, lib.root); diff != "" {
					t.Fatal(diff)
				}
			} else if err.Error() != libErr.Error() {
				t.Fatalf("Parse error %q, library-only error %q", err, libErr)
			}
		})
	}
}

// TestParseFastEqualsLibrary: the whole Parse (tree, refusals, positions)
// is the same whichever path read the frontmatter.
func TestParseFastEqualsLibrary(t *testing.T) {
	for _, c := range fastShapes {
		in := "---\n" + c.in + "---\nbody\n"
		if strings.Contains(c.in, "\r\n") {
			in = strings.ReplaceAll(in, "\n", "\r\n")
			in = strings.ReplaceAll(in, "\r\r\n", "\r\n")
		}
		sameParse(t, []byte(in))
	}
}

func sameParse(t *testing.T, in []byte) {
	t.Helper()
	d, err := Parse(in)
	lib, libErr := parseWith(in, nil)
	switch {
	case (err == nil) != (libErr == nil):
		t.Fatalf("fast path error %v, library error %v\n%s", err, libErr, in)
	case err != nil:
		if err.Error() != libErr.Error() {
			t.Fatalf("fast path error %q, library error %q\n%s", err, libErr, in)
		}
	default:
		if diff := treeDiff("", d.root, lib.root); diff != "" {
			t.Fatalf("%s\n%s", diff, in)
		}
	}
}

// FuzzFastParse holds the whole of Parse to the library's reading: for any
// file, the fast path gives the same tree (so the same Record fields) and
// the same error or none.
func FuzzFastParse(f *testing.F) {
	for _, c := range fastShapes {
		f.Add([]byte("---\n" + c.in + "---\nbody\n"))
	}
	for _, c := range fallbackShapes {
		f.Add([]byte("---\n" + c.in + "---\n"))
	}
	for _, b := range readShapes(f) {
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, in []byte) {
		sameParse(t, in)
	})
}
