package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/githook"
	"github.com/yoimem/git-yoimem/workspace"
)

type initOptions struct {
	noHooks bool
}

func newInitCommand(env Env, g *globalOptions) *cli.Command {
	var opts initOptions
	return &cli.Command{
		Name:      "init",
		Usage:     "create the .yoi/ layout in this repository",
		UsageText: "git yoimem init [--no-hooks]",
		Description: `Creates .yoi/ at the workspace root (the repository's top level unless
--workspace says otherwise): memory/decisions/, memory/requests/,
knowledge/, a starter memory/summary.md, a commented .yoi/config listing
every setting with its default, and .yoi/.gitignore so that git ignores
memory/_staging/. Existing files are left as they are, so running init
again is safe. Nothing outside .yoi/ is written, except the git hooks:
init runs 'git yoimem install' (pre-commit and pre-push shims) unless
--no-hooks is given. A hook that is not ours is left alone with a warning;
'git yoimem install --chain' keeps it and runs it first. When it has
created something, init ends with the next steps on stderr: commit .yoi/,
connect an agent.`,
		Flags: []cli.Flag{
			&cli.BoolFlag{Name: "no-hooks", Usage: "do not install the git hooks", Destination: &opts.noHooks},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("init takes no arguments")
			}
			return runInit(c.Context, env, g, opts)
		},
	}
}

func runInit(ctx context.Context, env Env, g *globalOptions, opts initOptions) error {
	w, err := locate(ctx, env, g)
	if err != nil {
		return err
	}
	yoi := w.YoiDir()
	created, err := w.Init(env.Now())
	if err != nil {
		return cannotRun(err)
	}
	for _, c := range created {
		statusf(env.Stderr, "created %s", c)
	}
	if len(created) == 0 {
		statusf(env.Stderr, "%s is already set up", displayPath(env, yoi))
	} else {
		statusf(env.Stderr, "initialized git-yoimem in %s", displayPath(env, yoi))
	}
	attrs, err := registerMergeDriver(ctx, env, w)
	if err != nil {
		return err
	}
	if !opts.noHooks {
		if err := initHooks(ctx, env, w); err != nil {
			return err
		}
	}
	if len(created) > 0 {
		add := shellQuote(displayPath(env, yoi))
		if attrs != "" {
			add += " " + shellQuote(displayPath(env, attrs))
		}
		fmt.Fprint(env.Stderr, nextSteps(add, mcpArgs(w)))
	}
	return nil
}

// mcpArgs are the arguments of 'git yoimem mcp' for a client that starts
// it at the top level: the workspace too, when it is elsewhere.
func mcpArgs(w *workspace.Workspace) string {
	args := `"yoimem", "mcp"`
	if rel, err := filepath.Rel(w.Repo.TopLevel, w.Root); err == nil && rel != "." {
		b, _ := json.Marshal(filepath.ToSlash(rel))
		args = `"yoimem", "--workspace", ` + string(b) + `, "mcp"`
	}
	return args
}

// initHooks installs the hooks; a hook we may not replace is the user's
// call, not a failed init: a warning.
func initHooks(ctx context.Context, env Env, w *workspace.Workspace) error {
	_, err := installHooks(ctx, env, w, installOptions{})
	var fe *githook.ForeignHookError
	var pe *githook.PrevExistsError
	if errors.As(err, &fe) || errors.As(err, &pe) {
		warnf(env.Stderr, "hooks not installed: %v", err)
		statusf(env.Stderr, "hint: 'git yoimem install --chain' keeps your hook and runs it before git-yoimem's")
		return nil
	}
	return err
}

// nextSteps is what a new .yoi/ needs from the user: a commit, so that the
// team and every clone share it, and an agent connected to it.
// add is what to git add, shell-quoted: .yoi and the .gitattributes that
// registers the record merge driver.
func nextSteps(add, mcpArgs string) string {
	// The agents' hooks open the top level's workspace: offered only there.
	agents := ""
	if mcpArgs == `"yoimem", "mcp"` {
		agents = `  connect your agent: git yoimem install --agent claude-code (or codex)
      its hooks and the MCP server; 'git yoimem doctor' checks the setup
`
	}
	return `next steps:
  git add ` + add + ` && git commit -m 'Add git-yoimem memory'
      commit the layout: the team and every clone share the memory
` + agents + `  connect an agent over MCP, e.g. in .mcp.json at the top level (Claude Code):
      {"mcpServers": {"yoimem": {"command": "git", "args": [` + mcpArgs + `]}}}
  'git yoimem help' and 'man git-yoimem' describe every command; the README
      of git-yoimem describes agents, retrieval and the memory branch
`
}

// shellQuote quotes s for sh when it holds anything but letters, digits
// and "_./-", so that a printed command runs as written.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
