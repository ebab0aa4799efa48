package metrics

import (
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/yoimem/git-yoimem/internal/tokens"
)

func TestUnusedSpan(t *testing.T) {
	tests := []struct {
		p    Params
		want int64
		ok   bool
	}{
		{Params{Window: 10, Protect: 1}, 10_000_000, true},
		{Params{Window: 10, Protect: 2}, 5_000_000, true},
		{Params{Window: 3, Protect: 0.5}, 6_000_000, true},
		{Params{Window: 0, Protect: 1}, 1_000_000, true}, // every invoke counts: the span of one
		{Params{Window: 10, Protect: 1e-30}, tokens.Max, true},
		{Params{Window: 10, Protect: 0}, 0, false},
		{Params{Window: 10, Protect: math.NaN()}, 0, false},
	}
	for _, tt := range tests {
		got, ok := tt.p.UnusedSpan()
		if got != tt.want || ok != tt.ok {
			t.Errorf("%+v: %d %v, want %d %v", tt.p, got, ok, tt.want, tt.ok)
		}
	}
}

// ledger returns a clock with the given readings: minute -> tokens.
func ledger(readings ...[2]int64) *Clock {
	var ticks []Tick
	for i, r := range readings {
		ticks = append(ticks, Tick{Time: at(int(r[0])), Session: "x", From: 10 * i, To: 10*i + 9, Tokens: r[1]})
	}
	return NewClock(ticks)
}

// TestJudgeBoundaries: usage is unknown until the ledger has counted
// tokens over the record's window, and only then unused, used or
// protected; the boundaries on each side. Defaults: window 10, protect
// 1.0, so the unused span is 10 million tokens.
func TestJudgeBoundaries(t *testing.T) {
	p := Params{Window: 10, Protect: 1}
	use := func(minutes ...int) []Event {
		var out []Event
		for i, m := range minutes {
			out = append(out, Event{ID: fmt.Sprint("e", i), Time: at(m), Session: "s", Record: "knowledge/k.md", How: HowSearch})
		}
		return out
	}
	created := at(0)
	tests := []struct {
		name    string
		events  []Event
		created time.Time
		clock   *Clock
		state   State
		reason  string
		freq    float64
		idle    int64
	}{
		{"used, no ledger", use(10), created, ledger(), StateUnknown, ReasonNoLedger, 0, 0},
		{"used, ledger of zero tokens", use(10), created, ledger([2]int64{20, 0}), StateUnknown, ReasonNoLedger, 0, 0},
		{"used, ledger before the first use only", use(10, 20), created, ledger([2]int64{5, 500}), StateUnknown, ReasonNoneSince, 0, 0},
		{"used, a reading at the first use", use(10), created, ledger([2]int64{10, 500}), StateUnknown, ReasonNoneSince, 0, 0},
		{"used, one token after", use(10), created, ledger([2]int64{10, 500}, [2]int64{11, 1}), StateProtected, "", 1e6, 1},
		{"used, the window's oldest use after the readings", use(1, 30, 31, 32, 33, 34, 35, 36, 37, 38, 39), created, ledger([2]int64{5, 500}, [2]int64{10, 500}), StateUnknown, ReasonNoneSince, 0, 0},
		{"used, just below protection", use(10), created, ledger([2]int64{11, 1_000_001}), StateUsed, "", 1e6 / 1_000_001, 1_000_001},
		{"used, at protection", use(10), created, ledger([2]int64{11, 1_000_000}), StateProtected, "", 1, 1_000_000},
		{"used, idle the whole span", use(10), created, ledger([2]int64{11, 10_000_000}), StateUsed, "", 0.1, 10_000_000},
		{"used, idle past the span", use(10), created, ledger([2]int64{11, 10_000_001}), StateUnused, "", 1e6 / 10_000_001.0, 10_000_001},
		{"used often, then idle past the span", use(10, 11, 12, 13, 14, 15, 16, 17, 18, 19), created, ledger([2]int64{12, 1}, [2]int64{20, 10_000_001}), StateUnused, "", 10e6 / 10_000_002.0, 10_000_001},
		{"never used, no ledger", nil, created, ledger(), StateUnknown, ReasonNoLedger, 0, 0},
		{"never used, no created_at", nil, time.Time{}, ledger([2]int64{11, 50_000_000}), StateUnknown, ReasonNoCreated, 0, 0},
		{"never used, ledger before creation only", nil, at(30), ledger([2]int64{11, 50_000_000}), StateUnknown, ReasonTooNew, 0, 0},
		{"never used, the whole span since creation", nil, created, ledger([2]int64{11, 10_000_000}), StateUnknown, ReasonTooNew, 0, 10_000_000},
		{"never used, past the span since creation", nil, created, ledger([2]int64{11, 10_000_001}), StateUnused, "", 0, 10_000_001},
		{"never used, span counted partly before creation", nil, at(20), ledger([2]int64{11, 10_000_001}, [2]int64{30, 5}), StateUnknown, ReasonTooNew, 0, 5},
		{"injections only are no use", []Event{{ID: "i", Time: at(10), Record: "knowledge/k.md", How: HowInject, Tokens: 9}}, created, ledger([2]int64{11, 10_000_001}), StateUnused, "", 0, 10_000_001},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := NewJudge(tt.events, tt.clock, p).Record("knowledge/k.md", tt.created)
			if got.State() != tt.state || got.Reason != tt.reason || math.Abs(got.Frequency-tt.freq) > 1e-12 || got.Idle != tt.idle {
				t.Errorf("%+v (%s), want %s %q freq %v idle %d", got, got.State(), tt.state, tt.reason, tt.freq, tt.idle)
			}
			if got.Known == (got.Reason != "") {
				t.Errorf("Known %v with reason %q", got.Known, got.Reason)
			}
			if !got.Known && (got.Unused || got.Protected || got.Frequency != 0) {
				t.Errorf("unknown usage judged: %+v", got)
			}
			if got.Unused && got.Protected {
				t.Errorf("unused and protected: %+v", got)
			}
			if got.Unused && got.Frequency >= p.Protect {
				t.Errorf("unused at the protection frequency: %+v", got)
			}
		})
	}
}

