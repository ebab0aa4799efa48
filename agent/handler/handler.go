package handler

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/yoimem/git-yoimem/agent"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

// Options are what Handle needs besides the workspace and the event.
type Options struct {
	// Agent names the agent ("claude-code"): the background job's, its
	// log's and its status files'.
	Agent string
	// Cap is the agent's cap on a hook's text output (agent.Len); the
	// always-on context is built within it. 0: no cap but the budget.
	Cap int
	// Spawn starts the background run of a job and returns at once
	// (Spawner.Spawn); nil starts none.
	Spawn func(Job) error
	// Log is told what went wrong without failing the hook (usage not
	// recorded, a run not started); nil drops it.
	Log func(msg string)
	// ConsolidationRun is the run ID of the consolidation whose agent CLI
	// this session is (a command: model; YOIMEM_RUN_ID in the CLI's
	// environment), or empty. Such a session is the run's upkeep: it gets
	// no context, records no usage and starts no background run (which
	// would stage the consolidation's own session); writes into memory
	// are still denied.
	ConsolidationRun string
}

func (o Options) logf(format string, args ...any) {
	if o.Log != nil {
		o.Log(fmt.Sprintf(format, args...))
	}
}

// ErrNoYoi is a workspace without .yoi/: every event is answered with
// nothing, and the agent goes on as without us.
var ErrNoYoi = errors.New("no .yoi/ here: the hooks do nothing until 'git yoimem init' creates it")

// Handle answers ev against workspace w. The zero Response lets the agent
// go on; an error comes with the zero Response, for the caller's log:
// the agent is never blocked on our account (only a PreTool write into
// memory is denied).
func Handle(ctx context.Context, w *workspace.Workspace, ev agent.Event, o Options) (agent.Response, error) {
	if ev.Kind == agent.PreTool {
		// Pure: memory is guarded even before .yoi/ exists.
		deny, reason := agent.GuardTool(ev)
		return agent.Response{Deny: deny, Reason: reason}, nil
	}
	switch ev.Kind {
	case agent.SessionStart, agent.UserPrompt, agent.Stop, agent.PreCompact, agent.SessionEnd:
	default:
		return agent.Response{}, nil
	}
	if o.ConsolidationRun != "" {
		o.logf("%s: the agent session of consolidation run %s: nothing to add, no background run", ev.Kind, o.ConsolidationRun)
		return agent.Response{}, nil
	}
	if ev.Kind == agent.UserPrompt && !mayInvoke(ev.Prompt) {
		return agent.Response{}, nil // most prompts: no file read at all
	}
	if fi, err := os.Stat(w.YoiDir()); err != nil || !fi.IsDir() {
		return agent.Response{}, fmt.Errorf("%s: %w", w.Root, ErrNoYoi)
	}
	if err := ctx.Err(); err != nil {
		return agent.Response{}, err
	}
	switch ev.Kind {
	case agent.SessionStart:
		return sessionStart(w, ev, o)
	case agent.UserPrompt:
		return userPrompt(w, ev, o)
	}
	return agent.Response{}, startRun(ev, o)
}

// usageSession is the session usage is recorded for: the event's, when
// it can name a journal file.
func usageSession(ev agent.Event, o Options) string {
	if ev.Session == "" {
		return ""
	}
	if err := metrics.CheckSession(ev.Session); err != nil {
		o.logf("session id %q: %v; usage is not recorded", ev.Session, err)
		return ""
	}
	return ev.Session
}

// startRun starts the background run of a turn-ending event. PreCompact
// bounds its extract at the transcript's size now: the run covers the
// history as it was before the compaction, whenever it gets to it.
func startRun(ev agent.Event, o Options) error {
	if o.Spawn == nil {
		return nil
	}
	job := Job{Agent: o.Agent, Event: ev.Name, Session: ev.Session, Transcript: ev.LogPath, Enqueued: time.Now().UTC()}
	if job.Transcript == "" {
		return fmt.Errorf("%s names no transcript: nothing to extract", ev.Name)
	}
	if !filepath.IsAbs(job.Transcript) && ev.Cwd != "" {
		job.Transcript = filepath.Join(ev.Cwd, job.Transcript)
	}
	fi, err := os.Stat(job.Transcript)
	if err != nil {
		return fmt.Errorf("%s: nothing to extract: %w", ev.Name, err)
	}
	if ev.Kind == agent.PreCompact {
		job.Until = fi.Size()
		if job.Until == 0 {
			return nil // nothing written before the compaction
		}
	}
	if err := o.Spawn(job); err != nil {
		return fmt.Errorf("%s: start the background run: %w", ev.Name, err)
	}
	return nil
}

// knowledgePath is the record a slug names, .yoi/-relative.
func knowledgePath(slug string) string { return record.PathFor(record.KindKnowledge, slug) }
