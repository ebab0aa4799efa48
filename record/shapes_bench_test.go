package record

import (
	"os"
	"path/filepath"
	"testing"
)

// readShapes loads testdata/shapes: records written the way people and
// models write them (block-mapping sources, comments, folded, literal and
// multi-line descriptions, quoted strings, Japanese, CRLF), two thirds of
// them in non-canonical shapes, next to canonical ones.
func readShapes(tb testing.TB) map[string][]byte {
	tb.Helper()
	paths, err := filepath.Glob("testdata/shapes/*.md")
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no shape records: %v", err)
	}
	out := map[string][]byte{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		out[filepath.Base(p)] = b
	}
	return out
}

// TestShapeCorpusTakesFastPath: every record of the shape corpus is read
// without the YAML library, with the library's result.
func TestShapeCorpusTakesFastPath(t *testing.T) {
	for name, b := range readShapes(t) {
		t.Run(name, func(t *testing.T) {
			sameParse(t, b)
			d, err := Parse(b)
			if err != nil {
				t.Fatal(err)
			}
			if !checkFast(t, b[d.dataStart:d.dataEnd]) {
				t.Fatalf("the fast path refused %s", name)
			}
		})
	}
}

func BenchmarkParseShapes(b *testing.B) {
	shapes := readShapes(b)
	var bytes int64
	for _, s := range shapes {
		bytes += int64(len(s))
	}
	b.SetBytes(bytes)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		for name, s := range shapes {
			if _, err := Parse(s); err != nil {
				b.Fatalf("%s: %v", name, err)
			}
		}
	}
}
