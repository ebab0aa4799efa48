package codex

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/BurntSushi/toml"
)

func TestMergeConfigGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "config", "*.toml"))
	if len(files) < 5 {
		t.Fatal("no config.toml fixtures")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".toml")
		old, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, opts := range []ConfigOptions{{}, {Write: true}, {Notify: true}, {Write: true, Notify: true}} {
			suffix := ""
			if opts.Write {
				suffix += ".write"
			}
			if opts.Notify {
				suffix += ".notify"
			}
			t.Run(name+suffix, func(t *testing.T) {
				merged, err := MergeConfig(old, opts)
				if err != nil {
					t.Fatal(err)
				}
				golden(t, filepath.Join("config", name+suffix+".toml"), merged)
				checkConfig(t, old, merged, opts)
			})
		}
	}
}

func decodeTOML(t *testing.T, b []byte) map[string]any {
	t.Helper()
	v := map[string]any{}
	if _, err := toml.Decode(string(b), &v); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	return v
}

// checkConfig: the merge parses as TOML and holds the old values plus
// exactly ours; merging again changes nothing; unmerging gives old back.
func checkConfig(t *testing.T, old, merged []byte, opts ConfigOptions) {
	t.Helper()
	got := decodeTOML(t, merged)
	want := decodeTOML(t, old)
	servers, _ := want["mcp_servers"].(map[string]any)
	if servers == nil {
		servers = map[string]any{}
		want["mcp_servers"] = servers
	}
	args := []any{"yoimem", "mcp"}
	if opts.Write {
		args = append(args, "--write")
	}
	servers[MCPServer] = map[string]any{"command": "git", "args": args}
	if opts.Notify {
		want["notify"] = []any{"git", "yoimem", "hook", "codex", "notify"}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("merged values differ:\n got %v\nwant %v\n%s", got, want, merged)
	}
	if again, err := MergeConfig(merged, opts); err != nil || string(again) != string(merged) {
		t.Errorf("merging twice differs from once (%v):\n%s", err, again)
	}
	back, err := UnmergeConfig(merged)
	if err != nil {
		t.Fatal(err)
	}
	if string(back) != string(old) {
		t.Errorf("Unmerge(Merge(x)) != x\n got: %q\nwant: %q", back, old)
	}
	bare := func(b []byte) int { return strings.Count(string(b), "\n") - strings.Count(string(b), "\r\n") }
	if strings.Contains(string(old), "\r\n") && bare(merged) != bare(old) {
		t.Errorf("a bare LF added to a CRLF file: %q", merged)
	}
}

// TestMergeConfigSwitch: --write switches in place, notify is added
// later and taken out alone, whatever was merged before.
func TestMergeConfigSwitch(t *testing.T) {
	old, _ := os.ReadFile(filepath.Join("testdata", "config", "typical.toml"))
	ro, _ := MergeConfig(old, ConfigOptions{})
	rw, err := MergeConfig(ro, ConfigOptions{Write: true})
	if err != nil || !strings.Contains(string(rw), `"--write"`) {
		t.Fatalf("%v\n%s", err, rw)
	}
	if back, _ := MergeConfig(rw, ConfigOptions{}); string(back) != string(ro) {
		t.Errorf("switching back differs:\n%s", back)
	}
	withNotify, err := MergeConfig(rw, ConfigOptions{Write: true, Notify: true})
	if err != nil {
		t.Fatal(err)
	}
	checkConfig(t, old, withNotify, ConfigOptions{Write: true, Notify: true})
	// a merge without Notify leaves ours in place (uninstall takes it out)
	if again, _ := MergeConfig(withNotify, ConfigOptions{Write: true}); string(again) != string(withNotify) {
		t.Errorf("merge without notify changed the file:\n%s", again)
	}
}

func TestMergeConfigUsersNotify(t *testing.T) {
	old := "model = \"o3\"\nnotify = [\"notify-send\", \"Codex\"]\n"
	_, err := MergeConfig([]byte(old), ConfigOptions{Notify: true})
	var taken *NotifyTakenError
	if !errors.As(err, &taken) || !slices.Equal(taken.Existing, []string{"notify-send", "Codex"}) {
		t.Fatalf("err = %v; want a *NotifyTakenError with the user's command", err)
	}
	for _, want := range []string{"notify", "notify-send", "git yoimem hook codex notify"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("%q does not name %s", err, want)
		}
	}
	// without Notify, the user's notify is no matter
	merged, err := MergeConfig([]byte(old), ConfigOptions{})
	if err != nil {
		t.Fatal(err)
	}
	checkConfig(t, []byte(old), merged, ConfigOptions{})
	// our notify written by hand is ours: nothing to add, nothing removed
	hand := "notify = [\"git\", \"yoimem\", \"hook\", \"codex\", \"notify\"]\n"
	if got, err := MergeConfig([]byte(hand), ConfigOptions{Notify: true}); err != nil || !strings.HasPrefix(string(got), hand) || strings.Count(string(got), "notify =") != 1 {
		t.Errorf("%v\n%s", err, got)
	}
}

