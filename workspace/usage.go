package workspace

import (
	"fmt"

	"github.com/google/uuid"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
)

// SessionEnv is the environment variable that names the agent session
// usage is recorded for, when no flag does.
const SessionEnv = "YOIMEM_SESSION"

// Session is the agent session usage is recorded for: flag (--session)
// when given, else $YOIMEM_SESSION (getenv may be nil); from says which,
// for messages. "" records nothing: reads outside a session are not
// usage.
func Session(flag string, getenv func(string) string) (id, from string) {
	if flag != "" {
		return flag, "--session"
	}
	if getenv == nil {
		return "", SessionEnv
	}
	return getenv(SessionEnv), SessionEnv
}

// OwnSession is a session id for a process that is one agent session by
// itself (the MCP server an agent starts) when none is named: prefix and
// a UUIDv7, so that its journal sorts by start and says where it came from.
func OwnSession(prefix string) string {
	id, err := uuid.NewV7()
	if err != nil {
		id = uuid.New()
	}
	return prefix + id.String()
}

// Metrics is this machine's usage store: the journals of pending events
// per session and the token ledger, in LocalDir.
func (w *Workspace) Metrics() metrics.Local {
	return metrics.Local{Dir: w.LocalDir(), Shared: w.SharedPerm}
}

// RecordUse journals explicit reads of records (how: search, slug, read)
// for session. paths may be printed (".yoi/knowledge/x.md") or
// .yoi/-relative; events name records .yoi/-relative. No session, no
// record.
func (w *Workspace) RecordUse(session, how string, paths ...string) error {
	if session == "" || len(paths) == 0 {
		return nil
	}
	events := make([]metrics.Event, 0, len(paths))
	for _, p := range paths {
		if rel, err := record.ToolPath(p); err == nil {
			events = append(events, w.newEvent(session, rel, how, 0))
		}
	}
	return w.Metrics().Append(session, events...)
}

// RecordInjections journals the context cost of the descriptions the
// always-on context carries: a cost, never a use; each record's is the
// estimated tokens of its own line (memory.ContextResult.Costs).
func (w *Workspace) RecordInjections(session string, res memory.ContextResult) error {
	if session == "" || len(res.Included) == 0 {
		return nil
	}
	events := make([]metrics.Event, 0, len(res.Included))
	for _, slug := range res.Included {
		events = append(events, w.newEvent(session, record.PathFor(record.KindKnowledge, slug), metrics.HowInject, res.Costs[slug]))
	}
	return w.Metrics().Append(session, events...)
}

// newEvent is one usage event with a time-ordered (UUIDv7) id.
func (w *Workspace) newEvent(session, path, how string, tokens int64) metrics.Event {
	id, err := uuid.NewV7()
	if err != nil {
		id = uuid.New()
	}
	return metrics.Event{ID: id.String(), Time: w.env.Now().UTC(), Session: session, Record: path, How: how, Tokens: tokens}
}

// UsageStats reads the journals, the committed metrics and the ledger:
// each used record's statistics and the knowledge-candidate report, with
// the yoimem.metrics.* settings.
func (w *Workspace) UsageStats() ([]metrics.Stat, []metrics.Candidate, error) {
	j, err := w.UsageJudge()
	if err != nil {
		return nil, nil, err
	}
	return j.Stats(), j.Candidates(), nil
}

// UsageJudge reads the journals and ledger (moved or not) and the
// committed run files of the working tree; what is in both counts once.
func (w *Workspace) UsageJudge() (*metrics.Judge, error) {
	local, err := w.Metrics().Read()
	if err != nil {
		return nil, err
	}
	committed, err := metrics.ReadRunFiles(w.YoiDir())
	if err != nil {
		return nil, err
	}
	d := local.Add(committed)
	return metrics.NewJudge(d.Events, metrics.NewClock(d.Ticks), MetricsParams(w.Config)), nil
}

// MetricsParams are the yoimem.metrics.* settings.
func MetricsParams(cfg *config.Config) metrics.Params {
	return metrics.Params{
		Window:             int(cfg.Int(config.KeyMetricsWindow)),
		Protect:            cfg.Float(config.KeyMetricsProtectFrequency),
		CandidateFrequency: cfg.Float(config.KeyMetricsCandidateFrequency),
		CandidateSessions:  int(cfg.Int(config.KeyMetricsCandidateSessions)),
	}
}

// WithImportance gives the linter what usage metrics say of each record,
// used or not: the size × importance check then knows which records
// matter, and which nobody reads. Usage that cannot be read leaves the
// check out, with a warning saying what to do.
func (w *Workspace) WithImportance(lo lint.Options) lint.Options {
	j, err := w.UsageJudge()
	if err != nil {
		msg := fmt.Sprintf("usage metrics not read (low-importance-size is left out): %v", err)
		if advice := w.UsageAdvice(err); advice != "" {
			msg += "; " + advice
		}
		w.env.warn("%s", msg)
		return lo
	}
	lo.Usage = func(r *record.Record) lint.Usage {
		u := j.Record(r.Path, r.CreatedAt)
		return lint.Usage{Frequency: u.Frequency, Known: u.Known, Unused: u.Unused, Idle: u.Idle}
	}
	return lo
}
