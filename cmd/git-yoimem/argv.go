package main

import (
	"strings"

	"github.com/urfave/cli/v2"
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