// TestProtectZero: with protectFrequency 0 every known record is
// protected and none is unused; a record never invoked stays unknown.
func TestProtectZero(t *testing.T) {
	p := Params{Window: 10, Protect: 0}
	c := ledger([2]int64{11, 1 << 40})
	j := NewJudge([]Event{{ID: "a", Time: at(10), Record: "r", How: HowRead}}, c, p)
	if u := j.Record("r", at(0)); u.State() != StateProtected {
		t.Errorf("used: %+v", u)
	}
	if u := j.Record("never", at(0)); u.State() != StateUnknown || u.Reason != ReasonNoSpan {
		t.Errorf("never used: %+v", u)
	}
}

// TestReport: every record given is judged, used or not; candidates are
// the records given that qualify; an unused record is no candidate even
// when the candidate frequency is below the protection frequency.
func TestReport(t *testing.T) {
	p := Params{Window: 10, Protect: 1, CandidateFrequency: 0.01, CandidateSessions: 2}
	c := ledger([2]int64{5, 1}, [2]int64{25, 20_000_000}, [2]int64{92, 1_000_000}, [2]int64{100, 1_000_000})
	ev := func(id string, m int, session, rec string) Event {
		return Event{ID: id, Time: at(m), Session: session, Record: rec, How: HowSlug}
	}
	events := []Event{
		ev("1", 90, "s1", "knowledge/hot.md"), ev("2", 95, "s2", "knowledge/hot.md"),
		ev("3", 10, "s1", "memory/requests/old.md"), ev("4", 20, "s2", "memory/requests/old.md"),
		ev("5", 90, "s1", "knowledge/deleted.md"), ev("6", 95, "s2", "knowledge/deleted.md"),
	}
	records := []Record{
		{Path: "knowledge/hot.md", Created: at(0)},
		{Path: "memory/requests/old.md", Created: at(0)},
		{Path: "memory/decisions/nobody.md", Created: at(0)},
		{Path: "memory/decisions/new.md", Created: at(99)},
	}
	r := NewJudge(events, c, p).Report(records)
	want := map[string]State{
		"knowledge/hot.md":           StateProtected,
		"memory/requests/old.md":     StateUnused,
		"memory/decisions/nobody.md": StateUnused,
		"memory/decisions/new.md":    StateUnknown,
	}
	if len(r.Usage) != len(want) {
		t.Errorf("usage of %d records, want %d: %+v", len(r.Usage), len(want), r.Usage)
	}
	for path, st := range want {
		if got := r.Usage[path].State(); got != st {
			t.Errorf("%s: %s (%+v), want %s", path, got, r.Usage[path], st)
		}
	}
	if len(r.Candidates) != 1 || r.Candidates[0].Record != "knowledge/hot.md" {
		t.Errorf("candidates %+v, want knowledge/hot.md only", r.Candidates)
	}
}

// TestDuplicatesCountOnce: an event read twice (pending in a journal and
// committed in a run file) counts once in every figure.
func TestDuplicatesCountOnce(t *testing.T) {
	c := clock(100)
	once := []Event{
		{ID: "a", Time: at(0), Session: "s1", Record: "knowledge/k.md", How: HowSearch},
		{ID: "b", Time: at(50), Session: "s2", Record: "knowledge/k.md", How: HowSlug},
		{ID: "c", Time: at(60), Session: "s2", Record: "knowledge/k.md", How: HowInject, Tokens: 7},
	}
	twice := append(append([]Event(nil), once...), once...)
	f1, k1 := Frequency(once, c, 10)
	f2, k2 := Frequency(twice, c, 10)
	if f1 != f2 || k1 != k2 || math.Abs(f1-0.2) > 1e-12 {
		t.Errorf("Frequency: once %v %v, twice %v %v", f1, k1, f2, k2)
	}
	s := Stats(twice, c, 10, 1)
	if len(s) != 1 || s[0].Uses != 2 || s[0].InjectTokens != 7 {
		t.Errorf("Stats: %+v", s)
	}
	c1 := Candidates(once, c, 10, 0.1, 2)
	c2 := Candidates(twice, c, 10, 0.1, 2)
	if len(c1) != 1 || len(c2) != 1 || c1[0] != c2[0] {
		t.Errorf("Candidates: once %+v, twice %+v", c1, c2)
	}
}

// TestEventWithoutRecord: a damaged event naming no record counts for
// nothing.
func TestEventWithoutRecord(t *testing.T) {
	s := Stats([]Event{{ID: "x", Time: at(1), How: HowRead}}, clock(100), 10, 1)
	if len(s) != 0 {
		t.Errorf("stats %+v", s)
	}
}
