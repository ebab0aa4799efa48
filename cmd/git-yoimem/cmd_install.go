package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/githook"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/workspace"
)

type installOptions struct {
	chain bool // keep foreign hooks as <name>.yoimem-prev and run them first
	print bool // print what would be installed; write nothing
	force bool // write into the hooks directory even if a hook manager owns it
	agent agentOptions
}

func newInstallCommand(env Env, g *globalOptions) *cli.Command {
	var opts installOptions
	return &cli.Command{
		Name:      "install",
		Usage:     "install the pre-commit and pre-push hooks, or an agent's hooks and MCP server",
		UsageText: "git yoimem install [--chain] [--print] [--force]\ngit yoimem install --agent claude-code|codex|all [--scope project|local|user] [--write] [--notify] [--print]",
		Description: `Writes small shell scripts as the pre-commit and pre-push hooks of this
repository, in the directory git runs hooks from (core.hooksPath if set;
linked worktrees share the main repository's). Each checks that
git-yoimem is on PATH and runs 'git yoimem hook <name>'. Running install
again is safe; it upgrades hooks written by an older git-yoimem. It also
registers the record merge driver: merge.yoimem.name and .driver in the
local git config and '.yoi/**/*.md merge=yoimem' appended to the top
level's .gitattributes (docs/merging.md).

A hook that git-yoimem did not write is never overwritten: install
refuses (exit 1) and writes nothing, unless --chain keeps that hook as
<name>.yoimem-prev and runs it first. When husky, lefthook or the
pre-commit framework manages the hooks, install prints what to add to
its configuration instead and writes nothing (--force writes anyway).

With --agent, install sets up an agent instead of the git hooks: for
claude-code, its hooks (SessionStart, UserPromptSubmit, PreToolUse, Stop,
PreCompact, SessionEnd running 'git yoimem hook claude-code <event>') in
the scope's settings file and the MCP server 'git yoimem mcp' (read-only;
--write lets its tools write) where Claude Code reads that scope's
servers:
  project  .claude/settings.json and .mcp.json (committed, shared)
  local    .claude/settings.local.json and ~/.claude.json's entry for
           this repository
  user     ~/.claude/settings.json and ~/.claude.json
For codex, its hooks (the same events but SessionEnd, which Codex lacks,
running 'git yoimem hook codex <event>') in hooks.json, the MCP server as
[mcp_servers.yoimem] in config.toml (--notify also sets notify, for a
Codex with hooks off; a notify of the user's own refuses), and, in the
project scope, the always-on memory in a marked block of AGENTS.md:
  project  .codex/hooks.json, .codex/config.toml and AGENTS.md
  user     $CODEX_HOME (~/.codex) hooks.json and config.toml
Codex runs hooks only once trusted (/hooks in Codex) and reads .codex/
only in a trusted project: install says what to do next. Installing
again refreshes AGENTS.md's block from the memory.
The user's own entries, key order and indentation keep their bytes.
Every file is read and merged before any is written: a file that cannot
be merged (not valid JSON or TOML) refuses the install (exit 1), naming
it, and nothing is written. --agent may be repeated; all is every agent git-yoimem knows.
--print shows the changes as a diff and writes nothing. See
docs/agents.md.`,
		Flags: append([]cli.Flag{
			&cli.BoolFlag{Name: "chain", Usage: "keep an existing hook as <name>.yoimem-prev and run it before git-yoimem's", Destination: &opts.chain},
			&cli.BoolFlag{Name: "print", Usage: "print the hooks (or a hook manager's configuration lines, or with --agent the changes as a diff) to stdout; write nothing", Destination: &opts.print},
			&cli.BoolFlag{Name: "force", Usage: "write into the hooks directory even when a hook manager manages it", Destination: &opts.force},
		}, agentFlags(&opts.agent, true)...),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("install takes no arguments")
			}
			if len(opts.agent.agents.Value()) > 0 {
				if opts.chain || opts.force {
					return usageError("--chain and --force are for the git hooks; --agent installs an agent's hooks")
				}
				opts.agent.print = opts.print
				return runAgentSetup(c.Context, env, g, opts.agent, true)
			}
			if err := gitHooksOnly(c); err != nil {
				return err
			}
			w, err := locate(c.Context, env, g)
			if err != nil {
				return err
			}
			if _, err := installHooks(c.Context, env, w, opts); err != nil || opts.print {
				return err
			}
			_, err = registerMergeDriver(c.Context, env, w)
			return err
		},
	}
}

