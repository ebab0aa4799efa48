package metrics

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func at(m int) time.Time { return t0.Add(time.Duration(m) * time.Minute) }

// clock: one million tokens per 10 minutes.
func clock(minutes int) *Clock {
	var ticks []Tick
	for m := 10; m <= minutes; m += 10 {
		ticks = append(ticks, Tick{Time: at(m), Session: "s", From: m, To: m + 9, Tokens: 1_000_000})
	}
	return NewClock(ticks)
}

func TestClock(t *testing.T) {
	c := clock(60)
	if c.At(t0.Add(-time.Hour)) != 0 || c.At(at(15)) != 1_000_000 || c.Now() != 6_000_000 {
		t.Fatalf("At/Now: %d %d %d", c.At(t0.Add(-time.Hour)), c.At(at(15)), c.Now())
	}
}

// TestClockDedupesRereadRanges: the same part of a session log fed twice
// counts once; other sessions and later ranges add up. The re-read range
// covering the others is the one counted, at its own time.
func TestClockDedupesRereadRanges(t *testing.T) {
	c := NewClock([]Tick{
		{Time: at(1), Session: "a", From: 1, To: 10, Tokens: 100},
		{Time: at(2), Session: "b", From: 1, To: 5, Tokens: 50},
		{Time: at(3), Session: "a", From: 11, To: 20, Tokens: 200},
		{Time: at(4), Session: "a", From: 1, To: 20, Tokens: 300}, // re-read
		{Time: at(5), Session: "a", From: 5, To: 12, Tokens: 70},  // overlaps
	})
	if c.Now() != 350 || c.At(at(2)) != 50 || c.At(at(4)) != 350 || c.At(at(0)) != 0 {
		t.Errorf("Now %d, At(2) %d, At(4) %d, At(0) %d; want 350, 50, 350, 0", c.Now(), c.At(at(2)), c.At(at(4)), c.At(at(0)))
	}
}

func TestFrequency(t *testing.T) {
	c := clock(100) // now: 10M tokens
	tests := []struct {
		name   string
		events []Event
		window int
		want   float64
		known  bool
	}{
		{"none", nil, 10, 0, false},
		{"injections do not count", []Event{{Time: at(0), How: HowInject, Tokens: 50}}, 10, 0, false},
		{"two uses over 10M tokens", []Event{{Time: at(0), How: HowSearch}, {Time: at(50), How: HowSlug}}, 10, 0.2, true},
		{"window keeps the last uses", []Event{{Time: at(0), How: HowRead}, {Time: at(50), How: HowRead}, {Time: at(90), How: HowRead}}, 2, 2.0 / 5, true},
		{"all at the last reading: no tokens since", []Event{{Time: at(100), How: HowRead}}, 10, 0, false},
	}
	for _, tt := range tests {
		got, known := Frequency(tt.events, c, tt.window)
		if known != tt.known || math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: %v %v, want %v %v", tt.name, got, known, tt.want, tt.known)
		}
	}
	if !Protected(1.0, true, 1.0) || Protected(0.99, true, 1.0) || Protected(5, false, 1.0) {
		t.Error("Protected")
	}
}

func TestCandidates(t *testing.T) {
	c := clock(100)
	ev := func(m int, session, rec string) Event {
		return Event{Time: at(m), Session: session, Record: rec, How: HowSearch}
	}
	events := []Event{
		// a spike in one session: one use, one session -> not a candidate
		ev(90, "s1", "memory/requests/spike.md"), ev(91, "s1", "memory/requests/spike.md"), ev(92, "s1", "memory/requests/spike.md"),
		// used across sessions
		ev(60, "s1", "memory/decisions/db.md"), ev(70, "s2", "memory/decisions/db.md"), ev(80, "s2", "memory/decisions/db.md"), ev(95, "s3", "memory/decisions/db.md"),
		// across sessions but rarely
		ev(0, "s1", "memory/requests/rare.md"), ev(50, "s2", "memory/requests/rare.md"),
	}
	got := Candidates(events, c, 10, 0.5, 2)
	if len(got) != 1 || got[0].Record != "memory/decisions/db.md" || got[0].Uses != 3 || got[0].Sessions != 3 {
		t.Fatalf("candidates %+v", got)
	}
}

func TestJournalRoundTrip(t *testing.T) {
	var b bytes.Buffer
	in := []Event{{ID: "a", Time: at(1), Session: "s", Record: "knowledge/k.md", How: HowSlug}, {ID: "b", Time: at(2), Session: "s", Record: "knowledge/k.md", How: HowInject, Tokens: 12}}
	for _, e := range in {
		if err := WriteEvent(&b, e); err != nil {
			t.Fatal(err)
		}
	}
	b.WriteString(`{"id":"torn","ti`) // a crash mid-append
	out, err := ReadEvents(&b, "journal")
	if err != nil || len(out) != 2 || out[1].Tokens != 12 || !out[0].Time.Equal(at(1)) {
		t.Fatalf("%v %+v", err, out)
	}
	if _, err := ReadEvents(strings.NewReader("not json\n{\"id\":\"x\"}\n"), "j"); err == nil || !strings.Contains(err.Error(), "j:1:") {
		t.Fatalf("a bad line before the end: %v", err)
	}
}

