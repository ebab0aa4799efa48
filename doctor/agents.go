package doctor

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/agent"
	"github.com/yoimem/git-yoimem/agent/handler"
	"github.com/yoimem/git-yoimem/agent/setup"
)

// agentVerdict is one agent's check before it is known whether another
// agent is set up.
type agentVerdict struct {
	name, detail, fix string
	current           bool // current in some scope, and nothing wrong anywhere
	nowhere           bool // set up in no scope, nothing wrong anywhere
}

// checkAgents reads every agent's setup in every scope. An agent set up
// nowhere is a problem only when no agent is set up at all (one agent
// is enough, even one to fix); one outdated or unreadable in any scope
// is a problem.
func checkAgents(_ context.Context, in Input, r *Report) error {
	loc := setup.Locations{Top: in.W.Repo.TopLevel, Home: in.Home,
		Context: func() (agent.Context, error) { return handler.AlwaysOn(in.W) }}
	if in.Getenv != nil {
		loc.CodexHome = in.Getenv("CODEX_HOME")
	}
	var vs []agentVerdict
	anySetUp := false
	for _, a := range setup.Agents() {
		v, err := agentCheck(a, loc, r)
		if err != nil {
			return err
		}
		anySetUp = anySetUp || !v.nowhere
		vs = append(vs, v)
	}
	for _, v := range vs {
		switch {
		case v.current:
			r.ok(v.name, v.detail)
		case v.nowhere && anySetUp:
			r.ok(v.name, v.detail+" (another agent is)")
		default:
			r.problem(v.name, v.detail, v.fix)
		}
	}
	return nil
}

func agentCheck(a setup.Agent, loc setup.Locations, r *Report) (agentVerdict, error) {
	v := agentVerdict{name: a.Name}
	var current, bad []string
	notify := false
	for _, sc := range a.Scopes {
		st, err := setup.StatusOf(a, sc, loc)
		if errors.Is(err, setup.ErrNoHome) {
			continue // without HOME there is nothing to look at
		}
		if err != nil {
			return v, err
		}
		r.Agents = append(r.Agents, agentScope(st))
		notify = notify || st.Notify
		switch st.State() {
		case setup.Current:
			current = append(current, string(sc))
		case setup.Outdated:
			bad = append(bad, fmt.Sprintf("outdated in the %s scope (%s)", sc, filesIn(st, setup.Outdated, setup.Absent)))
			v.fix = fmt.Sprintf("git yoimem install --agent %s --scope %s", a.Name, sc)
		case setup.Broken:
			bad = append(bad, fmt.Sprintf("cannot read its %s scope: %s", sc, brokenErr(st)))
			v.fix = fmt.Sprintf("fix the file, then: git yoimem install --agent %s --scope %s", a.Name, sc)
		}
	}
	switch {
	case len(bad) > 0:
		v.detail = strings.Join(bad, "; ")
	case len(current) > 0:
		v.current = true
		v.detail = "hooks and MCP server current in the " + strings.Join(current, ", ") + " scope"
		v.detail += trustNote(a.Name, notify)
	default:
		v.nowhere = true
		v.detail, v.fix = "not set up in any scope", "git yoimem install --agent "+a.Name
	}
	return v, nil
}

// trustNote is what doctor cannot see for an agent: Codex runs hooks
// only once the user reviewed them in /hooks, and keeps that review in
// a form we do not read; notify needs none.
func trustNote(agentName string, notify bool) string {
	if agentName != setup.Codex {
		return ""
	}
	s := "; Codex runs them only once trusted: review with /hooks in Codex"
	if notify {
		s += "; notify set (runs without review)"
	}
	return s
}

func agentScope(st setup.Status) AgentScope {
	as := AgentScope{Agent: st.Agent, Scope: string(st.Scope), State: string(st.State()), Notify: st.Notify}
	for _, f := range st.Files {
		af := AgentFile{Path: f.File.Show, Role: string(f.File.Role), State: string(f.State)}
		if f.Err != nil {
			af.Error = f.Err.Error()
		}
		as.Files = append(as.Files, af)
	}
	return as
}

func filesIn(st setup.Status, states ...setup.State) string {
	var out []string
	for _, f := range st.Files {
		for _, s := range states {
			if f.State == s {
				out = append(out, f.File.Show+" "+string(f.State))
			}
		}
	}
	return strings.Join(out, ", ")
}

func brokenErr(st setup.Status) string {
	for _, f := range st.Files {
		if f.Err != nil {
			return f.Err.Error()
		}
	}
	return ""
}
