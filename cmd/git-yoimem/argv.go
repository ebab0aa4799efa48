package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/internal/suggest"
)

// invocation is a command line checked by parseArgs.
type invocation struct {
	args       []string     // in the shape urfave/cli parses
	cmd        *cli.Command // the command named; nil for the program's own help or version
	positional []string     // the command's arguments, flags left out
}

// parseArgs checks a command line (args[0] is the program name) against
// the commands and their flags, and puts it in the shape urfave/cli v2
// parses, which stops at a command's first argument and knows nothing of
// misspellings:
//   - a command's flags may come anywhere among its arguments, as with
//     git, and the program's own flags (-c, --workspace, --session) after
//     the command as well; "--" ends the flags;
//   - --help or -h anywhere among a command's arguments asks for its help
//     (a flag's value is a value, whatever it says);
//   - an unknown command or flag, or a flag without its value, is a usage
//     error that says what was probably meant.
func parseArgs(app *cli.App, args []string) (invocation, error) {
	global := appFlags(app)
	i := 1
	for i < len(args) && isFlag(args[i]) {
		f := findFlag(global, args[i])
		if f == nil {
			return invocation{}, unknownFlag(args[i], nil, global)
		}
		if needsValue(f, args[i]) {
			if i+1 >= len(args) {
				return invocation{}, missingValue(args[i], nil)
			}
			i++
		}
		i++
	}
	if i >= len(args) || args[i] == "--" {
		return invocation{args: args}, nil
	}
	if args[i] == "help" || args[i] == "h" {
		if i+1 < len(args) && !isFlag(args[i+1]) && app.Command(args[i+1]) == nil {
			return invocation{}, unknownCommand(app, args[i+1])
		}
		return invocation{args: args}, nil
	}
	cmd := app.Command(args[i])
	if cmd == nil {
		return invocation{}, unknownCommand(app, args[i])
	}
	inv := invocation{cmd: cmd}
	globals := append([]string(nil), args[1:i]...)
	var flags []string
	help := false
	for j := i + 1; j < len(args); j++ {
		a := args[j]
		if a == "--" {
			inv.positional = append(inv.positional, args[j+1:]...)
			break
		}
		if !isFlag(a) {
			inv.positional = append(inv.positional, a)
			continue
		}
		if isHelp(a) {
			help = true
			continue
		}
		dest := &flags
		f := findFlag(cmd.Flags, a)
		if f == nil {
			if f = findFlag(app.Flags, a); f == nil {
				return invocation{}, unknownFlag(a, cmd, append(append([]cli.Flag(nil), cmd.Flags...), app.Flags...))
			}
			dest = &globals
		}
		*dest = append(*dest, a)
		if needsValue(f, a) {
			if j+1 >= len(args) {
				return invocation{}, missingValue(a, cmd)
			}
			j++
			*dest = append(*dest, args[j])
		}
	}
	out := append(append([]string{args[0]}, globals...), args[i])
	if help {
		inv.args = append(out, "--help")
		return inv, nil
	}
	if err := checkRequired(cmd, flags); err != nil {
		return invocation{}, err
	}
	out = append(out, flags...)
	if len(inv.positional) > 0 {
		// "--" keeps an argument such as "-" or "--x" (after the user's
		// own "--") an argument.
		out = append(append(out, "--"), inv.positional...)
	}
	inv.args = out
	return inv, nil
}

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

// unquoteUsage reads a flag's usage as urfave/cli does: the first word in
// backticks names the value ("the workspace root `DIR`").
func unquoteUsage(usage string) (name, text string) {
	i := strings.IndexByte(usage, '`')
	if i < 0 {
		return "", usage
	}
	j := strings.IndexByte(usage[i+1:], '`')
	if j < 0 {
		return "", usage
	}
	name = usage[i+1 : i+1+j]
	return name, usage[:i] + name + usage[i+2+j:]
}

// isFlag: "-x", "--x", "--x=v"; "-" alone (standard input) and "--" are
// not flags.
func isFlag(a string) bool {
	return len(a) > 1 && a[0] == '-' && a != "--"
}

func isHelp(a string) bool {
	switch a {
	case "--help", "-help", "-h", "--h":
		return true
	}
	return false
}

// appFlags are the program's own flags, with the --help and --version
// that urfave/cli adds when it runs.
func appFlags(app *cli.App) []cli.Flag {
	return append(append([]cli.Flag(nil), app.Flags...), cli.HelpFlag, cli.VersionFlag)
}

// flagName is the name in "-x", "--name" or "--name=value".
func flagName(arg string) string {
	name, _, _ := strings.Cut(strings.TrimLeft(arg, "-"), "=")
	return name
}

func findFlag(flags []cli.Flag, arg string) cli.Flag {
	name := flagName(arg)
	if name == "" {
		return nil
	}
	for _, f := range flags {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

// needsValue: a flag that takes a value, given without "=value".
func needsValue(f cli.Flag, arg string) bool {
	_, isBool := f.(*cli.BoolFlag)
	return !isBool && !strings.Contains(arg, "=")
}

// dashed is a flag name as typed on a command line: -c, --format.
func dashed(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
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
	err := usageErrorHint(help, "unknown flag %s%s", strings.SplitN(arg, "=", 2)[0], where)
	if s := suggest.Closest(flagName(arg), names); len(s) > 0 {
		for i := range s {
			s[i] = dashed(s[i])
		}
		err.hints = []string{"did you mean " + suggest.OrList(s) + "?"}
	}
	return err
}

func missingValue(arg string, cmd *cli.Command) error {
	err := usageError("flag %s needs a value", arg)
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
	err := usageErrorHint("'git yoimem help' lists the commands", "unknown command %q", name)
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
	err := usageError("unknown %s %q: want %s", what, got, suggest.OrList(choices))
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
