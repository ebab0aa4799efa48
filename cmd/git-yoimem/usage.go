package main

import (
	"fmt"
	"path/filepath"

	"github.com/google/uuid"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
)

// session is the agent session a command acts for: --session, else
// YOIMEM_SESSION. Reads outside a session are not usage.
func session(env Env, g *globalOptions) string {
	if g.session != "" {
		return g.session
	}
	if env.Getenv != nil && !g.ignoreEnvSession {
		return env.Getenv("YOIMEM_SESSION")
	}
	return ""
}

// recordsUsage names the commands that journal reads for a session.
func recordsUsage(command string) bool {
	switch command {
	case "search", "show", "context", "expand", "memory", "mcp":
		return true
	}
	return false
}

// checkSession refuses a session id that cannot name a journal file,
// before the command does anything, naming where it came from.
func checkSession(env Env, g *globalOptions) error {
	from := "--session"
	if g.session == "" {
		from = "YOIMEM_SESSION"
	}
	s := session(env, g)
	if s == "" {
		return nil
	}
	if err := metrics.CheckSession(s); err != nil && g.session == "" {
		// The environment is the harness's, not the user's typing: a bad
		// id there costs the usage record, never the command (a hook's
		// context must still reach the agent).
		warnf(env.Stderr, "%s %s: %v; usage is not recorded", from, quote.Value(s), err)
		g.ignoreEnvSession = true
		return nil
	} else if err != nil {
		return &exitError{code: exitCannotRun, err: fmt.Errorf("%s %s: %w", from, quote.Value(s), err),
			hints: []string{"pass the agent's session id (a UUID, for example), or leave " + from + " out to record no usage"}}
	}
	return nil
}

func localMetrics(w *workspace) metrics.Local {
	return metrics.Local{Dir: filepath.Join(w.repo.CommonDir, "yoimem")}
}

// recordUse journals explicit reads of records (how: search, slug, read).
// paths may be printed (".yoi/knowledge/x.md") or .yoi/-relative; events
// name records .yoi/-relative.
func recordUse(env Env, g *globalOptions, w *workspace, how string, paths ...string) {
	s := session(env, g)
	if s == "" || len(paths) == 0 {
		return
	}
	events := make([]metrics.Event, 0, len(paths))
	for _, p := range paths {
		if rel, err := record.ToolPath(p); err == nil {
			events = append(events, newEvent(env, s, rel, how, 0))
		}
	}
	appendEvents(env, w, s, events)
}

// newEvent is one usage event with a time-ordered (UUIDv7) id.
func newEvent(env Env, session, path, how string, tokens int64) metrics.Event {
	id, err := uuid.NewV7()
	if err != nil {
		id = uuid.New()
	}
	return metrics.Event{ID: id.String(), Time: env.Now().UTC(), Session: session, Record: path, How: how, Tokens: tokens}
}

// appendEvents journals events; a journal that cannot be written is a
// warning, since the read itself worked.
func appendEvents(env Env, w *workspace, session string, events []metrics.Event) {
	if err := localMetrics(w).Append(session, events...); err != nil {
		warnf(env.Stderr, "usage not recorded: %v", err)
	}
}

// usageStats reads the journals, the committed metrics and the ledger.
func usageStats(w *workspace) ([]metrics.Stat, []metrics.Candidate, error) {
	j, err := usageJudge(w)
	if err != nil {
		return nil, nil, err
	}
	return j.Stats(), j.Candidates(), nil
}

// usageJudge reads the journals and ledger (moved or not) and the
// committed run files; what is in both counts once.
func usageJudge(w *workspace) (*metrics.Judge, error) {
	local, err := localMetrics(w).Read()
	if err != nil {
		return nil, err
	}
	committed, err := metrics.ReadRunFiles(w.yoiDir())
	if err != nil {
		return nil, err
	}
	d := local.Add(committed)
	return metrics.NewJudge(d.Events, metrics.NewClock(d.Ticks), metricsParams(w.cfg)), nil
}

func metricsParams(cfg *config.Config) metrics.Params {
	return metrics.Params{
		Window:             int(cfg.Int(config.KeyMetricsWindow)),
		Protect:            cfg.Float(config.KeyMetricsProtectFrequency),
		CandidateFrequency: cfg.Float(config.KeyMetricsCandidateFrequency),
		CandidateSessions:  int(cfg.Int(config.KeyMetricsCandidateSessions)),
	}
}

// withImportance gives the linter what usage metrics say of each record,
// used or not.
func withImportance(w *workspace, lo lint.Options) lint.Options {
	j, err := usageJudge(w)
	if err != nil {
		return lo
	}
	lo.Usage = func(r *record.Record) lint.Usage {
		u := j.Record(r.Path, r.CreatedAt)
		return lint.Usage{Frequency: u.Frequency, Known: u.Known, Unused: u.Unused, Idle: u.Idle}
	}
	return lo
}

// recordInjections journals the context cost of the descriptions the
// always-on context carries: a cost, never a use (about 4 characters a
// token).
func recordInjections(env Env, g *globalOptions, w *workspace, res memory.ContextResult) {
	s := session(env, g)
	if s == "" || len(res.Included) == 0 {
		return
	}
	per := int64(res.Chars/4/len(res.Included)) + 1
	events := make([]metrics.Event, 0, len(res.Included))
	for _, slug := range res.Included {
		events = append(events, newEvent(env, s, record.PathFor(record.KindKnowledge, slug), metrics.HowInject, per))
	}
	appendEvents(env, w, s, events)
}
