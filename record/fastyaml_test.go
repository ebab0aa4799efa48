package record

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// libraryTree parses with the YAML library, as the fallback does.
func libraryTree(data []byte) (*yaml.Node, error) {
	var n yaml.Node
	if err := yaml.Unmarshal(data, &n); err != nil {
		return nil, err
	}
	if n.Kind != yaml.DocumentNode || len(n.Content) != 1 {
		return nil, fmt.Errorf("not one document")
	}
	return n.Content[0], nil
}

func treeDiff(path string, a, b *yaml.Node) string {
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Line != b.Line || a.Column != b.Column {
		return fmt.Sprintf("%s: fast {kind %d style %d tag %s value %q at %d:%d} library {kind %d style %d tag %s value %q at %d:%d}",
			path, a.Kind, a.Style, a.Tag, a.Value, a.Line, a.Column, b.Kind, b.Style, b.Tag, b.Value, b.Line, b.Column)
	}
	if a.HeadComment != b.HeadComment || a.LineComment != b.LineComment || a.FootComment != b.FootComment {
		return fmt.Sprintf("%s: comments fast {%q %q %q} library {%q %q %q}", path,
			a.HeadComment, a.LineComment, a.FootComment, b.HeadComment, b.LineComment, b.FootComment)
	}
	if b.Anchor != "" {
		return path + ": library saw an anchor the fast path accepted"
	}
	if len(a.Content) != len(b.Content) {
		return fmt.Sprintf("%s: %d children vs %d", path, len(a.Content), len(b.Content))
	}
	for i := range a.Content {
		if d := treeDiff(fmt.Sprintf("%s/%d", path, i), a.Content[i], b.Content[i]); d != "" {
			return d
		}
	}
	return ""
}

func checkFast(t *testing.T, data []byte) bool {
	t.Helper()
	fast, ok := fastParse(data)
	if !ok {
		return false
	}
	lib, err := libraryTree(data)
	if err != nil {
		t.Fatalf("fast path accepted what the library refuses (%v):\n%s", err, data)
	}
	if d := treeDiff("", fast, lib); d != "" {
		t.Fatalf("trees differ: %s\ninput:\n%s", d, data)
	}
	return true
}

var fastSamples = []string{
	"created_at: 2026-01-05T09:30:00Z\nupdated_at: 2026-02-11T14:02:00Z\nstatus: resolved\nsources:\n  - {session_id: 0192c3a4-5b6c-7d8e-9f01-23456789abcd, range: [12, 48]}\n  - {session_id: s2, range: [3, 9]}\n",
	"kind: rule\ndescription: \"When to retry: read this\"\nmodel_invokation: false\nuser_invocable: true\nlast_sources: []\n",
	"a: 'it''s'\nb: yes\nc: ~\nd: 0x1F\ne: 1_000\nf: 1.5e3\ng: .5\nh: 0o17\ni: -0b101\nj: 2026-01-05\nk: 0192\nl: 019c0843-1520\nm: TRUE\nn: .inf\n",
	"sources:\n- {session_id: a, range: [1, 2]}\nnext: x\n",
	"d: 日本語の説明: no\n",
	"d: 日本語の説明\ne: [x, 'y', \"z\"]\n",
	"k: {a: [1, {b: c}], d: e}\n",
	"k: v   \r\nx: y\r\n",
	"k: a [b] {c}, d\n",
	"k: [a b, c]\n",
	"k: x:y\n",
	"k: \"\"\nl: ''\n",
}

func TestFastParseMatchesLibrary(t *testing.T) {
	accepted := 0
	for _, s := range fastSamples {
		if checkFast(t, []byte(s)) {
			accepted++
		}
	}
	if accepted < len(fastSamples)-2 {
		t.Fatalf("fast path accepted only %d of %d samples", accepted, len(fastSamples))
	}
	for _, s := range []string{
		"k: &a v\n", "k: [a,\n  b]\n", "k:\tv\n", " k: v\n", "k: v\n  - x\n",
	} {
		if _, ok := fastParse([]byte(s)); ok {
			t.Errorf("fast path accepted %q; it must leave it to the library", s)
		}
	}
	for _, b := range readSeeds(t) {
		d, err := Parse(b)
		if err != nil {
			t.Fatal(err)
		}
		checkFast(t, b[d.dataStart:d.dataEnd])
	}
}

func FuzzFastYAML(f *testing.F) {
	for _, s := range fastSamples {
		f.Add([]byte(s))
	}
	for _, c := range fastShapes {
		f.Add([]byte(c.in))
	}
	for _, c := range fallbackShapes {
		f.Add([]byte(c.in))
	}
	f.Add([]byte(strings.Repeat("k: [1, 2]\n", 3)))
	f.Fuzz(func(t *testing.T, data []byte) {
		if oddBreak(data) >= 0 || !utf8.Valid(data) {
			return
		}
		checkFast(t, data)
	})
}
