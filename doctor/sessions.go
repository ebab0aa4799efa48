package doctor

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/agent/handler"
	"github.com/yoimem/git-yoimem/internal/quote"
)

// shownSessions is how many sessions per agent the check shows, the
// newest first: the older ones' status files stay, their runs superseded.
const shownSessions = 5

// stalledAfter is how long after its start a run that has not finished
// is taken to have stopped (killed, the machine asleep): a run takes
// seconds to minutes.
const stalledAfter = time.Hour

// checkSessions reads the status files of the agent hooks' background
// runs (agent/handler.LastRuns): one check per session shown, a failed
// or stalled run a problem whose fix names the log; a status file that
// cannot be read is a problem naming it.
func checkSessions(_ context.Context, in Input, r *Report) error {
	runs, err := handler.LastRuns(handler.StateDir(in.W))
	top := in.W.Repo.TopLevel
	var bad *handler.StatusFileError
	for e := range statusErrors(err) {
		if !errors.As(e, &bad) {
			return fmt.Errorf("read the background runs' status files: %w", e)
		}
		p := show(top, bad.Path)
		r.problem("background runs", "cannot read "+p+": "+bad.Err.Error(), "delete "+p+" (the session's next run writes it again)")
	}
	if len(runs) == 0 {
		if err == nil {
			r.ok("background runs", "no background run yet (the agent hooks start one at Stop, PreCompact and SessionEnd)")
		}
		return nil
	}
	now := time.Now
	if in.Now != nil {
		now = in.Now
	}
	older := map[string]int{}
	shown := map[string]int{}
	for _, s := range runs {
		if shown[s.Agent] == shownSessions {
			older[s.Agent]++
			continue
		}
		shown[s.Agent]++
		run := sessionRun(s, top)
		r.Sessions = append(r.Sessions, run)
		detail, fix := runVerdict(run, s, now())
		if fix != "" {
			r.problem("background run", detail, fix)
		} else {
			r.ok("background run", detail)
		}
	}
	agents := make([]string, 0, len(older))
	for a := range older {
		agents = append(agents, a)
	}
	sort.Strings(agents)
	for _, a := range agents {
		r.ok("background runs", fmt.Sprintf("%s: %d older session%s not shown (their status files are in %s)", a, older[a], plural(older[a], "", "s"), show(top, handler.StateDir(in.W))))
	}
	return nil
}

// statusErrors are the errors LastRuns joined, one by one.
func statusErrors(err error) func(func(error) bool) {
	return func(yield func(error) bool) {
		if err == nil {
			return
		}
		errs := []error{err}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			errs = j.Unwrap()
		}
		for _, e := range errs {
			if !yield(e) {
				return
			}
		}
	}
}

// sessionRun is a status file as the report gives it.
func sessionRun(s handler.Status, top string) SessionRun {
	run := SessionRun{
		Agent: s.Agent, SessionID: s.SessionID, Event: s.Event, LogPath: show(top, s.LogPath),
		StartedAt: s.StartedAt.UTC().Format(time.RFC3339),
		Extract:   RunResult{Result: s.Extract.Result, Staged: s.Extract.Staged, Error: s.Extract.Error},
		Consolidation: RunResult{Result: s.Consolidation.Result, Commit: s.Consolidation.Commit,
			AutoMerge: s.Consolidation.AutoMerge, Error: s.Consolidation.Error},
	}
	if s.Transcript != "" {
		run.Transcript = show(top, s.Transcript)
	}
	if !s.FinishedAt.IsZero() {
		run.FinishedAt = s.FinishedAt.UTC().Format(time.RFC3339)
	}
	return run
}

// runVerdict is a run's line and, for a problem, its fix: a step that
// failed (its error shown), or a run that started long ago and never
// finished.
func runVerdict(run SessionRun, s handler.Status, now time.Time) (detail, fix string) {
	// The session id and errors come from payloads and files: one line.
	head := fmt.Sprintf("%s session %s (%s, %s): ", run.Agent, quote.Path(run.SessionID, false), quote.Controls(run.Event), s.StartedAt.UTC().Format("2006-01-02 15:04:05Z"))
	logHint := "read the log " + run.LogPath + ", fix the cause, then "
	if run.FinishedAt == "" {
		if now.Sub(s.StartedAt) > stalledAfter {
			return head + "started and never finished (stopped before its end)", logHint + "git yoimem extract --log " + run.Transcript
		}
		return head + "running; log " + run.LogPath, ""
	}
	detail = head + "extract " + step(run.Extract) + "; consolidation " + step(run.Consolidation) + "; log " + run.LogPath
	switch {
	case run.Extract.Result == handler.ExtractFailed:
		return strings.TrimSuffix(detail, "; log "+run.LogPath), logHint + "git yoimem extract --log " + run.Transcript
	case run.Consolidation.Result == handler.ConsolidationFailed:
		return strings.TrimSuffix(detail, "; log "+run.LogPath), logHint + "git yoimem consolidate"
	}
	return detail, ""
}

// step is one step's result with what it made or why it failed.
func step(r RunResult) string {
	s := r.Result
	switch {
	case r.Error != "" && (r.Result == handler.ExtractFailed || r.Result == handler.ConsolidationFailed):
		s += ": " + quote.Controls(r.Error)
	case r.Commit != "":
		s += " " + shortHash(r.Commit)
		if r.AutoMerge != nil && r.AutoMerge.Merged {
			s += " (merged: yoimem.autoMerge)"
		} else if r.AutoMerge != nil {
			s += " (not merged: " + quote.Controls(r.AutoMerge.Reason) + ")"
		}
	case r.Staged > 0:
		s += fmt.Sprintf(" (%d staged)", r.Staged)
	}
	return s
}

func shortHash(h string) string { return h[:min(7, len(h))] }
