package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/internal/buildinfo"
	"github.com/yoimem/git-yoimem/internal/quote"
)

// globalOptions are the flags every command sees.
type globalOptions struct {
	configFlags []string // -c yoimem.key=value
	workspace   string   // --workspace DIR
	session     string   // --session ID: the agent session usage is recorded for
	// ignoreEnvSession: $YOIMEM_SESSION is not a valid id (warned once):
	// no usage is recorded for it.
	ignoreEnvSession bool
}

func newApp(env Env, g *globalOptions) *cli.App {
	app := &cli.App{
		Name:                      "git yoimem",
		HelpName:                  "git yoimem",
		Usage:                     "durable, reviewable memory for AI coding agents, kept in git",
		UsageText:                 appUsageText,
		Description:               appDescription,
		Version:                   version(),
		Writer:                    env.Stdout,
		ErrWriter:                 env.Stderr,
		DisableSliceFlagSeparator: true,
		HideHelpCommand:           false,
		EnableBashCompletion:      false,
		CustomAppHelpTemplate:     helpTemplate(cli.AppHelpTemplate, helpSections()),
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "config", Aliases: []string{"c"}, Usage: "set `KEY=VALUE` for this run, e.g. -c yoimem.search.maxResults=5 (repeatable; wins over git config and .yoi/config)"},
			&cli.StringFlag{Name: "workspace", Usage: "the workspace root `DIR` that holds .yoi/, a directory of the repository's working tree (default: its top level)", Destination: &g.workspace},
			&cli.StringFlag{Name: "session", Usage: "the agent session `ID` that reads are recorded for (default: $YOIMEM_SESSION; none: reads are not recorded)", Destination: &g.session},
		},
		Before: func(c *cli.Context) error {
			g.configFlags = c.StringSlice("config")
			return nil
		},
		ExitErrHandler: func(*cli.Context, error) {}, // run maps errors to exit codes
		OnUsageError: func(c *cli.Context, err error, _ bool) error {
			var flags []cli.Flag
			if c.Command != nil {
				flags = c.Command.Flags
			}
			return usageError("%s", flagErrorText(err, flags))
		},
	}
	app.Commands = []*cli.Command{
		newInitCommand(env, g),
		newLintCommand(env, g),
		newCheckCommitsCommand(env, g),
		newConfigCommand(env, g),
		newInstallCommand(env, g),
		newUninstallCommand(env, g),
		newDoctorCommand(env, g),
		newHookCommand(env, g),
		newLogCommand(env, g),
		newReviewCommand(env, g),
		newMergeCommand(env, g),
		newPushCommand(env, g),
		newPullCommand(env, g),
		newMergeDriverCommand(env, g),
		newSearchCommand(env, g),
		newShowCommand(env, g),
		newContextCommand(env, g),
		newExpandCommand(env, g),
		newMemoryCommand(env, g),
		newMCPCommand(env, g),
		newStatsCommand(env, g),
		newExtractCommand(env, g),
		newConsolidateCommand(env, g),
		newEvalCommand(env, g),
	}
	// One template for all: built per command, it was most of what
	// building the app cost every command's start.
	cmdHelp := helpTemplate(cli.CommandHelpTemplate, []helpSection{exitStatusSection()})
	for _, cmd := range app.Commands {
		if cmd.OnUsageError == nil {
			cmd.OnUsageError = app.OnUsageError
		}
		cmd.CustomHelpTemplate = cmdHelp
		for _, f := range cmd.Flags {
			if b, ok := f.(*cli.BoolFlag); ok {
				b.DisableDefaultText = true // not "(default: false)" after every switch
			}
		}
		if recordsUsage(cmd.Name) {
			cmd.Before = func(*cli.Context) error { return checkSession(env, g) }
		}
	}
	return app
}

// run is the whole program: it parses args (args[0] is the program name),
// runs the command and returns the exit code.
func run(ctx context.Context, args []string, env Env) int {
	var g globalOptions
	app := newApp(env, &g)
	inv, err := parseArgs(app, args)
	if err != nil {
		return report(env.Stderr, err)
	}
	err = app.RunContext(ctx, inv.args)
	switch {
	case err == nil:
		return exitOK
	case ctx.Err() != nil && errors.Is(err, context.Canceled):
		fmt.Fprintln(env.Stderr, "git-yoimem: interrupted")
		return exitInterrupt
	}
	var ee *exitError
	if errors.As(err, &ee) && ee.usage && len(ee.hints) == 0 && inv.cmd != nil {
		ee.hints = usageHints(inv.cmd, inv.positional)
	}
	return report(env.Stderr, err)
}

func version() string { return buildinfo.Version() }

// formatFlag is the --format flag of listing commands.
func formatFlag(dest *string) *cli.StringFlag {
	return &cli.StringFlag{Name: "format", Value: "text", Usage: "output `FORMAT`: text or json", Destination: dest}
}

func checkFormat(f string) error {
	if f != "text" && f != "json" {
		return usageError("--format %s: want text or json", quote.Value(f))
	}
	return nil
}

// writeJSON prints v as indented JSON on stdout: the --format json of
// every listing command.
func writeJSON(env Env, v any) error {
	enc := json.NewEncoder(env.Stdout)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
