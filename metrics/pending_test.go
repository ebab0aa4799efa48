package metrics

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func appendEvents(t *testing.T, l Local, session string, ids ...string) {
	t.Helper()
	for _, id := range ids {
		e := Event{ID: id, Time: at(len(id)), Session: session, Record: "knowledge/k.md", How: HowSearch}
		if err := l.Append(session, e); err != nil {
			t.Fatal(err)
		}
	}
}

func tick(t *testing.T, l Local, from int, tokens int64) {
	t.Helper()
	if err := l.Tick(Tick{Time: at(from), Session: "x", From: from, To: from, Tokens: tokens}); err != nil {
		t.Fatal(err)
	}
}

// commitRun plays a consolidation run: what is pending goes into
// committed/<run>.jsonl (the run's memory commit, as the working tree has
// it once merged); mark says whether the run got to mark it moved.
func commitRun(t *testing.T, l Local, committed, run string, mark bool) Pending {
	t.Helper()
	p, err := l.Pending()
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(committed, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(committed, run+".jsonl"), EncodeRun(p.Data), 0o644); err != nil {
		t.Fatal(err)
	}
	if mark {
		if err := l.MarkMoved(run, p); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// statsOf is what stats reads: every local journal and the ledger (moved
// or not) with the committed run files.
func statsOf(t *testing.T, l Local, yoi string) (uses int, tokens int64) {
	t.Helper()
	local, err := l.Read()
	if err != nil {
		t.Fatal(err)
	}
	runs, err := ReadRunFiles(yoi)
	if err != nil {
		t.Fatal(err)
	}
	d := local.Add(runs)
	for _, s := range Stats(d.Events, NewClock(d.Ticks), 10, 1) {
		uses += s.Uses
	}
	return uses, NewClock(d.Ticks).Now()
}

// TestPendingMovedOnce: Pending gives what no run has moved yet; once a
// run marks it moved the next run does not move it again; events staged
// meanwhile stay pending; and stats counts every event and reading once,
// pending or committed or both.
func TestPendingMovedOnce(t *testing.T) {
	l := Local{Dir: t.TempDir()}
	yoi := t.TempDir()
	committed := filepath.Join(yoi, "metrics")
	appendEvents(t, l, "s1", "a", "bb")
	appendEvents(t, l, "s2", "ccc")
	tick(t, l, 1, 100)
	if u, n := statsOf(t, l, yoi); u != 3 || n != 100 {
		t.Fatalf("before any run: %d uses, %d tokens", u, n)
	}

	p := commitRun(t, l, committed, "run-1", true)
	if len(p.Events) != 3 || len(p.Ticks) != 1 {
		t.Fatalf("run 1 moved %+v", p.Data)
	}
	if u, n := statsOf(t, l, yoi); u != 3 || n != 100 {
		t.Errorf("after run 1: %d uses, %d tokens; want 3, 100", u, n)
	}

	appendEvents(t, l, "s1", "dddd")
	appendEvents(t, l, "s3", "eeeee")
	tick(t, l, 2, 50)
	p, err := l.Pending()
	if err != nil || len(p.Events) != 2 || p.Events[0].ID != "dddd" && p.Events[1].ID != "dddd" || len(p.Ticks) != 1 || p.Ticks[0].Tokens != 50 {
		t.Fatalf("pending after run 1: %+v, %v", p.Data, err)
	}
	commitRun(t, l, committed, "run-2", true)
	if p, err := l.Pending(); err != nil || len(p.Events)+len(p.Ticks) != 0 {
		t.Fatalf("pending after run 2: %+v, %v", p.Data, err)
	}
	if u, n := statsOf(t, l, yoi); u != 5 || n != 150 {
		t.Errorf("after run 2: %d uses, %d tokens; want 5, 150", u, n)
	}
}

// TestPendingCrashBeforeMark: a run that committed but died before
// marking leaves its events pending; the next run moves them again, and
// they still count once.
func TestPendingCrashBeforeMark(t *testing.T) {
	l := Local{Dir: t.TempDir()}
	yoi := t.TempDir()
	committed := filepath.Join(yoi, "metrics")
	appendEvents(t, l, "s1", "a", "bb")
	tick(t, l, 1, 100)
	commitRun(t, l, committed, "run-1", false)
	p := commitRun(t, l, committed, "run-2", true)
	if len(p.Events) != 2 || len(p.Ticks) != 1 {
		t.Fatalf("run 2 moved %+v", p.Data)
	}
	if u, n := statsOf(t, l, yoi); u != 2 || n != 100 {
		t.Errorf("%d uses, %d tokens; want 2, 100", u, n)
	}
}

// TestPendingPartialLine: a line still being appended (no newline yet) is
// not pending and not marked; once complete it is.
func TestPendingPartialLine(t *testing.T) {
	l := Local{Dir: t.TempDir()}
	appendEvents(t, l, "s1", "a")
	path := filepath.Join(l.Dir, "events", "s1.jsonl")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	line := `{"id":"b","time":"2026-01-01T00:02:00Z","session":"s1","record":"knowledge/k.md","how":"read"}` + "\n"
	fmt.Fprint(f, line[:30])
	p, err := l.Pending()
	if err != nil || len(p.Events) != 1 {
		t.Fatalf("with a partial line: %+v, %v", p.Data, err)
	}
	if err := l.MarkMoved("run-1", p); err != nil {
		t.Fatal(err)
	}
	fmt.Fprint(f, line[30:])
	f.Close()
	p, err = l.Pending()
	if err != nil || len(p.Events) != 1 || p.Events[0].ID != "b" {
		t.Fatalf("once complete: %+v, %v", p.Data, err)
	}
}

// TestPendingReplacedFiles: a journal or ledger removed and begun again
// (machine-local state lost, or cleaned by hand) is pending from its
// start, whether it is shorter or longer than what was marked.
func TestPendingReplacedFiles(t *testing.T) {
	l := Local{Dir: t.TempDir()}
	appendEvents(t, l, "s1", "a", "bb", "ccc")
	tick(t, l, 1, 100)
	p, _ := l.Pending()
	if err := l.MarkMoved("run-1", p); err != nil {
		t.Fatal(err)
	}
	os.Remove(filepath.Join(l.Dir, "events", "s1.jsonl"))
	os.Remove(filepath.Join(l.Dir, "ledger.jsonl"))
	appendEvents(t, l, "s1", "x")
	for i := 0; i < 5; i++ {
		tick(t, l, 10+i, 7)
	}
	p, err := l.Pending()
	if err != nil || len(p.Events) != 1 || p.Events[0].ID != "x" || len(p.Ticks) != 5 {
		t.Fatalf("pending: %+v, %v", p.Data, err)
	}
}

// TestPendingBadLines: a damaged line in the part not yet moved is an
// error naming the file and its line (counted from the file's start); a
// bad last line may be a torn append: it is left pending, not moved past.
func TestPendingBadLines(t *testing.T) {
	l := Local{Dir: t.TempDir()}
	appendEvents(t, l, "s1", "a", "bb")
	p, _ := l.Pending()
	if err := l.MarkMoved("run-1", p); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(l.Dir, "events", "s1.jsonl")
	f, _ := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	fmt.Fprint(f, "{torn\n")
	p, err := l.Pending()
	if err != nil || len(p.Events) != 0 {
		t.Fatalf("a bad last line: %+v, %v", p.Data, err)
	}
	if err := l.MarkMoved("run-2", p); err != nil {
		t.Fatal(err)
	}
	f.Close()
	appendEvents(t, l, "s1", "ccc")
	if _, err := l.Pending(); err == nil || !strings.Contains(err.Error(), "s1.jsonl:3:") {
		t.Fatalf("a bad line before the last: %v", err)
	}
	os.WriteFile(path, []byte(`{"id":"z","how":"read"}`+"\n"+`{"id":"y","record":"knowledge/k.md","how":"read"}`+"\n"), 0o644)
	if _, err := l.Pending(); err == nil || !strings.Contains(err.Error(), "s1.jsonl:1: an event names no record") {
		t.Fatalf("an event without a record: %v", err)
	}
	os.WriteFile(filepath.Join(l.Dir, "ledger.jsonl"), []byte(`{"time":"2026-01-01T00:01:00Z","session":"x","from":1,"to":1,"tokens":-1}`+"\n"+`{"time":"2026-01-01T00:01:00Z","session":"x","from":2,"to":2,"tokens":1}`+"\n"), 0o644)
	os.Remove(path)
	if _, err := l.Pending(); err == nil || !strings.Contains(err.Error(), "ledger.jsonl:1: tokens -1 out of range") {
		t.Fatalf("a reading out of range: %v", err)
	}
}

// TestMovedFileDamaged: a damaged record of what was moved is an error
// naming it (removing it only makes the next run move everything again,
// which still counts once).
func TestMovedFileDamaged(t *testing.T) {
	l := Local{Dir: t.TempDir()}
	appendEvents(t, l, "s1", "a")
	if err := os.WriteFile(filepath.Join(l.Dir, "moved.json"), []byte("{nope"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := l.Pending(); err == nil || !strings.Contains(err.Error(), "moved.json") {
		t.Fatalf("Pending: %v", err)
	}
	if err := l.MarkMoved("bad/run", Pending{}); err == nil {
		t.Fatal("a bad run id was accepted")
	}
}

// TestPendingEmpty: nothing recorded yet is nothing pending, and marking
// it is harmless.
func TestPendingEmpty(t *testing.T) {
	l := Local{Dir: filepath.Join(t.TempDir(), "yoimem")}
	p, err := l.Pending()
	if err != nil || len(p.Events)+len(p.Ticks) != 0 {
		t.Fatalf("%+v, %v", p.Data, err)
	}
	if err := l.MarkMoved("run-1", p); err != nil {
		t.Fatal(err)
	}
}

// TestMarkRoundTrip: what a Pending covers, as JSON (what the
// consolidation lock keeps), marks the same lines moved in another
// process as the Pending itself would; a mark that does not read as one
// is an error naming it, and marks nothing.
func TestMarkRoundTrip(t *testing.T) {
	l := Local{Dir: t.TempDir()}
	appendEvents(t, l, "s1", "a", "bb")
	tick(t, l, 1, 100)
	p, err := l.Pending()
	if err != nil {
		t.Fatal(err)
	}
	mark, err := p.Mark()
	if err != nil {
		t.Fatal(err)
	}
	appendEvents(t, l, "s1", "ccc") // staged after the run read its pending usage
	for _, bad := range []string{`{nope`, `[1]`, `{"events/s1.jsonl": {"offset": -1}}`, `{"../x": {"offset": 1}}`} {
		if err := l.MarkMovedAt("run-1", []byte(bad)); err == nil || !strings.Contains(err.Error(), "usage mark") {
			t.Errorf("mark %s: %v", bad, err)
		}
	}
	if q, _ := l.Pending(); len(q.Events) != 3 {
		t.Fatalf("a bad mark moved something: %+v", q.Data)
	}
	if err := l.MarkMovedAt("run-1", mark); err != nil {
		t.Fatal(err)
	}
	q, err := l.Pending()
	if err != nil || len(q.Events) != 1 || q.Events[0].ID != "ccc" || len(q.Ticks) != 0 {
		t.Fatalf("after the mark: %+v, %v", q.Data, err)
	}
	// again: the same mark, as a run finishing a crashed one gives it
	if err := l.MarkMovedAt("run-1", mark); err != nil {
		t.Fatal(err)
	}
	if q, _ := l.Pending(); len(q.Events) != 1 {
		t.Fatalf("the mark given twice: %+v", q.Data)
	}
	// nothing pending: an empty mark, which marks nothing
	empty, err := (Pending{}).Mark()
	if err != nil || l.MarkMovedAt("run-2", empty) != nil {
		t.Fatalf("empty mark %s: %v", empty, err)
	}
}
