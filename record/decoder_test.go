package record

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// decoderInput is a record file and the path it is decoded at.
type decoderInput struct {
	path string
	data []byte
}

// decoderInputs are the records of testdata/records and testdata/shapes,
// and every frontmatter sample of the fast-path tests (accepted, refused
// and invalid ones) as a knowledge record: what a reused decoder must read
// as Decode does, one after another.
func decoderInputs(t *testing.T) []decoderInput {
	t.Helper()
	var out []decoderInput
	for _, glob := range []string{"testdata/records/*.md", "testdata/shapes/*.md"} {
		paths, err := filepath.Glob(glob)
		if err != nil || len(paths) == 0 {
			t.Fatalf("%s: no files (%v)", glob, err)
		}
		for _, p := range paths {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			name := strings.TrimSuffix(filepath.Base(p), ".md")
			rel := "knowledge/" + name + ".md"
			switch {
			case name == "summary":
				rel = "memory/summary.md"
			case strings.HasPrefix(name, "decision"):
				rel = "memory/decisions/" + name + ".md"
			case strings.HasPrefix(name, "request"):
				rel = "memory/requests/" + name + ".md"
			}
			out = append(out, decoderInput{rel, b})
		}
	}
	fm := append([]string{}, fastSamples...)
	for _, c := range fastShapes {
		fm = append(fm, c.in)
	}
	for _, c := range fallbackShapes {
		fm = append(fm, c.in)
	}
	// Values a Decoder builds in its arena: quotes closed at the start of
	// a line, folded and plain scalars over lines.
	fm = append(fm, "a: '\n '\n", "a: \"x\n  \"\n", "a: 'it''s\n  here'\n", "a: >\n  x\n\n  y\n", "a: |-\n  x\n  y\n", "a: x\n  y\n\n  z\n")
	for i, s := range fm {
		out = append(out, decoderInput{fmt.Sprintf("knowledge/sample-%d.md", i), []byte("---\n" + s + "---\nbody\n")})
	}
	return out
}

// checkDecoder decodes in with d and with Decode and fails unless both
// give the same record, field errors and error.
func checkDecoder(t *testing.T, d *Decoder, in decoderInput) {
	t.Helper()
	want, wantErrs, wantErr := Decode(in.path, in.data)
	got, gotErrs, gotErr := d.Decode(in.path, in.data)
	if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
		t.Fatalf("%s: error %v, Decode gives %v", in.path, gotErr, wantErr)
	}
	if len(gotErrs) != 0 || len(wantErrs) != 0 {
		if !reflect.DeepEqual(gotErrs, wantErrs) {
			t.Fatalf("%s: field errors %v, Decode gives %v", in.path, gotErrs, wantErrs)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: the reused decoder's record differs from Decode's:\n got %+v\nwant %+v", in.path, got, want)
	}
	if got != nil {
		if dd := treeDiff("", got.Doc.root, want.Doc.root); dd != "" {
			t.Fatalf("%s: trees differ: %s", in.path, dd)
		}
	}
}

// TestDecoderEqualsDecode: one Decoder reading every input in turn, in
// order and backwards (so each file follows a different one), gives what
// Decode gives for each.
func TestDecoderEqualsDecode(t *testing.T) {
	ins := decoderInputs(t)
	var d Decoder
	for _, in := range ins {
		checkDecoder(t, &d, in)
	}
	for i := len(ins) - 1; i >= 0; i-- {
		checkDecoder(t, &d, ins[i])
	}
}

// TestDecoderOwnMemory: a record from Decode (or Parse) keeps no memory
// a Decoder reuses: decoding other files afterwards leaves it unchanged.
func TestDecoderOwnMemory(t *testing.T) {
	ins := decoderInputs(t)
	var d Decoder
	for _, in := range ins {
		keep, _, err := Decode(in.path, in.data)
		if err != nil {
			continue
		}
		before := fmt.Sprintf("%+v %s", *keep, treeString(keep.Doc.root))
		for _, other := range ins {
			d.Decode(other.path, other.data)
		}
		if after := fmt.Sprintf("%+v %s", *keep, treeString(keep.Doc.root)); after != before {
			t.Fatalf("%s: Decode's record changed while a Decoder read other files", in.path)
		}
	}
}

// treeString writes a node tree out whole, values and positions.
func treeString(n *yaml.Node) string {
	if n == nil {
		return "nil"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "{%d %d %q %q %q %q %q %d:%d [", n.Kind, n.Style, n.Tag, n.Value, n.HeadComment, n.LineComment, n.FootComment, n.Line, n.Column)
	for _, c := range n.Content {
		b.WriteString(treeString(c))
	}
	b.WriteString("]}")
	return b.String()
}

// FuzzDecoder: a Decoder that has read one file reads the next as Decode
// does.
func FuzzDecoder(f *testing.F) {
	f.Add([]byte("k: [a, b]\nsources:\n  - session_id: s\n    at: 2026-01-01T00:00:00Z\n"), []byte("a: 1\n"))
	for _, s := range fastSamples {
		f.Add([]byte(s), []byte("description: x\n"))
	}
	for _, c := range append(append([]struct{ name, in string }{}, fastShapes...), fallbackShapes...) {
		f.Add([]byte(c.in), []byte("a: '\n '"))
	}
	f.Fuzz(func(t *testing.T, first, second []byte) {
		var d Decoder
		for _, fm := range [][]byte{first, second, first} {
			in := decoderInput{"knowledge/fuzz.md", append(append([]byte("---\n"), fm...), "\n---\nbody\n"...)}
			checkDecoder(t, &d, in)
		}
	})
}

// TestDocumentKeyAt: NumKeys and KeyAt walk the top-level keys as Keys,
// KeyPos and Get give them, with no slice to allocate.
func TestDocumentKeyAt(t *testing.T) {
	for _, in := range decoderInputs(t) {
		doc, err := Parse(in.data)
		if err != nil {
			continue
		}
		keys := doc.Keys()
		if doc.NumKeys() != len(keys) {
			t.Fatalf("%s: NumKeys = %d, Keys has %d", in.path, doc.NumKeys(), len(keys))
		}
		for i, want := range keys {
			key, k, v := doc.KeyAt(i)
			line, col := doc.Pos(k)
			wl, wc := doc.KeyPos(want)
			if key != want || v != doc.Get(want) || line != wl || col != wc {
				t.Fatalf("%s: KeyAt(%d) = %q at %d:%d, want %q at %d:%d", in.path, i, key, line, col, want, wl, wc)
			}
		}
	}
}
