package eval

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/consolidate/setup"
)

// TestRunRules runs the fixture with the rules engine end to end: the
// decision lands once with its source, the router is left alone, one
// commit with an add; the repository is removed afterwards.
func TestRunRules(t *testing.T) {
	sc, err := Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	ran, err := Run(context.Background(), sc, Options{Engine: setup.EngineRules, TempDir: tmp, Environ: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	if ran.Err != nil {
		t.Fatalf("run error: %v", ran.Err)
	}
	for _, o := range Check(sc, ran.Result) {
		if !o.Passed {
			t.Errorf("%s: %s", o.Name, o.Reason)
		}
	}
	if left, _ := os.ReadDir(tmp); len(left) != 0 {
		t.Errorf("left behind: %v", left)
	}
	if ran.Kept != "" || ran.Usage.InputTokens != 0 {
		t.Errorf("ran %+v", ran)
	}
}

// TestRunKeep: with Keep the repository stays, with the memory branch.
func TestRunKeep(t *testing.T) {
	sc, err := Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	ran, err := Run(context.Background(), sc, Options{Engine: setup.EngineRules, TempDir: t.TempDir(), Keep: true, Environ: os.Environ()})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(ran.Kept, os.TempDir()) && ran.Kept == "" {
		t.Fatal("no kept path")
	}
	if _, err := os.Stat(ran.Kept + "/repo/.git/refs/heads/yoimem/memory"); err != nil {
		t.Errorf("kept repository: %v", err)
	}
}

// TestRunNotRecorded: the llm engine without a model and without a
// replay file does not run.
func TestRunNotRecorded(t *testing.T) {
	sc, err := Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	ran, err := Run(context.Background(), sc, Options{Engine: setup.EngineLLM, TempDir: t.TempDir()})
	if err != nil || !ran.NotRecorded {
		t.Fatalf("ran %+v, %v", ran, err)
	}
}