type uninstallOptions struct {
	agent agentOptions
}

func newUninstallCommand(env Env, g *globalOptions) *cli.Command {
	var opts uninstallOptions
	return &cli.Command{
		Name:      "uninstall",
		Usage:     "remove the hooks that 'git yoimem install' wrote",
		UsageText: "git yoimem uninstall\ngit yoimem uninstall --agent claude-code|codex|all [--scope project|local|user]",
		Description: `Removes git-yoimem's pre-commit and pre-push hooks and puts back the
hooks that 'git yoimem install --chain' had kept as <name>.yoimem-prev.
Hooks that git-yoimem did not write are left alone. It takes out the
record merge driver's registration (the .gitattributes line and our
merge.yoimem values; a file or section left empty goes). Running it
again is safe.

With --agent, it takes out of the scope's files exactly what 'install
--agent' added (the rest keeps its bytes) and removes a file left
holding nothing else; the git hooks stay.`,
		Flags: agentFlags(&opts.agent, false),
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("uninstall takes no arguments")
			}
			if len(opts.agent.agents.Value()) > 0 {
				return runAgentSetup(c.Context, env, g, opts.agent, false)
			}
			if err := gitHooksOnly(c); err != nil {
				return err
			}
			return runUninstall(c.Context, env, g, opts)
		},
	}
}

// gitHooksOnly refuses the agent flags without --agent.
func gitHooksOnly(c *cli.Context) error {
	for _, f := range []string{"scope", "write", "notify"} {
		if c.IsSet(f) {
			return usageErrorHint("add --agent claude-code (or --agent all)", "--%s is for an agent's setup and needs --agent", f)
		}
	}
	return nil
}

// hooksDir is where git runs the repository's hooks from.
func hooksDir(ctx context.Context, w *workspace.Workspace) (string, error) {
	dir, err := gitstore.HooksDir(ctx, w.Repo)
	if err != nil {
		return "", cannotRun(err)
	}
	return dir, nil
}

