package claudecode

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMergeSettingsGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "settings", "*.json"))
	if len(files) == 0 {
		t.Fatal("no settings fixtures")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			old, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			merged, err := MergeSettings(old, SettingsOptions{})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("settings", name+".merged.json"), merged)
			checkMerged(t, old, merged)
		})
	}
}

// checkMerged: the merge is valid JSON holding every user value and our
// six hooks; merging again changes nothing; unmerging gives old back.
func checkMerged(t *testing.T, old, merged []byte) {
	t.Helper()
	if !json.Valid(merged) {
		t.Fatalf("not JSON:\n%s", merged)
	}
	var s struct {
		Hooks map[string][]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(merged, &s); err != nil {
		t.Fatal(err)
	}
	for _, e := range hookEvents {
		found := 0
		for _, g := range s.Hooks[e.Name] {
			if ours(g, e.Arg) {
				found++
				var m map[string]any
				_ = json.Unmarshal(g, &m)
				if e.Name == "PreToolUse" && m["matcher"] != ToolMatcher {
					t.Errorf("PreToolUse matcher %v", m["matcher"])
				}
			}
		}
		if found != 1 {
			t.Errorf("%d %s hooks of ours in\n%s", found, e.Name, merged)
		}
	}
	again, err := MergeSettings(merged, SettingsOptions{})
	if err != nil || string(again) != string(merged) {
		t.Errorf("merging twice differs from once (%v):\n%s", err, again)
	}
	back, err := UnmergeSettings(merged)
	if err != nil {
		t.Fatal(err)
	}
	want := string(old)
	if strings.TrimSpace(want) == "" {
		want = "{}\n"
	}
	if string(back) != want {
		t.Errorf("Unmerge(Merge(x)) != x\n got: %q\nwant: %q", back, want)
	}
	if keep := userValues(t, old); keep != userValues(t, back) {
		t.Errorf("user values changed")
	}
}

func userValues(t *testing.T, b []byte) string {
	if strings.TrimSpace(string(b)) == "" {
		return "{}"
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

func TestMergeSettingsEmpty(t *testing.T) {
	for _, old := range []string{"", "\n", "  "} {
		merged, err := MergeSettings([]byte(old), SettingsOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(merged), "{\n  \"hooks\": {\n    \"SessionStart\": [") {
			t.Errorf("%q: %s", old, merged)
		}
		back, _ := UnmergeSettings(merged)
		if string(back) != "{}\n" {
			t.Errorf("%q: unmerged %q", old, back)
		}
	}
}

func TestMergeSettingsCRLF(t *testing.T) {
	merged, err := MergeSettings([]byte("{\r\n  \"model\": \"opus\"\r\n}\r\n"), SettingsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(merged), "\n"); n != strings.Count(string(merged), "\r\n") {
		t.Errorf("a bare LF in a CRLF file:\n%q", merged)
	}
}

func TestMergeSettingsCommand(t *testing.T) {
	merged, err := MergeSettings([]byte("{}"), SettingsOptions{Command: "/opt/bin/git-yoimem"})
	if err != nil || !strings.Contains(string(merged), `"/opt/bin/git-yoimem hook claude-code stop"`) {
		t.Fatalf("%v\n%s", err, merged)
	}
	if back, _ := UnmergeSettings(merged); string(back) != "{}" {
		t.Errorf("unmerged %q", back)
	}
}

func TestMergeSettingsBad(t *testing.T) {
	for in, want := range map[string]string{
		"{\n  // comment\n  \"a\": 1\n}": "line 2",
		`{"a": 1,}`:                      "not valid JSON",
		`[1]`:                            "not a JSON object",
		`"x"`:                            "not a JSON object",
		`{"hooks": []}`:                  `"hooks" is not a JSON object`,
		`{"hooks": {"Stop": {}}}`:        `"hooks"."Stop" is not a JSON array`,
		`{"a": 1} {"b": 2}`:              "not valid JSON",
	} {
		if _, err := MergeSettings([]byte(in), SettingsOptions{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("MergeSettings(%q) = %v; want %q", in, err, want)
		}
	}
	if _, err := UnmergeSettings([]byte("{,}")); err == nil {
		t.Error("UnmergeSettings of invalid JSON: no error")
	}
}

// TestUnmergeKeepsUserHooks: the user's own entries beside ours, before
// and after, survive an uninstall.
func TestUnmergeKeepsUserHooks(t *testing.T) {
	merged, _ := MergeSettings([]byte(`{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]}}`), SettingsOptions{})
	var v map[string]map[string][]any
	_ = json.Unmarshal(merged, &v)
	v["hooks"]["Stop"] = append(v["hooks"]["Stop"], map[string]any{"hooks": []any{map[string]any{"type": "command", "command": "notify-send x"}}})
	edited, _ := json.MarshalIndent(v, "", "  ")
	back, err := UnmergeSettings(edited)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"say done", "notify-send x"} {
		if !strings.Contains(string(back), want) {
			t.Errorf("lost %s:\n%s", want, back)
		}
	}
	if strings.Contains(string(back), "claude-code") {
		t.Errorf("ours left:\n%s", back)
	}
}

// TestMergeSettingsProperty: for many generated settings files (any
// indentation, compact, CRLF, spacing, the user's own hooks for our
// events, permissions, env), Unmerge(Merge(x)) == x byte for byte.
func TestMergeSettingsProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	for i := 0; i < 500; i++ {
		x := genSettings(rng)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			merged, err := MergeSettings(x, SettingsOptions{})
			if err != nil {
				t.Fatalf("%v\n%s", err, x)
			}
			checkMerged(t, x, merged)
		})
	}
}

