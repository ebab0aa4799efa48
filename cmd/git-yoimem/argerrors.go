package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/internal/suggest"
)

// The usage errors of the command line: each one line, with a hint that
// says what was probably meant or what the command takes.

// checkRequired: a required flag missing is one line that names it (cli
// would print the whole help first).
func checkRequired(cmd *cli.Command, given []string) error {
	for _, f := range cmd.Flags {
		if r, ok := f.(cli.RequiredFlag); !ok || !r.IsRequired() {
			continue
		}
		present := false
		for _, a := range given {
			present = present || isFlag(a) && findFlag([]cli.Flag{f}, a) != nil
		}
		if !present {
			arg, _ := unquoteUsage(f.(cli.DocGenerationFlag).GetUsage())
			e := usageError("%s needs %s %s", cmd.Name, dashed(f.Names()[0]), arg)
			e.hints = usageHints(cmd, nil)
			return e
		}
	}
	return nil
}

func unknownFlag(arg string, cmd *cli.Command, known []cli.Flag) error {
	var names []string
	for _, f := range known {
		names = append(names, f.Names()...)
	}
	where, help := "", "'git yoimem help' lists the global flags"
	if cmd != nil {
		where = " for 'git yoimem " + cmd.Name + "'"
		help = "'git yoimem " + cmd.Name + " --help' lists its flags"
	}
	err := usageErrorHint(help, "unknown flag %s%s", quote.Short(strings.SplitN(arg, "=", 2)[0]), where)
	if s := suggest.Closest(flagName(arg), names); len(s) > 0 {
		for i := range s {
			s[i] = dashed(s[i])
		}
		err.hints = []string{"did you mean " + suggest.OrList(s) + "?"}
	}
	return err
}

func missingValue(arg string, cmd *cli.Command) error {
	err := usageError("flag %s needs a value", quote.Short(arg))
	if cmd == nil {
		err.hints = []string{"'git yoimem help' describes the global flags"}
	}
	return err
}

func unknownCommand(app *cli.App, name string) error {
	var names []string
	for _, c := range app.VisibleCommands() {
		names = append(names, c.Name)
	}
	s := suggest.Closest(name, append(names, "help"))
	if len(s) == 0 && len(suggest.Closest(strings.TrimLeft(name, "-"), []string{"version"})) > 0 {
		s = []string{"--version"}
	}
	err := usageErrorHint("'git yoimem help' lists the commands", "unknown command %s", quote.Value(name))
	if len(s) > 0 {
		for i := range s {
			s[i] = "'git yoimem " + s[i] + "'"
		}
		err.hints = []string{"did you mean " + suggest.OrList(s) + "?"}
	}
	return err
}

// choiceError is a word that must be one of a few (a memory operation, a
// hook, a search scope): "unknown memory operation "raed": want read,
// write, edit or delete", and what was meant, as a command line (prefix
// and the word).
func choiceError(what, got string, choices []string, prefix string) error {
	err := usageError("unknown %s %s: want %s", what, quote.Value(got), suggest.OrList(choices))
	if s := suggest.Closest(got, choices); len(s) > 0 {
		for i := range s {
			s[i] = fmt.Sprintf("'%s %s'", prefix, s[i])
		}
		err.hints = []string{"did you mean " + suggest.OrList(s) + "?"}
	}
	return err
}

// usageHints are the lines of a command's usage that fit the arguments
// given ("memory read" shows read's line), or all of them.
func usageHints(cmd *cli.Command, args []string) []string {
	lines := strings.Split(strings.TrimSpace(cmd.UsageText), "\n")
	if len(args) > 0 {
		var fit []string
		for _, l := range lines {
			f := strings.Fields(l)
			if len(f) > 3 && slices.Contains(strings.Split(f[3], "|"), args[0]) {
				fit = append(fit, l)
			}
		}
		if len(fit) > 0 {
			lines = fit
		}
	}
	hints := make([]string, 0, len(lines))
	for _, l := range lines {
		hints = append(hints, "usage: "+strings.TrimSpace(l))
	}
	return hints
}

// flagErrorText is an error of Go's flag package with the flag named as
// it is typed ("invalid value "x" for flag --max-runs", not "-max-runs"),
// and what the flag wants instead of "parse error".
func flagErrorText(err error, flags []cli.Flag) string {
	msg := err.Error()
	for _, prefix := range []string{"for flag -", "for -", "argument: -", "not defined: -"} {
		i := strings.Index(msg, prefix)
		if i < 0 {
			continue
		}
		at := i + len(prefix)
		name, _, _ := strings.Cut(msg[at:], ":")
		if len(name) > 1 {
			msg = msg[:at] + "-" + msg[at:]
		}
		if want := flagWants(findFlag(flags, name)); want != "" {
			msg = strings.Replace(msg, ": parse error", ": want "+want, 1)
		}
		break
	}
	return msg
}

// flagWants says what values a flag takes, for an error message.
func flagWants(f cli.Flag) string {
	switch f.(type) {
	case *cli.IntFlag, *cli.Int64Flag, *cli.UintFlag, *cli.Uint64Flag:
		return "a whole number"
	case *cli.BoolFlag:
		return "true or false"
	}
	return ""
}
