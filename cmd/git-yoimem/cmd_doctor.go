package main

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/doctor"
)

type doctorOptions struct {
	format string
}

func newDoctorCommand(env Env, g *globalOptions) *cli.Command {
	var opts doctorOptions
	return &cli.Command{
		Name:      "doctor",
		Usage:     "check that memory runs by itself here, and say what fixes each problem",
		UsageText: "git yoimem doctor [--format text|json]",
		Description: `Checks the git hooks (installed and current), each agent's hooks and MCP
server in each scope (git yoimem install --agent), the extract and
consolidation models and their API keys (the variable is named, its value
never printed), the helper git-yoimem-llm that makes API calls (beside
git-yoimem or on PATH), the staging entries waiting and whether
consolidation is due, the memory commits not yet merged into the base
branch, the usage events waiting for the next consolidation, and the
last background run of each agent session (the newest 5 per agent: when,
extract's and consolidation's results and errors, the log; a failed run,
or one that never finished, is a problem whose fix names the log).

Each line is "ok" or "problem", the check and what was found; under a
problem, "fix:" gives the command that fixes it. Writes nothing. Exit 0
when all is well, 1 when a problem was found, 2 when it could not run.

--format json prints {checks: [{check, ok, detail, fix}], git_hooks,
agents, models, helper, staging, memory_branch, usage, sessions}.`,
		Flags: []cli.Flag{formatFlag(&opts.format)},
		Action: func(c *cli.Context) error {
			if err := checkFormat(opts.format); err != nil {
				return err
			}
			if c.NArg() > 0 {
				return usageError("doctor takes no arguments")
			}
			return runDoctor(c.Context, env, g, opts)
		},
	}
}

func runDoctor(ctx context.Context, env Env, g *globalOptions, opts doctorOptions) error {
	w, err := locate(ctx, env, g)
	if err != nil {
		return err
	}
	if err := configure(ctx, w); err != nil {
		return err
	}
	in := doctor.Input{W: w, Getenv: env.Getenv, Now: env.Now}
	if env.Getenv != nil {
		in.Home = env.Getenv("HOME")
	}
	if exe, err := os.Executable(); err == nil {
		in.Executable = exe
	}
	r, err := doctor.Run(ctx, in)
	if err != nil {
		if ctx.Err() != nil {
			return ctx.Err()
		}
		return cannotRun(err)
	}
	if opts.format == "json" {
		err = writeJSON(env, r)
	} else {
		err = printChecks(env, r.Checks)
	}
	if err != nil {
		return err
	}
	n := r.Problems()
	if n == 0 {
		statusf(env.Stderr, "all is well")
		return nil
	}
	statusf(env.Stderr, "%d problem%s found", n, map[bool]string{true: "", false: "s"}[n == 1])
	return silentExit(exitFindings)
}

// printChecks writes one line per check, the fix under a problem.
func printChecks(env Env, checks []doctor.Check) error {
	width := 0
	for _, c := range checks {
		width = max(width, len(c.Name))
	}
	var b strings.Builder
	for _, c := range checks {
		verdict := "ok"
		if !c.OK {
			verdict = "problem"
		}
		fmt.Fprintf(&b, "%-8s %-*s  %s\n", verdict, width, c.Name, c.Detail)
		if c.Fix != "" {
			fmt.Fprintf(&b, "%-8s %-*s  fix: %s\n", "", width, "", c.Fix)
		}
	}
	_, err := fmt.Fprint(env.Stdout, b.String())
	return err
}
