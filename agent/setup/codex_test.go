package setup

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/agent"
	"github.com/yoimem/git-yoimem/agent/codex"
)

// userConfig is a Codex config.toml of the user's own: comments, their
// own MCP server, tables, no final blank line.
const userConfig = `# my Codex setup
model = "gpt-5.3-codex"   # the default model

[mcp_servers.db]
command = "db-mcp"
args = ["--ro"]

[projects."/home/u/shop"]
trust_level = "trusted"
`

const userHooks = "{\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]}]\n  }\n}\n"

const userAgentsMD = "# Shop\n\nRun `go test ./...` before committing.\n"

// memoryContext is a fixed always-on context.
func memoryContext(summary string) func() (agent.Context, error) {
	return func() (agent.Context, error) { return agent.Context{Summary: summary}, nil }
}

func (tr tree) codexLoc(summary string) Locations {
	l := tr.loc()
	l.Context = memoryContext(summary)
	return l
}

func lookupCodex(t *testing.T) Agent {
	t.Helper()
	a, err := Lookup(Codex)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func (tr tree) apply(p *Plan, err error) *Plan {
	tr.t.Helper()
	if err != nil {
		tr.t.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		tr.t.Fatal(err)
	}
	return p
}

// TestCodexInstallUninstallRoundTrip: install writes hooks.json,
// config.toml (the MCP server; notify with Notify) and, in the project
// scope, AGENTS.md's block; install again changes nothing; uninstall
// leaves the user's own files byte for byte.
func TestCodexInstallUninstallRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		scope Scope
		files map[string]string
		o     Options
		want  []string
	}{
		{"project, nothing there", Project, nil, Options{}, []string{".codex/hooks.json", ".codex/config.toml", "AGENTS.md"}},
		{"project, the user's files", Project, map[string]string{".codex/hooks.json": userHooks, ".codex/config.toml": userConfig, "AGENTS.md": userAgentsMD}, Options{Write: true}, []string{".codex/hooks.json", ".codex/config.toml", "AGENTS.md"}},
		{"user, nothing there", User, nil, Options{}, []string{"~/.codex/hooks.json", "~/.codex/config.toml"}},
		{"user, the user's files", User, map[string]string{"~/.codex/hooks.json": userHooks, "~/.codex/config.toml": userConfig}, Options{Notify: true}, []string{"~/.codex/hooks.json", "~/.codex/config.toml"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t)
			for rel, c := range tc.files {
				tr.write(rel, c, 0o600)
			}
			before := tr.snapshot()
			a, loc := lookupCodex(t), tr.codexLoc("# Summary\n\nPayments use Postgres.\n")
			p := tr.apply(PlanInstall(a, tc.scope, loc, tc.o))
			var shown []string
			for _, c := range p.Changes {
				shown = append(shown, c.File.Show)
				b, _ := os.ReadFile(c.File.Path)
				if c.Action == Unchanged || !strings.Contains(string(b), "yoimem") {
					t.Errorf("%s: %s, no entry of ours:\n%s", c.File.Show, c.Action, b)
				}
				if c.File.Role == AgentsMD && !strings.Contains(string(b), "Payments use Postgres.") {
					t.Errorf("AGENTS.md without the memory:\n%s", b)
				}
				if c.File.Role == MCP && tc.o.Notify && !strings.Contains(string(b), `notify = ["git", "yoimem", "hook", "codex", "notify"]`) {
					t.Errorf("config.toml without notify:\n%s", b)
				}
			}
			if strings.Join(shown, " ") != strings.Join(tc.want, " ") {
				t.Errorf("files %v, want %v", shown, tc.want)
			}
			if st, _ := StatusOf(a, tc.scope, loc); st.State() != Current {
				t.Errorf("status after install: %s (%+v)", st.State(), st.Files)
			}
			if again, err := PlanInstall(a, tc.scope, loc, tc.o); err != nil || again.Changed() {
				t.Errorf("install again: changed %v, %v", again != nil && again.Changed(), err)
			}
			tr.apply(PlanUninstall(a, tc.scope, loc))
			equalMaps(t, tr.snapshot(), before)
			if st, _ := StatusOf(a, tc.scope, loc); st.State() != Absent {
				t.Errorf("status after uninstall: %s", st.State())
			}
		})
	}
}

