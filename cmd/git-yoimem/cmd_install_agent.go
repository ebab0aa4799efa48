package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/agent"
	"github.com/yoimem/git-yoimem/agent/claudecode"
	"github.com/yoimem/git-yoimem/agent/codex"
	"github.com/yoimem/git-yoimem/agent/handler"
	"github.com/yoimem/git-yoimem/agent/setup"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/udiff"
	"github.com/yoimem/git-yoimem/workspace"
)

// agentOptions are the flags of install and uninstall with --agent.
type agentOptions struct {
	agents *cli.StringSlice
	scope  string
	write  bool // install: the MCP server with --write
	notify bool // install: Codex's notify command too
	print  bool // install: show the changes; write nothing
}

func agentFlags(o *agentOptions, install bool) []cli.Flag {
	o.agents = cli.NewStringSlice()
	fs := []cli.Flag{
		&cli.StringSliceFlag{Name: "agent", Usage: "set up `AGENT` (claude-code, codex, or all); repeatable", Destination: o.agents},
		&cli.StringFlag{Name: "scope", Value: string(setup.Project), Usage: "with --agent: `SCOPE` project (committed), local (this machine, this repository; Claude Code only) or user (every repository)", Destination: &o.scope},
	}
	if install {
		fs = append(fs, &cli.BoolFlag{Name: "write", Usage: "with --agent: register the MCP server with --write (its memory tools may write; read-only otherwise)", Destination: &o.write},
			&cli.BoolFlag{Name: "notify", Usage: "with --agent codex: also set Codex's notify command (extract after each turn when Codex's hooks are off)", Destination: &o.notify})
	}
	return fs
}

// resolveAgents reads --agent (repeatable; all is every agent) and
// --scope.
func resolveAgents(o agentOptions) ([]setup.Agent, setup.Scope, error) {
	as, sc, err := setup.Select(o.agents.Value(), o.scope)
	if err != nil {
		return nil, "", usageError("%v", err)
	}
	return as, sc, nil
}

// agentLocations are where the scope's files are: the repository's top
// level (not needed for the user scope: w is nil then) and HOME from the
// environment.
func agentLocations(ctx context.Context, env Env, g *globalOptions, sc setup.Scope) (setup.Locations, *workspace.Workspace, error) {
	var loc setup.Locations
	if env.Getenv != nil {
		loc.Home = env.Getenv("HOME")
		loc.CodexHome = env.Getenv("CODEX_HOME")
	}
	if sc == setup.User {
		loc.Created = setup.UserCreatedRecord(env.Getenv)
		return loc, nil, nil
	}
	w, err := locate(ctx, env, g)
	if err != nil {
		return loc, nil, err
	}
	loc.Top = w.Repo.TopLevel
	loc.Created = setup.RepoCreatedRecord(w.LocalDir())
	loc.CreatedShared = w.SharedPerm
	// the workspace's settings (the context budget) are read only for a
	// file that holds the context: a bad config must not stop the others
	configured := false
	loc.Context = func() (agent.Context, error) {
		if !configured {
			if err := w.Configure(ctx); err != nil {
				return agent.Context{}, err
			}
			configured = true
		}
		return handler.AlwaysOn(w)
	}
	return loc, w, nil
}

// warnNotIgnored warns about a file of the plan that should stay on this
// machine but that git would commit.
func warnNotIgnored(ctx context.Context, env Env, w *workspace.Workspace, p *setup.Plan) {
	for _, c := range p.Changes {
		if w == nil || !c.File.Private || (c.Action != setup.Create && c.Action != setup.Update) {
			continue
		}
		if ignored, err := gitstore.Ignored(ctx, w.Repo, c.File.Path); err == nil && !ignored {
			warnf(env.Stderr, "%s is not ignored by git: add it to .gitignore (or .git/info/exclude) so that it stays on this machine", c.File.Show)
		}
	}
}

// noteMCPApproval says, after a project-scope Claude Code install, that
// Claude Code starts the server in .mcp.json only once the user approves
// it, and how, unless it is approved already.
func noteMCPApproval(env Env, a setup.Agent, sc setup.Scope, loc setup.Locations) {
	if a.Name != setup.ClaudeCode || sc != setup.Project {
		return
	}
	ap, err := setup.ClaudeMCPApproval(loc)
	switch {
	case err != nil:
		warnf(env.Stderr, "cannot tell whether Claude Code approves the server in .mcp.json: %v", err)
	case ap.State == setup.MCPPending:
		statusf(env.Stderr, "git-yoimem: Claude Code starts the server %q in .mcp.json only once you approve it: %s", claudecode.MCPServer, setup.ApprovalStep)
	case ap.State == setup.MCPRejected:
		detail, fix := ap.Describe()
		warnf(env.Stderr, "%s; to use it, %s", detail, fix)
	}
}

