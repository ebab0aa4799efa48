package setup

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// userSettings is a settings file of the user's own, oddly written.
const userSettings = "{\n\t\"permissions\": {\"allow\": [\"Bash(go test:*)\"]},\n\t\"env\":   {\"FOO\": \"1\"},\n\t\"hooks\": {\n\t\t\"Stop\": [ {\"hooks\": [{\"type\": \"command\", \"command\": \"say done\"}]} ]\n\t}\n}\n"

// claudeState is a ~/.claude.json as Claude Code writes it.
const claudeState = `{
  "numStartups": 3,
  "projects": {
    "/other": {
      "allowedTools": []
    },
    "TOP": {
      "allowedTools": [],
      "mcpServers": {
        "db": {
          "command": "db-mcp"
        }
      },
      "hasTrustDialogAccepted": true
    }
  },
  "userID": "x"
}
`

type tree struct {
	t         *testing.T
	top, home string
	created   string // the record of created files
}

func newTree(t *testing.T) tree {
	d := t.TempDir()
	tr := tree{t: t, top: filepath.Join(d, "repo"), home: filepath.Join(d, "home"), created: filepath.Join(d, "state", "created.json")}
	for _, p := range []string{tr.top, tr.home} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return tr
}

func (tr tree) loc() Locations { return Locations{Top: tr.top, Home: tr.home, Created: tr.created} }

func (tr tree) write(rel, content string, perm os.FileMode) string {
	p := filepath.Join(tr.top, rel)
	if strings.HasPrefix(rel, "~/") {
		p = filepath.Join(tr.home, rel[2:])
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		tr.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), perm); err != nil {
		tr.t.Fatal(err)
	}
	return p
}

// snapshot is every file below top and home with its mode.
func (tr tree) snapshot() map[string]string {
	m := map[string]string{}
	for _, root := range []string{tr.top, tr.home} {
		_ = filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(filepath.Dir(tr.top), p)
			if fi.IsDir() {
				m[rel+"/"] = ""
				return nil
			}
			b, _ := os.ReadFile(p)
			m[rel] = fi.Mode().Perm().String() + " " + string(b)
			return nil
		})
	}
	return m
}

func (tr tree) install(sc Scope, o Options) *Plan {
	tr.t.Helper()
	a, _ := Lookup(ClaudeCode)
	p, err := PlanInstall(a, sc, tr.loc(), o)
	if err != nil {
		tr.t.Fatalf("PlanInstall %s: %v", sc, err)
	}
	if err := p.Apply(); err != nil {
		tr.t.Fatalf("Apply %s: %v", sc, err)
	}
	return p
}

func (tr tree) uninstall(sc Scope) *Plan {
	tr.t.Helper()
	a, _ := Lookup(ClaudeCode)
	p, err := PlanUninstall(a, sc, tr.loc())
	if err != nil {
		tr.t.Fatalf("PlanUninstall %s: %v", sc, err)
	}
	if err := p.Apply(); err != nil {
		tr.t.Fatalf("Apply %s: %v", sc, err)
	}
	return p
}

func equalMaps(t *testing.T, got, want map[string]string) {
	t.Helper()
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s:\n got %q\nwant %q", k, got[k], v)
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: left behind", k)
		}
	}
}

func TestInstallUninstallRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name  string
		scope Scope
		files map[string]string // rel (or ~/rel) → content, before install
		perm  os.FileMode
		want  []string // files the install writes
	}{
		{"project, nothing there", Project, nil, 0o644, []string{".claude/settings.json", ".mcp.json"}},
		{"project, the user's settings", Project, map[string]string{".claude/settings.json": userSettings, ".mcp.json": "{\"mcpServers\": {\"db\": {\"command\": \"db\"}}}"}, 0o600, []string{".claude/settings.json", ".mcp.json"}},
		{"local, the user's settings and Claude Code's state", Local, map[string]string{".claude/settings.local.json": userSettings, "~/.claude.json": claudeState}, 0o600, []string{".claude/settings.local.json", "~/.claude.json"}},
		{"user, nothing there", User, nil, 0o644, []string{"~/.claude/settings.json", "~/.claude.json"}},
		{"user, the user's settings", User, map[string]string{"~/.claude/settings.json": userSettings, "~/.claude.json": claudeState}, 0o600, []string{"~/.claude/settings.json", "~/.claude.json"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t)
			for rel, c := range tc.files {
				tr.write(rel, strings.ReplaceAll(c, "TOP", tr.top), tc.perm)
			}
			before := tr.snapshot()
			p := tr.install(tc.scope, Options{})
			var shown []string
			for _, c := range p.Changes {
				shown = append(shown, c.File.Show)
				if c.Action == Unchanged {
					t.Errorf("%s: unchanged by install", c.File.Show)
				}
				b, err := os.ReadFile(c.File.Path)
				if err != nil {
					t.Fatal(err)
				}
				if !strings.Contains(string(b), "yoimem") {
					t.Errorf("%s: no entry of ours:\n%s", c.File.Show, b)
				}
				if c.Old != nil {
					fi, _ := os.Stat(c.File.Path)
					if fi.Mode().Perm() != tc.perm {
						t.Errorf("%s: mode %v, want %v kept", c.File.Show, fi.Mode().Perm(), tc.perm)
					}
				}
			}
			if strings.Join(shown, " ") != strings.Join(tc.want, " ") {
				t.Errorf("files %v, want %v", shown, tc.want)
			}
			a, _ := Lookup(ClaudeCode)
			if st, _ := StatusOf(a, tc.scope, tr.loc()); st.State() != Current {
				t.Errorf("status after install: %s (%+v)", st.State(), st.Files)
			}
			again, err := PlanInstall(a, tc.scope, tr.loc(), Options{})
			if err != nil || again.Changed() {
				t.Errorf("install again: changed %v, %v", again != nil && again.Changed(), err)
			}
			tr.uninstall(tc.scope)
			equalMaps(t, tr.snapshot(), before)
			if st, _ := StatusOf(a, tc.scope, tr.loc()); st.State() != Absent {
				t.Errorf("status after uninstall: %s", st.State())
			}
		})
	}
}

