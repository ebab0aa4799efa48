package consolidate

import (
	"bytes"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
)

// TestJudgeUsage: the base's records are judged by the usage read at the
// start of a run (this machine's) and the run files the base commits:
// each event once; a record never invoked is unused once the unused span
// has passed since its created_at, unknown before; a record the base does
// not have is no candidate; unknown usage is left out (never dropped).
func TestJudgeUsage(t *testing.T) {
	at := func(min int) time.Time { return now.Add(time.Duration(min) * time.Minute) }
	hot := func(id string, min int, session string) metrics.Event {
		return metrics.Event{ID: id, Time: at(min), Session: session, Record: "knowledge/hot.md", How: metrics.HowSearch}
	}
	local := metrics.Data{
		Events: []metrics.Event{hot("h0", 0, "s0"), hot("h1", 1, "s1"),
			{ID: "g1", Time: at(0), Session: "s1", Record: "knowledge/gone.md", How: metrics.HowSearch},
			{ID: "g2", Time: at(1), Session: "s2", Record: "knowledge/gone.md", How: metrics.HowSearch}},
		Ticks: []metrics.Tick{{Time: at(-100), Session: "x", From: 1, To: 1, Tokens: 20_000_000}, {Time: at(5), Session: "x", From: 2, To: 2, Tokens: 1_000_000}},
	}
	// the base's run file repeats h1 (moved by this machine) and adds h2
	run := metrics.EncodeRun(metrics.Data{Events: []metrics.Event{hot("h1", 1, "s1"), hot("h2", 2, "s2")}})
	rec := func(created string) []byte {
		return []byte("---\nkind: fact\ndescription: x\nmodel_invokation: false\nuser_invocable: false\ncreated_at: " + created + "\nupdated_at: " + created + "\n---\n# X\n")
	}
	base := record.MapSnapshot(map[string][]byte{
		"knowledge/hot.md":    rec("2026-01-01T00:00:00Z"),
		"knowledge/old.md":    rec("2026-01-01T00:00:00Z"),                     // before 21M tokens: unused
		"knowledge/young.md":  []byte(string(rec(at(1).Format(time.RFC3339)))), // 1M tokens: unknown
		"metrics/run-1.jsonl": run,
	})
	p := metrics.Params{Window: 10, Protect: 1.0, CandidateFrequency: 1.0, CandidateSessions: 2}
	reads := 0
	usage := JudgeUsage(func() (metrics.Data, error) { reads++; return local, nil }, p)
	got, candidates, err := usage(base)
	if err != nil {
		t.Fatal(err)
	}
	if reads != 1 {
		t.Errorf("the local usage was read %d times", reads)
	}
	if h := got["knowledge/hot.md"]; h.Uses != 3 || !h.Known || !h.Protected {
		t.Errorf("hot = %+v; want 3 uses (h1 once), protected", h)
	}
	if o := got["knowledge/old.md"]; !o.Known || !o.Unused || o.Protected {
		t.Errorf("old = %+v; want unused", o)
	}
	if y, ok := got["knowledge/young.md"]; ok {
		t.Errorf("young = %+v; want it left out (unknown)", y)
	}
	if _, ok := got["metrics/run-1.jsonl"]; ok {
		t.Error("a metrics file was judged as a record")
	}
	if !slices.Equal(candidates, []string{"knowledge/hot.md"}) {
		t.Errorf("candidates = %v; want hot only (gone is not in the base)", candidates)
	}

	// usage that cannot be read stops the run, naming what
	bad := record.MapSnapshot(map[string][]byte{"metrics/bad.jsonl": []byte("{nope\n")})
	if _, _, err := JudgeUsage(func() (metrics.Data, error) { return metrics.Data{}, nil }, p)(bad); err == nil || !bytes.Contains([]byte(err.Error()), []byte(".yoi/metrics/bad.jsonl")) {
		t.Errorf("a damaged run file: %v", err)
	}
	if _, _, err := JudgeUsage(func() (metrics.Data, error) { return metrics.Data{}, fmt.Errorf("journal broken") }, p)(base); err == nil {
		t.Error("a failed read was not an error")
	}
}

// TestLocalMetrics: a run moves this machine's pending usage as one run
// file; once marked moved (here by the mark as the lock keeps it) it is
// not pending again.
func TestLocalMetrics(t *testing.T) {
	l := metrics.Local{Dir: t.TempDir()}
	ev := metrics.Event{ID: "e1", Time: now, Session: "s1", Record: "knowledge/k.md", How: metrics.HowRead}
	if err := l.Append("s1", ev); err != nil {
		t.Fatal(err)
	}
	m := LocalMetrics{Local: l}
	content, mark, err := m.Pending("run-1")
	if err != nil {
		t.Fatal(err)
	}
	if want := metrics.EncodeRun(metrics.Data{Events: []metrics.Event{ev}}); !bytes.Equal(content, want) {
		t.Errorf("content = %s, want %s", content, want)
	}
	if err := m.Moved("run-1", mark); err != nil {
		t.Fatal(err)
	}
	content, _, err = m.Pending("run-2")
	if err != nil || len(content) != 0 {
		t.Errorf("after Moved: %q, %v", content, err)
	}
}
