package metrics

import (
	"sort"
	"time"

	"github.com/yoimem/git-yoimem/internal/tokens"
)

// Judge judges records' usage from one reading of the events and the
// token clock. Events with the same ID (an event pending in a journal and
// committed in a run file) count once; an event that names no record is
// damage and is not counted.
type Judge struct {
	clock  *Clock
	params Params
	uses   map[string][]Event // explicit invokes by record, by time
	inject map[string]int64   // tokens injected by record
}

// NewJudge indexes events by record.
func NewJudge(events []Event, clock *Clock, p Params) *Judge {
	j := &Judge{clock: clock, params: p, uses: map[string][]Event{}, inject: map[string]int64{}}
	events = dedupeIDs(events)
	for _, e := range invokes(events) {
		if e.Record != "" {
			j.uses[e.Record] = append(j.uses[e.Record], e)
		}
	}
	for _, e := range events {
		if e.How == HowInject && e.Record != "" {
			j.inject[e.Record] = tokens.Add(j.inject[e.Record], e.Tokens)
		}
	}
	return j
}

// Record judges one record (.yoi/-relative path) created at created (zero
// when not known: a record never invoked then stays unknown).
func (j *Judge) Record(path string, created time.Time) Judgement {
	return judge(j.uses[path], created, j.clock, j.params)
}

// Stats is the usage of every record that has events (uses or
// injections), by path. Its creation is not known here: a record with only
// injections is unknown, for want of uses.
func (j *Judge) Stats() []Stat {
	var out []Stat
	add := func(rec string) {
		s := Stat{Record: rec, Judgement: j.Record(rec, time.Time{}), InjectTokens: j.inject[rec]}
		if s.Uses == 0 {
			s.Reason = ReasonNoUses
		}
		out = append(out, s)
	}
	for rec := range j.uses {
		add(rec)
	}
	for rec := range j.inject {
		if _, used := j.uses[rec]; !used {
			add(rec)
		}
	}
	sort.Slice(out, func(a, b int) bool { return out[a].Record < out[b].Record })
	return out
}

// Candidates is the knowledge-candidate report (see the function
// Candidates) under the judge's Params.
func (j *Judge) Candidates() []Candidate {
	var out []Candidate
	for rec, uses := range j.uses {
		if c, ok := j.candidate(rec, uses); ok {
			out = append(out, c)
		}
	}
	sort.Slice(out, func(a, b int) bool {
		if out[a].Frequency != out[b].Frequency {
			return out[a].Frequency > out[b].Frequency
		}
		return out[a].Record < out[b].Record
	})
	return out
}

// candidate: the frequency counts a run of uses in one session once; the
// record must be known and not unused over all its uses.
func (j *Judge) candidate(rec string, uses []Event) (Candidate, bool) {
	if all := judge(uses, time.Time{}, j.clock, j.params); !all.Known || all.Unused {
		return Candidate{}, false
	}
	collapsed := collapseRuns(uses)
	sessions := map[string]bool{}
	for _, e := range collapsed {
		sessions[e.Session] = true
	}
	c := judge(collapsed, time.Time{}, j.clock, j.params)
	if !c.Known || c.Frequency < j.params.CandidateFrequency || len(sessions) < j.params.CandidateSessions {
		return Candidate{}, false
	}
	return Candidate{Record: rec, Frequency: c.Frequency, Uses: len(collapsed), Sessions: len(sessions)}, true
}

// Record is a record as usage judges it.
type Record struct {
	Path    string    // .yoi/-relative
	Created time.Time // created_at; zero when not known
}

// Report is what usage metrics give a consolidation run at its start.
type Report struct {
	// Usage of every record given, by path.
	Usage map[string]Judgement
	// Candidates is the knowledge-candidate report, restricted to the
	// records given (a record deleted since its uses is no source).
	Candidates []Candidate
}

// Report judges the records of a snapshot: every one of them, used or
// not, and the candidates among them.
func (j *Judge) Report(records []Record) Report {
	r := Report{Usage: make(map[string]Judgement, len(records))}
	for _, rec := range records {
		r.Usage[rec.Path] = j.Record(rec.Path, rec.Created)
	}
	for _, c := range j.Candidates() {
		if _, ok := r.Usage[c.Record]; ok {
			r.Candidates = append(r.Candidates, c)
		}
	}
	return r
}
