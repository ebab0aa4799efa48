package main

import (
	"io"
	"reflect"
	"strings"
	"testing"
)

// TestParseArgs: the shapes parseArgs gives urfave/cli, and what it
// refuses before cli sees it.
func TestParseArgs(t *testing.T) {
	var g globalOptions
	app := newApp(Env{Stdout: io.Discard, Stderr: io.Discard}, &g)
	for _, tt := range []struct {
		in, want string // space-separated; want "error: …" for a refusal
	}{
		{"lint", "lint"},
		{"lint .yoi --format json", "lint --format json -- .yoi"},
		{"search knowledge retry --kind rule", "search --kind rule -- knowledge retry"},
		{"search knowledge -- --format", "search -- knowledge --format"},
		{"search knowledge -- -", "search -- knowledge -"},
		{"memory write - --create", "memory --create -- write -"},
		{"memory edit x --old --help --new y", "memory --old --help --new y -- edit x"},
		{"memory read x --help", "memory --help"},
		{"-c yoimem.branch=m memory read -h", "-c yoimem.branch=m memory --help"},
		{"search knowledge retry --session abc", "--session abc search -- knowledge retry"},
		{"--workspace w lint -c yoimem.branch=m", "--workspace w -c yoimem.branch=m lint"},
		{"lint --format=json --list-rules", "lint --format=json --list-rules"},
		{"--version", "--version"},
		{"help lint", "help lint"},
		{"", ""},
		{"lint --bogus", "error: unknown flag --bogus for 'git yoimem lint'"},
		{"lint --bogus=1", "error: unknown flag --bogus for 'git yoimem lint'"},
		{"--bogus lint", "error: unknown flag --bogus"},
		{"lint --format", "error: flag --format needs a value"},
		{"-c", "error: flag -c needs a value"},
		{"serch", `error: unknown command "serch"`},
		{"help serch", `error: unknown command "serch"`},
	} {
		args := append([]string{"git-yoimem"}, strings.Fields(tt.in)...)
		inv, err := parseArgs(app, args)
		got := ""
		if err != nil {
			got = "error: " + err.Error()
		} else {
			got = strings.Join(inv.args[1:], " ")
		}
		if got != tt.want {
			t.Errorf("parseArgs(%q)\n got %q\nwant %q", tt.in, got, tt.want)
		}
	}
}

func TestUsageHints(t *testing.T) {
	var g globalOptions
	app := newApp(Env{Stdout: io.Discard, Stderr: io.Discard}, &g)
	for _, tt := range []struct {
		cmd  string
		args []string
		want []string
	}{
		{"memory", []string{"edit"}, []string{"usage: git yoimem memory edit PATH --old TEXT --new TEXT [--expect BLOB]"}},
		{"hook", []string{"pre-push"}, []string{"usage: git yoimem hook pre-push [REMOTE [URL]] < REF-LINES"}},
		{"search", []string{"memory", "x"}, []string{
			"usage: git yoimem search knowledge|memory [--kind KIND] [--format text|json] QUERY...",
			"usage: git yoimem search knowledge|memory --slug SLUG [--format text|json]"}},
		{"init", []string{"x"}, []string{"usage: git yoimem init [--no-hooks]"}},
	} {
		if got := usageHints(app.Command(tt.cmd), tt.args); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("usageHints(%s, %q) = %q, want %q", tt.cmd, tt.args, got, tt.want)
		}
	}
}

// TestEveryCommandHasUsage: the usage lines are the hints of usage errors
// and the synopsis of the man page; each begins with the command.
func TestEveryCommandHasUsage(t *testing.T) {
	var g globalOptions
	app := newApp(Env{Stdout: io.Discard, Stderr: io.Discard}, &g)
	for _, c := range app.Commands {
		if c.UsageText == "" {
			t.Errorf("%s: no UsageText", c.Name)
		}
		for _, l := range strings.Split(c.UsageText, "\n") {
			if !strings.HasPrefix(l, "git yoimem "+c.Name) {
				t.Errorf("%s: usage line %q does not begin with the command", c.Name, l)
			}
		}
	}
}
