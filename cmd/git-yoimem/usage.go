package main

import (
	"fmt"

	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/workspace"
)

// session is the agent session a command acts for: --session, else
// YOIMEM_SESSION (unless checkSession found it bad). Reads outside a
// session are not usage.
func session(env Env, g *globalOptions) string {
	getenv := env.Getenv
	if g.ignoreEnvSession {
		getenv = nil
	}
	id, _ := workspace.Session(g.session, getenv)
	return id
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
	s, from := workspace.Session(g.session, env.Getenv)
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

// recordUse journals explicit reads of records (how: search, slug, read);
// a journal that cannot be written is a warning, since the read worked.
func recordUse(env Env, g *globalOptions, w *workspace.Workspace, how string, paths ...string) {
	if err := w.RecordUse(session(env, g), how, paths...); err != nil {
		warnf(env.Stderr, "usage not recorded: %v", err)
	}
}

// recordInjections journals the context cost of the descriptions the
// always-on context carries.
func recordInjections(env Env, g *globalOptions, w *workspace.Workspace, res memory.ContextResult) {
	if err := w.RecordInjections(session(env, g), res); err != nil {
		warnf(env.Stderr, "usage not recorded: %v", err)
	}
}