func TestLocalAndStats(t *testing.T) {
	l := Local{Dir: t.TempDir()}
	if err := l.Append("../x", Event{}); err == nil {
		t.Fatal("a session id with a path was accepted")
	}
	for m := 10; m <= 100; m += 10 {
		if err := l.Tick(Tick{Time: at(m), Session: "s", From: m, To: m + 9, Tokens: 1_000_000}); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Append("s1", Event{ID: "1", Time: at(10), Session: "s1", Record: "knowledge/k.md", How: HowSearch}, Event{ID: "2", Time: at(20), Session: "s1", Record: "knowledge/k.md", How: HowInject, Tokens: 40}); err != nil {
		t.Fatal(err)
	}
	if err := l.Append("s2", Event{ID: "3", Time: at(90), Session: "s2", Record: "knowledge/k.md", How: HowSlug}, Event{ID: "1", Time: at(10), Session: "s1", Record: "knowledge/k.md", How: HowSearch}); err != nil {
		t.Fatal(err)
	}
	events, err := l.Events()
	if err != nil || len(events) != 4 {
		t.Fatalf("%v %d", err, len(events))
	}
	c, err := l.Clock()
	if err != nil || c.Now() != 10_000_000 {
		t.Fatalf("clock %v", err)
	}
	stats := Stats(events, c, 10, 1.0)
	// two uses (event 1 counted once) since 1M tokens: 2 / 9M per million
	if len(stats) != 1 || stats[0].Uses != 2 || stats[0].InjectTokens != 40 || math.Abs(stats[0].Frequency-2.0/9) > 1e-9 || stats[0].Protected {
		t.Fatalf("stats %+v", stats)
	}
}

// TestClockRereadFromStartCountsOnce: a log read again from its start
// covers the earlier readings; the clock is the same in either order.
func TestClockRereadFromStartCountsOnce(t *testing.T) {
	a := Tick{Time: at(1), Session: "s", From: 1, To: 10, Tokens: 100}
	b := Tick{Time: at(2), Session: "s", From: 1, To: 20, Tokens: 200}
	for _, ticks := range [][]Tick{{a, b}, {b, a}} {
		if got := NewClock(ticks).Now(); got != 200 {
			t.Errorf("Now() = %d for %v, want 200", got, ticks)
		}
	}
}

// TestUnknownFrequency: without input tokens counted since the first use
// a frequency is unknown, with its reason: never protected, never a
// candidate (it used to be a million per Mtoken, "as frequent as can be").
func TestUnknownFrequency(t *testing.T) {
	ev := func(m int, session string, how string) Event {
		return Event{ID: fmt.Sprint(m, session), Time: at(m), Session: session, Record: "knowledge/k.md", How: how}
	}
	uses := []Event{ev(10, "s1", HowSearch), ev(20, "s2", HowSlug)}
	for _, tc := range []struct {
		name   string
		clock  *Clock
		events []Event
		reason string
	}{
		{"no ledger", NewClock(nil), uses, ReasonNoLedger},
		{"readings only before the uses", NewClock([]Tick{{Time: at(5), Session: "x", From: 1, To: 2, Tokens: 500}}), uses, ReasonNoneSince},
		{"readings at the first use only", NewClock([]Tick{{Time: at(10), Session: "x", From: 1, To: 2, Tokens: 500}}), uses, ReasonNoneSince},
		{"injections only", clock(100), []Event{ev(10, "s1", HowInject)}, ReasonNoUses},
	} {
		stats := Stats(tc.events, tc.clock, 10, 1.0)
		if len(stats) != 1 {
			t.Fatalf("%s: %+v", tc.name, stats)
		}
		s := stats[0]
		if s.Known || s.Protected || s.Frequency != 0 || s.Reason != tc.reason {
			t.Errorf("%s: %+v, want unknown: %s", tc.name, s, tc.reason)
		}
		if _, known := Frequency(tc.events, tc.clock, 10); known {
			t.Errorf("%s: Frequency known", tc.name)
		}
		if c := Candidates(tc.events, tc.clock, 10, 0, 1); len(c) != 0 {
			t.Errorf("%s: unknown frequency made a candidate: %+v", tc.name, c)
		}
	}
	// a reading after the first use makes it known
	c := NewClock([]Tick{{Time: at(15), Session: "x", From: 1, To: 2, Tokens: 4_000_000}})
	if s := Stats(uses, c, 10, 0.1)[0]; !s.Known || s.Reason != "" || math.Abs(s.Frequency-0.5) > 1e-9 || !s.Protected {
		t.Errorf("known: %+v", s)
	}
}
