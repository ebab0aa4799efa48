package eval

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/consolidate/setup"
)

var update = flag.Bool("update", false, "rewrite testdata/scenarios/score.*.json from this run")

// suiteRoot is the project's scenarios.
var suiteRoot = filepath.Join("..", "testdata", "scenarios")

// TestSuiteRules runs every scenario with the rules engine and fails on
// any regression against score.rules.json (-update rewrites it).
func TestSuiteRules(t *testing.T) { suite(t, setup.EngineRules, "score.rules.json") }

// TestSuiteRecorded runs every scenario with the llm engine over its
// recorded answers (llm.replay.json) and fails on any regression
// against score.llm.json (-update rewrites it).
func TestSuiteRecorded(t *testing.T) { suite(t, setup.EngineLLM, "score.llm.json") }

func suite(t *testing.T, engine, file string) {
	scs, err := LoadAll(suiteRoot)
	if errors.Is(err, fs.ErrNotExist) || err == nil && len(scs) == 0 {
		t.Skipf("%s holds no scenario yet", suiteRoot)
	}
	if err != nil {
		t.Fatal(err)
	}
	runs, err := RunAll(context.Background(), scs, Options{Engine: engine, TempDir: t.TempDir(), Environ: os.Environ()}, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	rep := Score(engine, "", runs)
	got, err := rep.File().Marshal()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(suiteRoot, file)
	t.Logf("%s engine: %d/%d expectations (%.1f %%), %d by design apart, %d not recorded", engine, rep.Total.Passed, rep.Total.Total, rep.Total.Percent(), rep.ByDesignCount(), rep.NotRecorded)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	old, err := ReadScoreFile(path)
	if err != nil {
		t.Fatalf("%v\n(go test ./eval -run %s -update writes it; say why in the commit)", err, t.Name())
	}
	d := Compare(old, rep.File())
	for _, c := range d.Regressions {
		t.Errorf("regression: %s%s", c, reason(rep, c))
	}
	for _, c := range d.Improvements {
		t.Logf("improvement: %s", c)
	}
	if len(d.Regressions) == 0 && !bytes.Equal(mustRead(t, path), got) {
		t.Errorf("%s is out of date (improvements or changed totals); go test ./eval -run %s -update rewrites it", path, t.Name())
	}
}

// reason is why an expectation of the change fails now.
func reason(rep *Report, c Change) string {
	for _, s := range rep.Scenarios {
		if s.Name != c.Scenario {
			continue
		}
		for _, o := range s.Outcomes {
			if o.Name == c.Expectation && o.Reason != "" {
				return "\n\t" + o.Reason
			}
		}
		if s.Error != "" {
			return "\n\trun error: " + strings.ReplaceAll(s.Error, "\n", "\n\t")
		}
	}
	return ""
}

func mustRead(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
