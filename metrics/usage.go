package metrics

import (
	"math"
	"time"

	"github.com/yoimem/git-yoimem/internal/tokens"
)

// Params are the thresholds usage is judged by (yoimem.metrics.*).
type Params struct {
	Window             int     // yoimem.metrics.window: invokes in the frequency window; 0 counts them all
	Protect            float64 // yoimem.metrics.protectFrequency: invokes per Mtoken that protect a record
	CandidateFrequency float64 // yoimem.metrics.candidateFrequency
	CandidateSessions  int     // yoimem.metrics.candidateSessions
}

// UnusedSpan is the input tokens a record must go without an invoke to
// count as unused: the tokens in which the protection frequency would
// have needed Window invokes, Window × 1,000,000 / Protect (10 million with
// the defaults; a Window of 0 counts as 1). So an unused record is below
// the protection frequency whatever its older invokes. ok is false when
// Protect is 0: every known record is then protected, and none is unused.
func (p Params) UnusedSpan() (span int64, ok bool) {
	if !(p.Protect > 0) {
		return 0, false
	}
	s := float64(max(p.Window, 1)) * 1e6 / p.Protect
	if s >= float64(tokens.Max) || math.IsInf(s, 0) {
		return tokens.Max, true
	}
	return int64(s), true
}

// State is what usage says of a record, for the tidy-up.
type State int

// The states. Unknown is never a reason to drop or compress a record.
const (
	StateUnknown   State = iota // not enough input tokens counted to tell
	StateUnused                 // no invoke over the unused span
	StateUsed                   // invoked, below the protection frequency
	StateProtected              // at or above the protection frequency
)

// String returns "unknown", "unused", "used" or "protected".
func (s State) String() string {
	switch s {
	case StateUnused:
		return "unused"
	case StateUsed:
		return "used"
	case StateProtected:
		return "protected"
	}
	return "unknown"
}

// Usage is one record's usage. Its fields are those of
// consolidate.RecordUsage, in the same order, so that one converts to the
// other.
type Usage struct {
	Uses      int     // explicit invokes counted (injections are not uses)
	Frequency float64 // invokes per million input tokens, when Known
	// Known: the ledger has counted input tokens since the oldest invoke
	// of the window, or, for a record never invoked, more than the unused
	// span since it was created.
	Known     bool
	Unused    bool // Known, and no invoke over the last UnusedSpan tokens
	Protected bool // Known, not Unused, and Frequency >= Params.Protect
}

// State is the usage as one word.
func (u Usage) State() State {
	switch {
	case !u.Known:
		return StateUnknown
	case u.Unused:
		return StateUnused
	case u.Protected:
		return StateProtected
	}
	return StateUsed
}

// Judgement is a record's usage with what explains it.
type Judgement struct {
	Usage
	// Idle is the input tokens counted since the record's last invoke (or
	// since it was created, when it was never invoked).
	Idle   int64
	Reason string // why the usage is not Known; one of the Reason constants
}

// Why usage is unknown (Judgement.Reason).
const (
	ReasonNoUses    = "no uses, only context injections"
	ReasonNoLedger  = "no input tokens counted yet: extract feeds the token ledger from session logs"
	ReasonNoneSince = "no input tokens counted since the first use: extract feeds the token ledger from session logs"
	ReasonTooNew    = "never invoked, and not yet the unused span of input tokens counted since it was created"
	ReasonNoCreated = "never invoked, and its created_at is not known"
	ReasonNoSpan    = "never invoked, and with yoimem.metrics.protectFrequency 0 no record counts as unused"
)

// judge is the usage of one record from its invokes (deduplicated, by
// time), the time it was created (zero: not known) and the clock.
func judge(uses []Event, created time.Time, clock *Clock, p Params) Judgement {
	j := Judgement{Usage: Usage{Uses: len(uses)}}
	now := clock.Now()
	span, spanOK := p.UnusedSpan()
	if len(uses) == 0 {
		return judgeNeverInvoked(j, created, clock, span, spanOK)
	}
	window := uses
	if p.Window > 0 && len(window) > p.Window {
		window = window[len(window)-p.Window:]
	}
	elapsed := now - clock.At(window[0].Time)
	switch {
	case now == 0:
		j.Reason = ReasonNoLedger
		return j
	case elapsed < 1:
		j.Reason = ReasonNoneSince
		return j
	}
	j.Known = true
	j.Frequency = float64(len(window)) * 1e6 / float64(elapsed)
	j.Idle = now - clock.At(uses[len(uses)-1].Time)
	j.Unused = spanOK && j.Idle > span
	j.Protected = !j.Unused && j.Frequency >= p.Protect
	return j
}

// judgeNeverInvoked: a record nobody invoked is unused once more than the
// unused span of tokens has been counted since it was created; until then,
// or when its creation is not known, its usage is unknown.
func judgeNeverInvoked(j Judgement, created time.Time, clock *Clock, span int64, spanOK bool) Judgement {
	now := clock.Now()
	switch {
	case now == 0:
		j.Reason = ReasonNoLedger
	case created.IsZero():
		j.Reason = ReasonNoCreated
	default:
		j.Idle = now - clock.At(created)
		switch {
		case !spanOK:
			j.Reason = ReasonNoSpan
		case j.Idle > span:
			j.Known, j.Unused = true, true
		default:
			j.Reason = ReasonTooNew
		}
	}
	return j
}