// runAgentSetup plans the install (or uninstall) of every agent first,
// so that a file it cannot merge stops them all before any write, then
// applies each plan and reports per file.
func runAgentSetup(ctx context.Context, env Env, g *globalOptions, o agentOptions, install bool) (rerr error) {
	defer func() { rerr = withHint(rerr) }()
	agents, sc, err := resolveAgents(o)
	if err != nil {
		return err
	}
	if o.notify && !slices.ContainsFunc(agents, func(a setup.Agent) bool { return a.Name == setup.Codex }) {
		return usageErrorHint("add --agent codex (or --agent all)", "--notify is for Codex, whose notify command runs after each turn")
	}
	loc, w, err := agentLocations(ctx, env, g, sc)
	if err != nil {
		return err
	}
	var plans []*setup.Plan
	for _, a := range agents {
		var p *setup.Plan
		if install {
			p, err = setup.PlanInstall(a, sc, loc, setup.Options{Write: o.write, Notify: o.notify})
		} else {
			p, err = setup.PlanUninstall(a, sc, loc)
		}
		if err != nil {
			return agentSetupError(err, install)
		}
		plans = append(plans, p)
	}
	if o.print {
		return printPlans(env, plans)
	}
	for _, p := range plans {
		if err := p.Check(); err != nil {
			return agentSetupError(err, install) // before any is written
		}
	}
	for i, p := range plans {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := p.Apply(); err != nil {
			return agentSetupError(err, install)
		}
		reportPlan(env, agents[i], p, install, o.write)
		if install {
			warnNotIgnored(ctx, env, w, p)
			noteMCPApproval(env, agents[i], sc, loc)
			for _, n := range agents[i].Next(sc, loc, setup.Options{Write: o.write, Notify: o.notify}) {
				statusf(env.Stderr, "next: %s", n)
			}
		}
	}
	return nil
}

func reportPlan(env Env, a setup.Agent, p *setup.Plan, install, write bool) {
	if !p.Changed() {
		if install {
			statusf(env.Stderr, "%s is already set up in the %s scope; nothing to do", a.Title, p.Scope)
		} else {
			statusf(env.Stderr, "%s is not set up in the %s scope; nothing to do", a.Title, p.Scope)
		}
		return
	}
	for _, c := range p.Changes {
		what := ""
		if install {
			what = " (" + fileRole(a, c.File.Role, write) + ")"
		}
		switch c.Action {
		case setup.Unchanged:
			if install {
				statusf(env.Stderr, "%s is up to date", c.File.Show)
			}
		case setup.Create:
			statusf(env.Stderr, "created %s%s", c.File.Show, what)
		case setup.Update:
			if c.Kept {
				statusf(env.Stderr, "kept %s: it holds nothing now, but it is yours (install did not create it, or it is a link): remove it yourself if you do not need it", c.File.Show)
				continue
			}
			statusf(env.Stderr, "updated %s%s", c.File.Show, what)
		case setup.Remove:
			statusf(env.Stderr, "removed %s", c.File.Show)
		}
	}
}

func fileRole(a setup.Agent, r setup.Role, write bool) string {
	switch {
	case r == setup.Hooks:
		return a.Title + " hooks"
	case r == setup.AgentsMD:
		return "the memory's always-on context, between git-yoimem's markers"
	case write:
		return "MCP server: git yoimem mcp --write"
	}
	return "MCP server: git yoimem mcp, read-only"
}

// printPlans shows each change as a unified diff on stdout.
func printPlans(env Env, plans []*setup.Plan) error {
	changed := false
	for _, p := range plans {
		for _, c := range p.Changes {
			if c.Action == setup.Unchanged {
				statusf(env.Stderr, "%s is up to date", c.File.Show)
				continue
			}
			changed = true
			from, to := "a/"+c.File.Show, "b/"+c.File.Show
			if c.Old == nil {
				from = "/dev/null"
			}
			newContent := c.New
			if c.Action == setup.Remove {
				to, newContent = "/dev/null", nil
			}
			if _, err := fmt.Fprint(env.Stdout, udiff.Unified(filepath.ToSlash(from), filepath.ToSlash(to), c.Old, newContent, udiff.DefaultContext)); err != nil {
				return err
			}
		}
	}
	if changed {
		statusf(env.Stderr, "nothing written (--print)")
	}
	return nil
}

// withHint is the net under install and uninstall --agent's errors:
// one that has no hint of its own gets doctor's (an interrupt, reported
// as such, and a usage error, given its usage, are left as they are).
func withHint(err error) error {
	var ee *exitError
	switch {
	case err == nil || errors.Is(err, context.Canceled):
		return err
	case errors.As(err, &ee) && (len(ee.hints) > 0 || ee.usage):
		return err
	case ee != nil:
		ee.hints = append(ee.hints, doctorHint)
		return err
	}
	return cannotRun(err, doctorHint)
}

const doctorHint = "run 'git yoimem doctor' to see what is set up and what is wrong"