func TestLocalMCPInProjectEntry(t *testing.T) {
	tr := newTree(t)
	state := strings.ReplaceAll(claudeState, "TOP", tr.top)
	p := tr.write("~/.claude.json", state, 0o600)
	tr.install(Local, Options{Write: true})
	b, _ := os.ReadFile(p)
	want := strings.Replace(state, `          "command": "db-mcp"
        }
      },`, `          "command": "db-mcp"
        },
        "yoimem": {
          "type": "stdio",
          "command": "git",
          "args": [
            "yoimem",
            "mcp",
            "--write"
          ]
        }
      },`, 1)
	if string(b) != want {
		t.Errorf("~/.claude.json:\n%s\nwant\n%s", b, want)
	}
}

func TestLocalWithoutProjectEntry(t *testing.T) {
	tr := newTree(t)
	tr.write("~/.claude.json", `{"projects": {}}`, 0o600)
	before := tr.snapshot()
	a, _ := Lookup(ClaudeCode)
	_, err := PlanInstall(a, Local, tr.loc(), Options{})
	var fe *FileError
	if !errors.As(err, &fe) || !errors.Is(err, ErrNoProjectEntry) || fe.File.Show != "~/.claude.json" {
		t.Fatalf("err = %v, want a *FileError for ~/.claude.json wrapping ErrNoProjectEntry", err)
	}
	equalMaps(t, tr.snapshot(), before)
}

func TestInvalidFileRefusesEverything(t *testing.T) {
	for _, tc := range []struct{ rel, content, want string }{
		{".mcp.json", "{\"mcpServers\": {},}\n", "line 1"},
		{".claude/settings.json", "// comment\n{}", "not valid JSON"},
		{".claude/settings.json", "[1]", "not a JSON object"},
		{".mcp.json", `{"mcpServers": {"yoimem": {"command": "other"}}}`, "not git-yoimem's"},
	} {
		t.Run(tc.rel+" "+tc.want, func(t *testing.T) {
			tr := newTree(t)
			tr.write(tc.rel, tc.content, 0o644)
			before := tr.snapshot()
			a, _ := Lookup(ClaudeCode)
			_, err := PlanInstall(a, Project, tr.loc(), Options{})
			var fe *FileError
			if !errors.As(err, &fe) || !fe.Invalid || fe.File.Show != tc.rel || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want an invalid-file error naming %s and %q", err, tc.rel, tc.want)
			}
			if !strings.HasPrefix(err.Error(), tc.rel+": ") {
				t.Errorf("err %q does not start with the file", err)
			}
			equalMaps(t, tr.snapshot(), before)
			if st, _ := StatusOf(a, Project, tr.loc()); st.State() != Broken {
				t.Errorf("status: %s, want invalid", st.State())
			}
		})
	}
}

func TestSymlinkStaysALink(t *testing.T) {
	tr := newTree(t)
	real := tr.write("~/dotfiles/settings.json", userSettings, 0o644)
	link := filepath.Join(tr.home, ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	tr.install(User, Options{})
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("%s is no longer a symlink (%v)", link, err)
	}
	tr.uninstall(User)
	if b, _ := os.ReadFile(real); string(b) != userSettings {
		t.Errorf("the link's target after uninstall:\n%s", b)
	}
}

func TestStatusOutdated(t *testing.T) {
	tr := newTree(t)
	tr.install(Project, Options{})
	// an older install: one event's hook missing
	p := filepath.Join(tr.top, ".claude", "settings.json")
	b, _ := os.ReadFile(p)
	i := strings.Index(string(b), `"SessionEnd"`)
	if i < 0 {
		t.Fatalf("no SessionEnd in\n%s", b)
	}
	cut := strings.TrimRight(string(b[:i]), " \t\n")
	cut = strings.TrimSuffix(cut, ",") + "\n  }\n}\n"
	if err := os.WriteFile(p, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	a, _ := Lookup(ClaudeCode)
	st, err := StatusOf(a, Project, tr.loc())
	if err != nil {
		t.Fatal(err)
	}
	if st.State() != Outdated || st.Files[0].State != Outdated || st.Files[1].State != Current {
		t.Errorf("status %s %+v, want outdated settings, current .mcp.json", st.State(), st.Files)
	}
}

func TestUserScopeNeedsHome(t *testing.T) {
	a, _ := Lookup(ClaudeCode)
	for _, sc := range []Scope{Local, User} {
		if _, err := PlanInstall(a, sc, Locations{Top: t.TempDir()}, Options{}); err == nil || !strings.Contains(err.Error(), "HOME") {
			t.Errorf("%s without HOME: %v", sc, err)
		}
	}
}
