package metrics

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"time"

	"github.com/yoimem/git-yoimem/internal/tokens"
)

// How a record was used: found by a search, expanded from #slug (or shown
// by slug), expanded from a prompt's leading /slug command, read whole.
// Inject is a context cost, not a use: it never counts toward
// frequencies.
const (
	HowSearch = "search"
	HowSlug   = "slug"
	HowSlash  = "slash"
	HowRead   = "read"
	HowInject = "inject"
)

// Event is one use of a record.
type Event struct {
	ID      string    `json:"id"`
	Time    time.Time `json:"time"`
	Session string    `json:"session"`
	Record  string    `json:"record"` // path relative to .yoi/
	How     string    `json:"how"`
	// Tokens is the size of what was injected (HowInject only).
	Tokens int64 `json:"tokens,omitempty"`
}

// Tick is one reading of the token clock: the input tokens a session's
// API calls took in its log entries From..To (line numbers, inclusive),
// the latest of them at Time. Ticks are deltas, not running totals, so
// the ledgers of several sessions and clones add up without conflicts.
type Tick struct {
	Time    time.Time `json:"time"`
	Session string    `json:"session"`
	From    int       `json:"from"`
	To      int       `json:"to"`
	Tokens  int64     `json:"tokens"`
}

// Clock maps wall time to the workspace's cumulative input tokens.
type Clock struct {
	times []time.Time // by time
	cum   []int64     // cumulative tokens through times[i]
}

// NewClock builds a clock from ticks in any order. A tick whose range
// overlaps one already counted for its session (the same part of a log
// read twice, after machine-local state was lost) is not counted again. A
// reading out of range (negative, over tokens.Max) counts 0, and the total
// stops at tokens.Max.
func NewClock(ticks []Tick) *Clock {
	counted := dedupe(ticks)
	sort.SliceStable(counted, func(i, j int) bool { return counted[i].Time.Before(counted[j].Time) })
	c := &Clock{}
	var total int64
	for _, t := range counted {
		total = tokens.Add(total, t.Tokens) // out of range: 0; the total stops at tokens.Max
		c.times = append(c.times, t.Time)
		c.cum = append(c.cum, total)
	}
	return c
}

// dedupe keeps, per session, the ticks that begin after the last range
// kept, taking ranges by From and the longest first: a log read again from
// its start (its machine-local state lost) covers what was read before,
// and counts once, whatever order the ledger lists the readings in.
func dedupe(ticks []Tick) []Tick {
	sorted := append([]Tick(nil), ticks...)
	sort.SliceStable(sorted, func(i, j int) bool {
		a, b := sorted[i], sorted[j]
		if a.Session != b.Session {
			return a.Session < b.Session
		}
		if a.From != b.From {
			return a.From < b.From
		}
		return a.To > b.To
	})
	var out []Tick
	last := map[string]int{}
	for _, t := range sorted {
		if end, ok := last[t.Session]; ok && t.From <= end {
			continue
		}
		last[t.Session] = t.To
		out = append(out, t)
	}
	return out
}

// At is the cumulative tokens at t: through the last reading at or before
// t (0 before the first).
func (c *Clock) At(t time.Time) int64 {
	i := sort.Search(len(c.times), func(i int) bool { return c.times[i].After(t) })
	if i == 0 {
		return 0
	}
	return c.cum[i-1]
}

// Now is the latest reading.
func (c *Clock) Now() int64 {
	if len(c.cum) == 0 {
		return 0
	}
	return c.cum[len(c.cum)-1]
}

// Frequency is a record's use rate: its last window invokes (injections
// excluded) divided by the input tokens counted since the oldest of them,
// per million tokens. known is false without any invoke, and while no
// input tokens have been counted since the oldest one (no ledger yet, or
// no reading since): the rate is then unknown, neither low nor high.
// Events with the same ID count once.
func Frequency(events []Event, clock *Clock, window int) (freq float64, known bool) {
	j := judge(invokes(dedupeIDs(events)), time.Time{}, clock, Params{Window: window})
	return j.Frequency, j.Known && j.Uses > 0
}

// invokes keeps the explicit uses, by time.
func invokes(events []Event) []Event {
	var out []Event
	for _, e := range events {
		if e.How != HowInject {
			out = append(out, e)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Time.Before(out[j].Time) })
	return out
}

// dedupeIDs drops events whose ID came before (an event both pending in a
// journal and committed in a run file); events without an ID are kept.
func dedupeIDs(events []Event) []Event {
	seen := make(map[string]bool, len(events))
	out := make([]Event, 0, len(events))
	for _, e := range events {
		if e.ID != "" {
			if seen[e.ID] {
				continue
			}
			seen[e.ID] = true
		}
		out = append(out, e)
	}
	return out
}

// Protected reports whether a frequency protects a record from being
// dropped or heavily compressed (frequency >= threshold, default 1.0).
// An unknown frequency never does.
func Protected(freq float64, known bool, threshold float64) bool {
	return known && freq >= threshold
}

// Candidate is a record the knowledge-candidate report lists (Record
// .yoi/-relative, as events name it).
type Candidate struct {
	Record    string
	Frequency float64
	Uses      int // after collapsing runs within a session
	Sessions  int // distinct sessions
}

// Candidates is the knowledge-candidate report: records whose frequency,
// counting a run of consecutive uses within one session once, is at or
// above threshold, used in at least minSessions sessions. Ordered by
// frequency, then record. An unknown frequency is never a candidate.
// Without the protection frequency no record is judged unused here:
// Judge.Candidates (and Report) also leave unused records out.
func Candidates(events []Event, clock *Clock, window int, threshold float64, minSessions int) []Candidate {
	p := Params{Window: window, CandidateFrequency: threshold, CandidateSessions: minSessions}
	return NewJudge(events, clock, p).Candidates()
}

// collapseRuns keeps the first of each run of consecutive uses from the
// same session: a spike in one session is one use.
func collapseRuns(evs []Event) []Event {
	var out []Event
	for i, e := range evs {
		if i > 0 && evs[i-1].Session == e.Session {
			continue
		}
		out = append(out, e)
	}
	return out
}

// maxJournalLine bounds one line of a journal (an event is about 200
// bytes): a longer one is damage.
const maxJournalLine = 1 << 20

// ReadEvents reads a JSON Lines journal of events. A torn last line (a
// crash mid-append) is skipped; any other bad line is an error naming it.
func ReadEvents(r io.Reader, name string) ([]Event, error) {
	var out []Event
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), maxJournalLine)
	line := 0
	var pending error
	for sc.Scan() {
		line++
		if pending != nil {
			return nil, pending
		}
		if len(sc.Bytes()) == 0 {
			continue
		}
		var e Event
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			pending = damaged(Journal, name, line, "%w", err)
			continue
		}
		out = append(out, e)
	}
	if errors.Is(sc.Err(), bufio.ErrTooLong) {
		return nil, damaged(Journal, name, line+1, "a line of more than %d bytes", maxJournalLine)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", name, err)
	}
	return out, nil // a bad last line is a torn append
}

// WriteEvent appends one event as a JSON line.
func WriteEvent(w io.Writer, e Event) error {
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}
