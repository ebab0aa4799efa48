package consolidate

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
)

// The usage a run works from and the usage its commit moves, over usage
// metrics (docs/retrieval.md, "Usage metrics"; DESIGN 9).

// JudgeUsage is a Runner.Usage: it judges every record of the base by
// the usage data reads at the start of the run (this machine's journals
// and ledger, moved or not, and the working tree's run files) together
// with the run files the base commits; an event or reading found in
// several counts once. A record whose usage is unknown (and unused) is
// left out, which a run reads as unknown: never dropped. The candidates
// are the knowledge-candidate report's records that the base has.
func JudgeUsage(data func() (metrics.Data, error), p metrics.Params) func(record.Snapshot) (map[string]RecordUsage, []string, error) {
	return func(base record.Snapshot) (map[string]RecordUsage, []string, error) {
		d, err := data()
		if err != nil {
			return nil, nil, err
		}
		committed, err := metrics.ReadRuns(base)
		if err != nil {
			return nil, nil, err
		}
		d = d.Add(committed)
		j := metrics.NewJudge(d.Events, metrics.NewClock(d.Ticks), p)
		rep := j.Report(baseRecords(base, j))
		usage := make(map[string]RecordUsage, len(rep.Usage))
		for path, u := range rep.Usage {
			if u.Known || u.Uses > 0 {
				usage[path] = RecordUsage(u.Usage)
			}
		}
		var candidates []string
		for _, c := range rep.Candidates {
			candidates = append(candidates, c.Record)
		}
		return usage, candidates, nil
	}
}

// baseRecords are the records of base as usage judges them. created_at
// is read only where the judgement needs it (a record never invoked):
// reading every record's frontmatter would cost a 10,000-record memory
// its time for nothing.
func baseRecords(base record.Snapshot, j *metrics.Judge) []metrics.Record {
	var out []metrics.Record
	for _, e := range base.Entries {
		if e.Mode != record.ModeRegular || record.Classify(e.Path).Area != record.AreaRecord {
			continue
		}
		r := metrics.Record{Path: e.Path}
		if j.Record(e.Path, time.Time{}).Reason == metrics.ReasonNoCreated {
			r.Created = createdAt(base, e.Path)
		}
		out = append(out, r)
	}
	return out
}

// createdAt is a record's created_at; zero when it cannot be read (its
// usage then stays unknown, and the linter reports the record).
func createdAt(base record.Snapshot, path string) time.Time {
	b, err := base.Read(path)
	if err != nil {
		return time.Time{}
	}
	r, _, err := record.Decode(path, b)
	if err != nil || r == nil {
		return time.Time{}
	}
	return r.CreatedAt
}

// LocalMetrics is the Metrics of a run: the usage pending on this machine
// (metrics.Local's journals and ledger), moved into the run's commit as
// one run file (metrics.EncodeRun), then marked moved.
type LocalMetrics struct{ Local metrics.Local }

// Pending is the run file's content and the mark of what it holds.
func (m LocalMetrics) Pending(runID string) ([]byte, json.RawMessage, error) {
	p, err := m.Local.Pending()
	if err != nil {
		return nil, nil, fmt.Errorf("the usage pending for run %s: %w", runID, err)
	}
	mark, err := p.Mark()
	if err != nil {
		return nil, nil, err
	}
	return metrics.EncodeRun(p.Data), mark, nil
}

// Moved marks what mark names moved by run runID.
func (m LocalMetrics) Moved(runID string, mark json.RawMessage) error {
	return m.Local.MarkMovedAt(runID, mark)
}
