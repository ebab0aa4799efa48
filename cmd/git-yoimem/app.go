package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/buildinfo"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/internal/quote"
)

const exitCodesHelp = `EXIT STATUS:
   0    success; lint found no errors
   1    lint found errors, or an operation was refused
   2    could not run: bad usage, not a git repository, bad configuration, I/O error
   3    another process holds a lock
   130  interrupted`

// globalOptions are the flags every command sees.
type globalOptions struct {
	configFlags []string // -c yoimem.key=value
	workspace   string   // --workspace DIR
	session     string   // --session ID: the agent session usage is recorded for
}

func newApp(env Env, g *globalOptions) *cli.App {
	app := &cli.App{
		Name:                      "git yoimem",
		HelpName:                  "git yoimem",
		Usage:                     "durable, reviewable memory for AI coding agents, kept in git",
		Version:                   version(),
		Writer:                    env.Stdout,
		ErrWriter:                 env.Stderr,
		DisableSliceFlagSeparator: true,
		HideHelpCommand:           false,
		EnableBashCompletion:      false,
		CustomAppHelpTemplate:     cli.AppHelpTemplate + "\n" + exitCodesHelp + "\n",
		Flags: []cli.Flag{
			&cli.StringSliceFlag{Name: "config", Aliases: []string{"c"}, Usage: "set a configuration key for this run, e.g. -c yoimem.search.maxResults=5 (repeatable; wins over git config and .yoi/config)"},
			&cli.StringFlag{Name: "workspace", Usage: "workspace root that holds .yoi/ (default: the repository's top level)", Destination: &g.workspace},
			&cli.StringFlag{Name: "session", Usage: "agent session id that reads are recorded for (default: $YOIMEM_SESSION; none: reads are not recorded)", Destination: &g.session},
		},
		Before: func(c *cli.Context) error {
			g.configFlags = c.StringSlice("config")
			return nil
		},
		ExitErrHandler: func(*cli.Context, error) {}, // run maps errors to exit codes
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return usageError("%v", err)
		},
		CommandNotFound: func(c *cli.Context, name string) {
			fmt.Fprintf(env.Stderr, "git-yoimem: error: unknown command %q\nhint: see 'git yoimem help'\n", name)
		},
	}
	app.Commands = []*cli.Command{
		newInitCommand(env, g),
		newLintCommand(env, g),
		newConfigCommand(env, g),
		newInstallCommand(env, g),
		newUninstallCommand(env, g),
		newHookCommand(env, g),
		newLogCommand(env, g),
		newMergeCommand(env, g),
		newSearchCommand(env, g),
		newShowCommand(env, g),
		newContextCommand(env, g),
		newExpandCommand(env, g),
		newMemoryCommand(env, g),
		newMCPCommand(env, g),
		newStatsCommand(env, g),
		newExtractCommand(env, g),
	}
	for _, cmd := range app.Commands {
		if cmd.OnUsageError == nil {
			cmd.OnUsageError = app.OnUsageError
		}
		cmd.CustomHelpTemplate = cli.CommandHelpTemplate + "\n" + exitCodesHelp + "\n"
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
	unknown := false
	app.CommandNotFound = func(c *cli.Context, name string) {
		unknown = true
		fmt.Fprintf(env.Stderr, "git-yoimem: error: unknown command %q\nhint: see 'git yoimem help'\n", name)
	}
	err := app.RunContext(ctx, intersperse(app, args))
	switch {
	case unknown:
		return exitCannotRun
	case err == nil:
		return exitOK
	case ctx.Err() != nil && errors.Is(err, context.Canceled):
		fmt.Fprintln(env.Stderr, "git-yoimem: interrupted")
		return exitInterrupt
	}
	return report(env.Stderr, err)
}

func version() string { return buildinfo.Version() }

// formatFlag is the --format flag of listing commands.
func formatFlag(dest *string) *cli.StringFlag {
	return &cli.StringFlag{Name: "format", Value: "text", Usage: "output format: text or json", Destination: dest}
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

// intersperse moves a command's flags that follow its arguments in front
// of them ("search knowledge retry --format json"): urfave/cli v2 stops
// parsing flags at the first argument, and people type flags anywhere, as
// with git. "--" ends the flags, as usual.
func intersperse(app *cli.App, args []string) []string {
	i := 1
	for i < len(args) && strings.HasPrefix(args[i], "-") { // global flags
		if f := findFlag(app.Flags, args[i]); f != nil && takesValue(f) && !strings.Contains(args[i], "=") {
			i++
		}
		i++
	}
	if i >= len(args) {
		return args
	}
	cmd := app.Command(args[i])
	if cmd == nil {
		return args
	}
	out := append([]string(nil), args[:i+1]...)
	var flags, rest []string
	for j := i + 1; j < len(args); j++ {
		a := args[j]
		if a == "--" {
			rest = append(rest, args[j:]...)
			break
		}
		f := findFlag(cmd.Flags, a)
		if f == nil {
			rest = append(rest, a)
			continue
		}
		flags = append(flags, a)
		if takesValue(f) && !strings.Contains(a, "=") && j+1 < len(args) {
			j++
			flags = append(flags, args[j])
		}
	}
	return append(append(out, flags...), rest...)
}

func findFlag(flags []cli.Flag, arg string) cli.Flag {
	name := strings.TrimLeft(arg, "-")
	if name == arg || name == "" {
		return nil
	}
	name, _, _ = strings.Cut(name, "=")
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

func takesValue(f cli.Flag) bool {
	_, isBool := f.(*cli.BoolFlag)
	return !isBool
}