// installHooks installs the hooks of w's repository and reports on
// env.Stderr what it did; with opts.print, or when a hook manager owns the
// hooks (unless opts.force), it prints to env.Stdout instead and writes
// nothing (nil results). A foreign hook without opts.chain is an exit-1
// error that wraps the *githook.ForeignHookError.
func installHooks(ctx context.Context, env Env, w *workspace.Workspace, opts installOptions) ([]githook.ShimResult, error) {
	dir, err := hooksDir(ctx, w)
	if err != nil {
		return nil, err
	}
	shown := displayPath(env, dir)
	if !opts.force {
		if m, ok := githook.DetectManager(w.Repo.TopLevel, dir); ok {
			text := m.Instructions
			if v := version(); !strings.HasPrefix(v, "devel") {
				text = strings.ReplaceAll(text, githook.VersionPlaceholder, "v"+v)
			}
			fmt.Fprint(env.Stdout, text)
			statusf(env.Stderr, "%s manages the hooks of this repository (%s); nothing written", m.Name, m.Evidence)
			statusf(env.Stderr, "add the lines printed above to its configuration, or run 'git yoimem install --force' to write hooks into %s anyway", shown)
			return nil, nil
		}
	}
	if opts.print {
		for i, name := range githook.Names() {
			if i > 0 {
				fmt.Fprintln(env.Stdout)
			}
			fmt.Fprintf(env.Stdout, "==> %s <==\n%s", displayPath(env, filepath.Join(dir, name)), githook.Shim(name))
		}
		return nil, nil
	}
	results, err := githook.Install(dir, githook.Options{Chain: opts.chain, Shared: gitstore.SharedIn(w.Repo, dir)})
	unchanged := 0
	for _, r := range results {
		if r.Action == githook.Unchanged {
			unchanged++
		}
	}
	if err == nil && unchanged == len(results) {
		statusf(env.Stderr, "git-yoimem hooks are already installed in %s; nothing to do", shown)
	} else {
		for _, r := range results {
			p := displayPath(env, r.Path)
			switch r.Action {
			case githook.Unchanged:
				statusf(env.Stderr, "%s is up to date", p)
			case githook.Chained:
				statusf(env.Stderr, "installed %s; the hook that was there is now %s%s and runs first", p, r.Hook, githook.PrevSuffix)
			default:
				statusf(env.Stderr, "%s %s", r.Action, p)
			}
		}
	}
	var fe *githook.ForeignHookError
	var pe *githook.PrevExistsError
	switch {
	case errors.As(err, &fe):
		msg, it := "a hook that git-yoimem did not write is in the way; nothing installed:\n", "it"
		if len(fe.Paths) > 1 {
			msg, it = "hooks that git-yoimem did not write are in the way; nothing installed:\n", "each"
		}
		return nil, &exitError{
			code: exitFindings,
			err:  &wrapped{msg: msg + listPaths(env, fe.Paths), err: err},
			hints: []string{
				"git yoimem install --chain keeps " + it + " as <hook>" + githook.PrevSuffix + " and runs it before git-yoimem; or remove " + it + " and run 'git yoimem install' again",
			},
		}
	case errors.As(err, &pe):
		return nil, &exitError{
			code: exitFindings,
			err:  &wrapped{msg: "cannot chain: a hook that git-yoimem did not write is already kept as:\n" + listPaths(env, pe.Paths), err: err},
			hints: []string{
				"compare it with the hook of the same name, merge or remove one of them, then run 'git yoimem install --chain' again",
			},
		}
	case err != nil:
		return results, cannotRun(err)
	}
	if len(results) > unchanged && !onPath(env, "git-yoimem") {
		warnf(env.Stderr, "git-yoimem is not on PATH: the hooks will stop commits and pushes until it is")
	}
	return results, nil
}

func runUninstall(ctx context.Context, env Env, g *globalOptions, _ uninstallOptions) error {
	w, err := locate(ctx, env, g)
	if err != nil {
		return err
	}
	dir, err := hooksDir(ctx, w)
	if err != nil {
		return err
	}
	if err := unregisterMergeDriver(ctx, env, w); err != nil {
		return err
	}
	results, err := githook.Uninstall(dir)
	changed := 0
	for _, r := range results {
		p := displayPath(env, r.Path)
		switch r.Action {
		case githook.Restored:
			changed++
			statusf(env.Stderr, "restored %s from %s%s", p, r.Hook, githook.PrevSuffix)
		case githook.Kept:
			statusf(env.Stderr, "left %s alone: git-yoimem did not write it", p)
		default:
			changed++
			statusf(env.Stderr, "%s %s", r.Action, p)
		}
	}
	if err != nil {
		return cannotRun(err)
	}
	if changed == 0 {
		statusf(env.Stderr, "no git-yoimem hooks in %s; nothing to do", displayPath(env, dir))
		if m, ok := githook.DetectManager(w.Repo.TopLevel, dir); ok {
			statusf(env.Stderr, "%s manages the hooks of this repository (%s): if its configuration runs 'git yoimem hook', remove that there", m.Name, m.Evidence)
		}
	}
	return nil
}

func listPaths(env Env, paths []string) string {
	var b strings.Builder
	for i, p := range paths {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("  " + displayPath(env, p))
	}
	return b.String()
}

// wrapped is an error with its own message that still matches what it
// wraps (errors.Is, errors.As).
type wrapped struct {
	msg string
	err error
}

func (e *wrapped) Error() string { return e.msg }
func (e *wrapped) Unwrap() error { return e.err }

// onPath reports whether an executable file called name is in a directory
// of env's PATH.
func onPath(env Env, name string) bool {
	if env.Getenv == nil {
		return true // cannot tell: do not warn
	}
	for _, d := range filepath.SplitList(env.Getenv("PATH")) {
		if !filepath.IsAbs(d) {
			d = filepath.Join(env.Dir, d)
		}
		fi, err := os.Stat(filepath.Join(d, name))
		if err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0 {
			return true
		}
	}
	return false
}
