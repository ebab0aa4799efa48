package eval

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzLoadScenario: the scenario.yaml loader never panics, and what it
// accepts is valid (named, categorised, globs checked).
func FuzzLoadScenario(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "scenarios", "*", ScenarioFile))
	for _, p := range seeds {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte("description: x\nexpect:\n  - {name: a, category: safety, op: {kind: drop}, exists: false}\n"))
	f.Add([]byte("description: x\nexpect:\n  - {name: a, category: kept, record: \"**/[\", count: -1}\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		sc, err := parseScenario("scenario.yaml", b)
		if err != nil {
			return
		}
		if sc.Description == "" || len(sc.Expect) == 0 {
			t.Fatalf("accepted without description or expectations: %q", b)
		}
		for _, e := range sc.Expect {
			if validName(e.Name) != nil || !contains(Categories(), e.Category) {
				t.Fatalf("accepted %+v", e)
			}
			if e.Op == nil && e.Commit == nil && checkGlob(e.Record) != nil {
				t.Fatalf("accepted glob %q", e.Record)
			}
		}
		_ = Check(sc, checkResult()) // checks never panic on what loads
	})
}