// TestCodexHome: the user scope's files are under CODEX_HOME when set.
func TestCodexHome(t *testing.T) {
	tr := newTree(t)
	ch := filepath.Join(tr.home, "elsewhere")
	loc := Locations{CodexHome: ch}
	files, err := lookupCodex(t).Files(User, loc)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != 2 || files[0].Path != filepath.Join(ch, "hooks.json") || files[1].Path != filepath.Join(ch, "config.toml") || files[0].Show != "$CODEX_HOME/hooks.json" {
		t.Errorf("files %+v", files)
	}
	if _, err := lookupCodex(t).Files(User, Locations{}); !errors.Is(err, ErrNoHome) {
		t.Errorf("no HOME, no CODEX_HOME: %v", err)
	}
}

// TestCodexAgentsMDOutdated: the block is current while it holds the
// memory as it is; a changed summary makes it outdated, and install
// refreshes it (the user's lines kept).
func TestCodexAgentsMDOutdated(t *testing.T) {
	tr := newTree(t)
	tr.write("AGENTS.md", userAgentsMD, 0o644)
	a := lookupCodex(t)
	tr.apply(PlanInstall(a, Project, tr.codexLoc("first"), Options{}))
	st, _ := StatusOf(a, Project, tr.codexLoc("second"))
	if st.State() != Outdated || st.Files[2].State != Outdated {
		t.Fatalf("status %s %+v; want AGENTS.md outdated", st.State(), st.Files)
	}
	tr.apply(PlanInstall(a, Project, tr.codexLoc("second"), Options{}))
	b, _ := os.ReadFile(filepath.Join(tr.top, "AGENTS.md"))
	if !strings.HasPrefix(string(b), userAgentsMD) || !strings.Contains(string(b), "second") || strings.Contains(string(b), "first") {
		t.Errorf("AGENTS.md:\n%s", b)
	}
}

// TestCodexNotifyTaken: the user's own notify refuses the install,
// naming it; nothing is written.
func TestCodexNotifyTaken(t *testing.T) {
	tr := newTree(t)
	tr.write("~/.codex/config.toml", "notify = [\"say\", \"done\"]\n"+userConfig, 0o600)
	before := tr.snapshot()
	_, err := PlanInstall(lookupCodex(t), User, tr.loc(), Options{Notify: true})
	var nt *codex.NotifyTakenError
	if !errors.As(err, &nt) || !strings.Contains(err.Error(), `notify = ["say", "done"]`) || !strings.HasPrefix(err.Error(), "~/.codex/config.toml: ") {
		t.Fatalf("err = %v; want a NotifyTakenError naming the file and the user's notify", err)
	}
	equalMaps(t, tr.snapshot(), before)
	// without --notify the user's notify is no matter
	tr.apply(PlanInstall(lookupCodex(t), User, tr.loc(), Options{}))
}

// TestCodexNotifyStatus: NotifyOf tells whether config.toml runs our
// notify.
func TestCodexNotifyStatus(t *testing.T) {
	tr := newTree(t)
	a := lookupCodex(t)
	tr.apply(PlanInstall(a, User, tr.loc(), Options{}))
	st, _ := StatusOf(a, User, tr.loc())
	if st.Notify {
		t.Errorf("notify reported without --notify")
	}
	tr.apply(PlanInstall(a, User, tr.loc(), Options{Notify: true}))
	st, _ = StatusOf(a, User, tr.loc())
	if !st.Notify || st.State() != Current {
		t.Errorf("status %+v; want notify, current", st)
	}
}

// TestCodexNotifyUserOnly: --notify in the project scope is refused
// (Codex ignores notify there); nothing written.
func TestCodexNotifyUserOnly(t *testing.T) {
	tr := newTree(t)
	before := tr.snapshot()
	_, err := PlanInstall(lookupCodex(t), Project, tr.codexLoc("x"), Options{Notify: true})
	if !errors.Is(err, ErrNotifyScope) {
		t.Fatalf("err = %v, want ErrNotifyScope", err)
	}
	equalMaps(t, tr.snapshot(), before)
}
