package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/record"
)

// shapeTree builds a tree of n records from record/testdata/shapes (two
// thirds of them in the non-canonical shapes people and models write), the
// name's prefix choosing the directory.
func shapeTree(tb testing.TB, n int) record.Snapshot {
	tb.Helper()
	paths, err := filepath.Glob("../record/testdata/shapes/*.md")
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no shape records: %v", err)
	}
	files := map[string][]byte{}
	for i := 0; len(files) < n; i++ {
		p := paths[i%len(paths)]
		b, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		name := strings.TrimSuffix(filepath.Base(p), ".md")
		dir := map[string]string{"decision": "memory/decisions", "request": "memory/requests", "knowledge": "knowledge"}[strings.SplitN(name, "-", 2)[0]]
		switch {
		case name == "summary":
			files["memory/summary.md"] = b
			n++ // one summary, the rest records
		case dir == "":
			tb.Fatalf("shape record %s: name it decision-, request- or knowledge-", p)
		default:
			files[fmt.Sprintf("%s/%s-%d.md", dir, name, i)] = b
		}
	}
	// What the records refer to: #retry-policy and replaced_by.
	for path, shape := range map[string]string{"knowledge/retry-policy.md": "knowledge-canonical.md", "memory/decisions/decision-blockmap.md": "decision-blockmap.md"} {
		b, err := os.ReadFile(filepath.Join("../record/testdata/shapes", shape))
		if err != nil {
			tb.Fatal(err)
		}
		files[path] = b
	}
	return record.MapSnapshot(files)
}

func BenchmarkLintShapes(b *testing.B) {
	snap := shapeTree(b, 2000)
	opts := DefaultOptions()
	opts.Workers = 1
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if rep := Tree(snap, opts, nil); rep.Count(Error) > 0 {
			b.Fatalf("shape corpus has errors: %v", rep.Findings)
		}
	}
}
