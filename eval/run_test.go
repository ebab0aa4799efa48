package eval

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/consolidate/setup"
	"github.com/yoimem/git-yoimem/llm"
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

// TestRunRecorded: the llm engine replays the scenario's recorded
// answers through a recorder: the expectations pass, the tokens and
// turns are counted, and the recorder's replay file and transcript are
// kept; the replay file written gives the same run again.
func TestRunRecorded(t *testing.T) {
	sc, err := Load(copyDir(t, fixture, "job-store-decision"))
	if err != nil {
		t.Fatal(err)
	}
	o := Options{Engine: setup.EngineLLM, TempDir: t.TempDir(), Environ: os.Environ(),
		NewRecorder: func(p llm.Provider) Recorder { return llm.NewRecorder(p) }}
	ran, err := Run(context.Background(), sc, o)
	if err != nil || ran.Err != nil {
		t.Fatalf("run: %v, %v", err, ran.Err)
	}
	for _, oc := range Check(sc, ran.Result) {
		if !oc.Passed {
			t.Errorf("%s: %s", oc.Name, oc.Reason)
		}
	}
	if ran.Usage.InputTokens != 6400 || ran.Usage.OutputTokens != 160 || ran.Turns != 2 {
		t.Errorf("usage %+v, turns %d", ran.Usage, ran.Turns)
	}
	if !strings.Contains(ran.Transcript, "Consolidation run") || len(ran.Replay) == 0 {
		t.Fatalf("transcript %q, replay %d bytes", ran.Transcript, len(ran.Replay))
	}
	if err := WriteReplay(ran); err != nil {
		t.Fatal(err)
	}
	again, err := Run(context.Background(), sc, Options{Engine: setup.EngineLLM, TempDir: t.TempDir(), Environ: os.Environ()})
	if err != nil || again.Err != nil || !again.Result.Committed {
		t.Fatalf("replaying the recorded file: %v, %v", err, again.Err)
	}
	dir := t.TempDir()
	if err := WriteTranscript(dir, ran); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(dir + "/job-store-decision.txt"); string(b) != ran.Transcript {
		t.Errorf("transcript file: %q", b)
	}
}

// TestRunNotRecorded: the llm engine without a model and without a
// replay file does not run.
func TestRunNotRecorded(t *testing.T) {
	sc, err := Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	sc.Replay = ""
	ran, err := Run(context.Background(), sc, Options{Engine: setup.EngineLLM, TempDir: t.TempDir()})
	if err != nil || !ran.NotRecorded {
		t.Fatalf("ran %+v, %v", ran, err)
	}
}

// TestRunTranscriptOfAnUnfinishedRecording: answers that run out (the
// replay provider's exhausted error, which a replay file cannot hold)
// still give the transcript, with the request left unanswered, and
// only writing the replay file fails.
func TestRunTranscriptOfAnUnfinishedRecording(t *testing.T) {
	sc, err := Load(copyDir(t, fixture, "job-store-decision"))
	if err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(t.TempDir(), "empty.json")
	if err := os.WriteFile(empty, []byte(`{"responses": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	o := Options{Engine: setup.EngineLLM, Model: "replay:" + empty, TempDir: t.TempDir(), Environ: os.Environ(),
		NewRecorder: func(p llm.Provider) Recorder { return llm.NewRecorder(p) }}
	before, _ := os.ReadFile(filepath.Join(sc.Dir, ReplayFile))
	ran, err := Run(context.Background(), sc, o)
	if err != nil {
		t.Fatalf("run: %v", err)
	}
	if ran.Err == nil {
		t.Fatal("the run succeeded without answers")
	}
	if !strings.Contains(ran.Transcript, "Consolidation run") {
		t.Errorf("transcript %q", ran.Transcript)
	}
	if err := WriteReplay(ran); err == nil || !strings.Contains(err.Error(), "exhausted") {
		t.Errorf("WriteReplay: %v, want the exhausted call named", err)
	}
	if after, _ := os.ReadFile(filepath.Join(sc.Dir, ReplayFile)); !bytes.Equal(after, before) {
		t.Errorf("the scenario's replay file changed:\n%s", after)
	}
}
