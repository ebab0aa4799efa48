package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// modulePrefix names this module's packages in an init trace.
const modulePrefix = "github.com/yoimem/git-yoimem/"

// maxInitAllocs bounds the allocations of any one package of ours while
// the program starts. Every command pays for every linked package's
// initialisation, so a package-level regexp, table or parsed template
// belongs behind a sync.OnceValue (or in the function that uses it). The
// bound is allocations, not time: the machine is shared and noisy.
const maxInitAllocs = 16

// initLine is one line of GODEBUG=inittrace=1: "init PKG @T ms, C ms
// clock, B bytes, A allocs".
var initLine = regexp.MustCompile(`^init (\S+) @\S+ ms, \S+ ms clock, (\d+) bytes, (\d+) allocs$`)

// initCost is what one package's initialisation allocated.
type initCost struct {
	bytes, allocs int
}

// TestStartupInits: `git-yoimem --version` runs no costly initialisation
// of ours. consolidate/agentcli (a run-ID regexp with {0,127}: 1,694
// allocations, the largest init of the binary), agent, agent/codex, eval
// and internal/secrets once built regexps or tables at start; a package
// whose init does nothing has no line in the trace. The binary is this
// test binary run as git-yoimem, as the scripts run it, so the packages
// only the tests link (stand-ins, fixtures) are held to the bound too;
// package main is not: in a test binary its init builds the tests'
// variables as well.
func TestStartupInits(t *testing.T) {
	trace := initTrace(t, "--version")
	for pkg, c := range trace {
		if strings.HasPrefix(pkg, modulePrefix) && pkg != modulePrefix+"cmd/git-yoimem" && c.allocs > maxInitAllocs {
			t.Errorf("%s: its init made %d allocations (%d bytes), over %d: defer the work to the command that needs it (sync.OnceValue)", pkg, c.allocs, c.bytes, maxInitAllocs)
		}
	}
}

// initTrace runs the test binary as git-yoimem with args and
// GODEBUG=inittrace=1, and returns each package's init cost.
func initTrace(t *testing.T, args ...string) map[string]initCost {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(t.TempDir(), "git-yoimem")
	if err := os.Symlink(self, bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	cmd.Dir = t.TempDir()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("git-yoimem %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out, stderr.Bytes())
	}
	trace := map[string]initCost{}
	sc := bufio.NewScanner(&stderr)
	for sc.Scan() {
		m := initLine.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		b, _ := strconv.Atoi(m[2])
		a, _ := strconv.Atoi(m[3])
		trace[m[1]] = initCost{bytes: b, allocs: a}
	}
	if len(trace) == 0 {
		t.Fatalf("git-yoimem %s: no init trace on stderr:\n%s", strings.Join(args, " "), stderr.Bytes())
	}
	return trace
}

// maxAppAllocs bounds what building the command line costs every
// command, git-yoimem --version included: 556 allocations when each of
// the 22 commands built its own copy of the same help template.
const maxAppAllocs = 300

// TestNewAppAllocs: building the app allocates within maxAppAllocs.
func TestNewAppAllocs(t *testing.T) {
	env, _, _ := testEnv(t, t.TempDir(), t.TempDir())
	allocs := testing.AllocsPerRun(20, func() {
		var g globalOptions
		newApp(env, &g)
	})
	if allocs > maxAppAllocs {
		t.Errorf("newApp: %.0f allocations, over %d", allocs, maxAppAllocs)
	}
}

// TestCommandHelpTemplate: every command's help ends with the exit
// statuses, whichever command it is.
func TestCommandHelpTemplate(t *testing.T) {
	env, _, _ := testEnv(t, t.TempDir(), t.TempDir())
	var g globalOptions
	app := newApp(env, &g)
	want := helpTemplate(cli.CommandHelpTemplate, []helpSection{exitStatusSection()})
	for _, cmd := range app.Commands {
		if cmd.CustomHelpTemplate != want {
			t.Errorf("%s: help template %q, want the command template with the exit statuses", cmd.Name, cmd.CustomHelpTemplate)
		}
	}
}