// agentSetupError: a file that cannot be merged refuses the operation
// (exit 1, nothing written), as does one the user locked (read-only) or
// one too large to be a settings file; one that cannot be read or
// written could not run (exit 2). Every error ends with what to do.
func agentSetupError(err error, install bool) error {
	var fe *setup.FileError
	if errors.As(err, &fe) {
		if e := agentFileError(err, fe, install); e != nil {
			return e
		}
	}
	return agentPlanError(err)
}

// agentFileError is the error of a file that is not a settings file we
// can use as it is, or nil for another error.
func agentFileError(err error, fe *setup.FileError, install bool) error {
	show := fe.File.Show
	again := "then run the command again"
	switch {
	case errors.Is(err, setup.ErrDanglingLink):
		return cannotRun(err, "create the file the link points to (an empty file will do) or remove the link, "+again)
	case errors.Is(err, setup.ErrNotRegular):
		return cannotRun(err, "move "+show+" out of the way (it must be a regular file, or absent: install creates it), "+again)
	case errors.Is(err, setup.ErrReadOnly):
		other := "or take git-yoimem's entries out of it yourself"
		if install {
			other = "or see the change with --print and make it yourself"
		}
		return &exitError{code: exitFindings, err: fmt.Errorf("%w; nothing written", err), hints: []string{
			"if git-yoimem may edit it, make it writable (chmod u+w " + show + "), " + again, other}}
	case errors.Is(err, setup.ErrTooLarge):
		other := "or take git-yoimem's entries out of it yourself"
		if install {
			other = "or move " + show + " away, run the command (it writes a new file with git-yoimem's entries), and merge the two yourself"
		}
		return &exitError{code: exitFindings, err: fmt.Errorf("%w; nothing written", err), hints: []string{
			"look at what fills " + show + " and trim it below the limit, " + again, other}}
	case !fe.Invalid:
		return cannotRun(err, "check "+show+" and the directories above it (ls -ld): it must be a regular file you can read and write (or absent) in a directory you can write; "+again+" (it changes only what differs)")
	}
	return nil
}

// agentPlanError is the error of anything but a settings file itself.
func agentPlanError(err error) error {
	var rec *setup.RecordError
	var fe *setup.FileError
	var taken *codex.NotifyTakenError
	var we *workspace.Error
	switch {
	case errors.As(err, &we) && we.Kind != workspace.NoYoi:
		return workspaceError(we) // the settings the context needs: bad config is exit 2
	case errors.Is(err, gitstore.ErrNoYoi):
		return &exitError{code: exitFindings, err: fmt.Errorf("%w; nothing written", err), hints: []string{
			"run 'git yoimem init' first: AGENTS.md gets the memory's summary; or use --scope user, which writes no AGENTS.md"}}
	case errors.Is(err, setup.ErrMemoryContext):
		return &exitError{code: exitFindings, err: fmt.Errorf("%w; nothing written", err), hints: []string{
			"fix what the message names in .yoi/ ('git yoimem context' builds the same text), then install again"}}
	case errors.Is(err, setup.ErrNotifyScope):
		return usageErrorHint("install with --scope user --notify (notify runs for every repository; in one without .yoi/ it does nothing)", "--notify: %v", setup.ErrNotifyScope)
	case errors.As(err, &taken):
		return &exitError{code: exitFindings, err: fmt.Errorf("%w; nothing written", err), hints: []string{
			"have your notify program also run: git yoimem hook codex notify \"$1\" (Codex passes the payload as the last argument), or install without --notify and use Codex's hooks"}}
	case errors.As(err, &fe) && fe.Invalid && !strings.HasSuffix(fe.File.Show, ".json"):
		return &exitError{code: exitFindings, err: fmt.Errorf("%w; nothing written", err), hints: []string{
			"fix " + fe.File.Show + " as the message says and run the command again"}}
	case errors.Is(err, setup.ErrNoProjectEntry):
		return &exitError{code: exitFindings, err: err, hints: []string{
			"run 'claude' once in this repository and install again, or register the server yourself: claude mcp add --scope local yoimem -- git yoimem mcp; or use --scope project"}}
	case errors.As(err, &fe) && fe.Invalid:
		return &exitError{code: exitFindings, err: fmt.Errorf("%w; nothing written", err), hints: []string{
			"fix " + fe.File.Show + " (JSON without comments or trailing commas, an object at the top) and run the command again"}}
	case errors.Is(err, setup.ErrNoHome):
		return cannotRun(err, "set HOME to your home directory, or use --scope project")
	case errors.As(err, &rec):
		return cannotRun(err, "remove "+rec.Path+" (uninstall then keeps, rather than removes, the files install created that it would leave holding nothing), then run the command again")
	case errors.Is(err, setup.ErrCodexHome):
		return cannotRun(err, "set CODEX_HOME to an absolute directory, or unset it to use ~/.codex")
	case errors.Is(err, context.Canceled):
		return err // interrupted: run reports it
	}
	return cannotRun(err, doctorHint)
}