func TestMergeConfigBad(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"model = \n", "line 1"},
		{"a = 1\n[x\n", "line 2"},
		{"a = 1\na = 2\n", "line 2"},
		{"[mcp_servers.yoimem]\ncommand = \"my-yoimem\"\n", "not git-yoimem's"},
		{"[mcp_servers.yoimem.env]\nX = \"1\"\n", "not git-yoimem's"},
		{"mcp_servers = { docs = { command = \"d\" } }\n", "mcp_servers"},
		{"notify = \"say\"\n", "notify"},
		{"[mcp_servers.yoimem]\ncommand = \"git\"\nargs = [\"yoimem\", \"mcp\"]\n", "--write"},
	} {
		opts := ConfigOptions{Write: strings.Contains(tc.want, "write"), Notify: tc.want == "notify"}
		if _, err := MergeConfig([]byte(tc.in), opts); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("MergeConfig(%q) = %v; want an error naming %q", tc.in, err, tc.want)
		}
	}
	if _, err := UnmergeConfig([]byte("a = \n")); err == nil || !strings.Contains(err.Error(), "line 1") {
		t.Errorf("UnmergeConfig of invalid TOML: %v", err)
	}
}

// TestUnmergeConfigLeavesTheUsers: a server or notify that is ours in
// meaning but written by the user (codex mcp add) stays; so does what
// the user added after ours.
func TestUnmergeConfigLeavesTheUsers(t *testing.T) {
	hand := "[mcp_servers.yoimem]\ncommand = \"git\"\nargs = [\"yoimem\", \"mcp\"]\n"
	if back, err := UnmergeConfig([]byte(hand)); err != nil || string(back) != hand {
		t.Errorf("%v: %q", err, back)
	}
	merged, _ := MergeConfig([]byte("model = \"o3\"\n"), ConfigOptions{Notify: true})
	edited := string(merged) + "\n[profiles.x]\nmodel = \"o4\"\n"
	back, err := UnmergeConfig([]byte(edited))
	if err != nil || strings.Contains(string(back), "yoimem") || !strings.Contains(string(back), "[profiles.x]") || !strings.HasPrefix(string(back), "model = \"o3\"\n") {
		t.Errorf("%v:\n%s", err, back)
	}
	decodeTOML(t, back)
}

// TestMergeConfigProperty: for many generated config files (comments,
// blank lines, CRLF, no final newline, tables, arrays of tables, the
// user's own MCP servers and notify), Unmerge(Merge(x)) == x byte for
// byte and the merge holds exactly our additions.
func TestMergeConfigProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for i := 0; i < 500; i++ {
		x := genConfig(rng)
		opts := ConfigOptions{Write: rng.Intn(2) == 0, Notify: rng.Intn(2) == 0 && !strings.Contains(string(x), "notify =")}
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			merged, err := MergeConfig(x, opts)
			if err != nil {
				t.Fatalf("%v\n%s", err, x)
			}
			checkConfig(t, x, merged, opts)
		})
	}
}

func genConfig(rng *rand.Rand) []byte {
	nl := "\n"
	if rng.Intn(5) == 0 {
		nl = "\r\n"
	}
	top := []string{`model = "gpt-5.3-codex"`, `approval_policy = "never" # trusted`, `# a comment`, ``, `notify = ["say", "done"]`, `project_doc_max_bytes = 65536`, `developer_instructions = """` + nl + `Be brief.` + nl + `"""`}
	tables := []string{
		`[features]` + nl + `hooks = true`,
		`[mcp_servers.docs]` + nl + `command = "npx"` + nl + `args = ["-y", "docs"]`,
		`[mcp_servers.db.env]` + nl + `PGHOST = "localhost"`,
		`[profiles.fast]` + nl + `model = "mini"` + nl,
		`[[skills.config]]` + nl + `path = "/s"`,
		`[tui]` + nl + `notifications = ["agent-turn-complete"]`,
	}
	var lines []string
	rng.Shuffle(len(top), func(i, j int) { top[i], top[j] = top[j], top[i] })
	lines = append(lines, top[:rng.Intn(len(top)+1)]...)
	rng.Shuffle(len(tables), func(i, j int) { tables[i], tables[j] = tables[j], tables[i] })
	for _, tb := range tables[:rng.Intn(len(tables)+1)] {
		if rng.Intn(2) == 0 {
			lines = append(lines, "")
		}
		lines = append(lines, tb)
	}
	s := strings.Join(lines, nl)
	switch rng.Intn(4) {
	case 0: // no final newline
	case 1:
		s += nl + nl
	default:
		s += nl
	}
	if strings.TrimSpace(s) == "" && rng.Intn(2) == 0 {
		s = ""
	}
	return []byte(s)
}

func FuzzMergeConfig(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "config", "*.toml"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b, false, false)
	}
	f.Add([]byte("notify = []\n"), true, true)
	f.Fuzz(func(t *testing.T, old []byte, write, notify bool) {
		merged, err := MergeConfig(old, ConfigOptions{Write: write, Notify: notify})
		if err != nil {
			return
		}
		// a file that already holds ours (by meaning) merges unchanged
		// or gains only the rest; the full check needs a file without it
		if strings.Contains(string(old), "yoimem") {
			decodeTOML(t, merged)
			return
		}
		checkConfig(t, old, merged, ConfigOptions{Write: write, Notify: notify})
	})
}

// TestUnmergeConfigNotifyMoved: our notify block is taken out where the
// user moved it, below their own first lines.
func TestUnmergeConfigNotifyMoved(t *testing.T) {
	merged, _ := MergeConfig([]byte("model = \"o3\"\n"), ConfigOptions{Notify: true})
	moved := "# mine\n" + string(merged)
	back, err := UnmergeConfig([]byte(moved))
	if err != nil || string(back) != "# mine\nmodel = \"o3\"\n" {
		t.Errorf("%v: %q", err, back)
	}
}