func genSettings(rng *rand.Rand) []byte {
	indents := []string{"  ", "    ", "\t", " "}
	ind := indents[rng.Intn(len(indents))]
	nl := "\n"
	if rng.Intn(5) == 0 {
		nl = "\r\n"
	}
	compact := rng.Intn(4) == 0
	colon := []string{": ", ":", " : "}[rng.Intn(3)]
	var members []string
	pool := []string{
		`"permissions"` + colon + `{"allow": ["Bash(go test:*)", "Read(**)"], "deny": []}`,
		`"env"` + colon + `{"GOFLAGS": "-mod=mod", "X": "1"}`,
		`"model"` + colon + `"opus"`,
		`"includeCoAuthoredBy"` + colon + `false`,
		`"cleanupPeriodDays"` + colon + `60`,
		`"statusLine"` + colon + `{"type": "command", "command": "~/s.sh"}`,
	}
	rng.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	members = append(members, pool[:rng.Intn(len(pool)+1)]...)
	if rng.Intn(2) == 0 {
		var evs []string
		for _, e := range []string{"Stop", "PreToolUse", "SessionStart", "Notification", "SessionEnd"} {
			switch rng.Intn(4) {
			case 0:
				evs = append(evs, `"`+e+`"`+colon+`[{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 5}]}]`)
			case 1:
				evs = append(evs, `"`+e+`"`+colon+`[]`)
			case 2:
				evs = append(evs, `"`+e+`"`+colon+`[ ]`)
			}
		}
		sep := ", "
		if !compact {
			sep = "," + nl + ind + ind
		}
		h := "{}"
		if len(evs) > 0 {
			if compact {
				h = "{" + strings.Join(evs, sep) + "}"
			} else {
				h = "{" + nl + ind + ind + strings.Join(evs, sep) + nl + ind + "}"
			}
		} else if rng.Intn(2) == 0 {
			h = "{ }"
		}
		members = append(members, `"hooks"`+colon+h)
		rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	}
	if compact {
		return []byte("{" + strings.Join(members, ",") + "}")
	}
	if len(members) == 0 {
		return []byte([]string{"{}", "{}" + nl, "{" + nl + "}" + nl, " { } "}[rng.Intn(4)])
	}
	return []byte("{" + nl + ind + strings.Join(members, ","+nl+ind) + nl + "}" + nl)
}

func FuzzMergeSettings(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "settings", "*.json"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Add([]byte(`{"hooks":{"Stop":[]}}`))
	f.Fuzz(func(t *testing.T, old []byte) {
		merged, err := MergeSettings(old, SettingsOptions{})
		if err != nil {
			return
		}
		checkMerged(t, old, merged)
	})
}
