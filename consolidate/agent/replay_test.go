package agent

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// recorded is the recorded model of the demo's consolidation (install.sh
// --demo): it consolidates the tinyshop session's staging entry into the
// sample repository's memory, offline.
var recorded = filepath.Join("..", "..", "testdata", "sessions", "tinyshop.consolidate.replay.json")

// TestRecordedRun: the recorded run replays through the replay provider:
// a write the linter refuses is corrected, the entry lands in three
// decisions, the request and the summary, with its sources; the outcome
// (operations and records) is golden.
func TestRecordedRun(t *testing.T) {
	p, err := llm.Open("replay:"+recorded, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(t, sampleInput(t, nil))
	var log []string
	rec := &recording{Provider: p}
	e := &Engine{Provider: rec, ModelName: "replay:" + recorded, Progress: func(ev Event) {
		if ev.Kind == EventTool {
			log = append(log, fmt.Sprintf("turn %d: %s %s refused=%v", ev.Turn, ev.Tool, ev.Target, ev.Refused))
		}
	}}
	if err := e.Run(quick(t), s); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	b.WriteString("# tool calls\n" + strings.Join(log, "\n") + "\n\n# operations\n")
	for _, op := range s.Ops() {
		fmt.Fprintf(&b, "%s %s: %s\n", op.Kind, op.Path, op.Reason)
	}
	b.WriteString("\n# records changed\n")
	snap := s.Snapshot()
	for _, c := range s.Changes().Changes() {
		content, err := snap.Read(c.Path)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "-- %s %s --\n%s", c.Op, record.DisplayPath(c.Path), content)
	}
	golden(t, "recorded-run.golden", b.String())

	if got := strings.Join(s.Used(), ","); got != tinyshopEntry(t).ID {
		t.Errorf("Used = %s", got)
	}
	msg := memlog.Message{RunID: "r", Engine: e.Name(), Model: e.Model(), Ops: s.Ops()}
	if _, err := msg.Format(); err != nil {
		t.Errorf("the operations make no valid commit message: %v", err)
	}

	// docs/consolidate.md quotes the refusal the model got.
	refusal := rec.result("write_1")
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "consolidate.md"))
	if err != nil {
		t.Fatal(err)
	}
	if refusal == "" || !strings.Contains(string(doc), "```\n"+refusal+"\n```") {
		t.Errorf("docs/consolidate.md does not quote the refusal:\n%s", refusal)
	}
}

// recording is a provider that keeps the requests it was given.
type recording struct {
	llm.Provider
	reqs []llm.Request
}

func (r *recording) Call(ctx context.Context, req llm.Request) (llm.Response, error) {
	r.reqs = append(r.reqs, req)
	return r.Provider.Call(ctx, req)
}

// result is the content of the tool result for call id, as last sent.
func (r *recording) result(id string) string {
	for i := len(r.reqs) - 1; i >= 0; i-- {
		for _, m := range r.reqs[i].Messages {
			for _, res := range m.ToolResults {
				if res.CallID == id {
					return res.Content
				}
			}
		}
	}
	return ""
}

// TestRecordedRunOverCommittedSample: the demo may consolidate before or
// after it fixes the sample's two lint errors: the recorded run works
// over the sample as committed too.
func TestRecordedRunOverCommittedSample(t *testing.T) {
	p, err := llm.Open("replay:"+recorded, llm.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := newSession(t, sampleInput(t, func(in *consolidate.Input) { in.Base = record.MapSnapshot(rawSampleFiles(t)) }))
	if err := (&Engine{Provider: p}).Run(quick(t), s); err != nil {
		t.Fatal(err)
	}
	if n := len(s.Ops()); n != 5 {
		t.Errorf("%d operations, want 5", n)
	}
}
