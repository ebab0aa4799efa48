package codex

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMergeHooksGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "hooks", "*.json"))
	if len(files) < 5 {
		t.Fatal("no hooks.json fixtures")
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		t.Run(name, func(t *testing.T) {
			old, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			merged, err := MergeHooks(old, HooksOptions{})
			if err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join("hooks", name+".merged.json"), merged)
			checkHooks(t, old, merged)
		})
	}
}

// checkHooks: the merge is valid JSON holding every user value and our
// five hooks; merging again changes nothing; unmerging gives old back.
func checkHooks(t *testing.T, old, merged []byte) {
	t.Helper()
	var s struct {
		Hooks map[string][]json.RawMessage `json:"hooks"`
	}
	if err := json.Unmarshal(merged, &s); err != nil {
		t.Fatalf("%v\n%s", err, merged)
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
	if _, ok := s.Hooks["SessionEnd"]; ok && !strings.Contains(string(old), "SessionEnd") {
		t.Errorf("a SessionEnd hook, which Codex does not have")
	}
	again, err := MergeHooks(merged, HooksOptions{})
	if err != nil || string(again) != string(merged) {
		t.Errorf("merging twice differs from once (%v):\n%s", err, again)
	}
	back, err := UnmergeHooks(merged)
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
}

func TestMergeHooksCommand(t *testing.T) {
	merged, err := MergeHooks([]byte("{}"), HooksOptions{Command: "/opt/bin/git-yoimem"})
	if err != nil || !strings.Contains(string(merged), `"/opt/bin/git-yoimem hook codex stop"`) {
		t.Fatalf("%v\n%s", err, merged)
	}
	if back, _ := UnmergeHooks(merged); string(back) != "{}" {
		t.Errorf("unmerged %q", back)
	}
	if got := HookCommand("", "notify"); got != "git yoimem hook codex notify" {
		t.Errorf("HookCommand = %q", got)
	}
}

func TestMergeHooksBad(t *testing.T) {
	for in, want := range map[string]string{
		"{\n  // comment\n  \"a\": 1\n}": "line 2",
		`{"hooks": {},}`:                 "not valid JSON",
		`[1]`:                            "not a JSON object",
		`{"hooks": []}`:                  `"hooks" is not a JSON object`,
		`{"hooks": {"Stop": {}}}`:        `"hooks"."Stop" is not a JSON array`,
	} {
		if _, err := MergeHooks([]byte(in), HooksOptions{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("MergeHooks(%q) = %v; want %q", in, err, want)
		}
	}
	if _, err := UnmergeHooks([]byte("{,}")); err == nil {
		t.Error("UnmergeHooks of invalid JSON: no error")
	}
	// Claude Code's hooks are not ours here, nor ours there
	claude := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "git yoimem hook claude-code stop"}]}]}}`
	if back, _ := UnmergeHooks([]byte(claude)); string(back) != claude {
		t.Errorf("unmerge took Claude Code's hook: %s", back)
	}
}

// TestMergeHooksProperty: for many generated hooks files (indentation,
// compact, CRLF, spacing, the user's own hooks for our events and
// others), Unmerge(Merge(x)) == x byte for byte.
func TestMergeHooksProperty(t *testing.T) {
	rng := rand.New(rand.NewSource(12))
	for i := 0; i < 500; i++ {
		x := genHooks(rng)
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			merged, err := MergeHooks(x, HooksOptions{})
			if err != nil {
				t.Fatalf("%v\n%s", err, x)
			}
			checkHooks(t, x, merged)
		})
	}
}

func genHooks(rng *rand.Rand) []byte {
	ind := []string{"  ", "    ", "\t", " "}[rng.Intn(4)]
	nl := "\n"
	if rng.Intn(5) == 0 {
		nl = "\r\n"
	}
	compact := rng.Intn(4) == 0
	colon := []string{": ", ":", " : "}[rng.Intn(3)]
	var members []string
	if rng.Intn(2) == 0 {
		var evs []string
		for _, e := range []string{"Stop", "PreToolUse", "SessionStart", "PostToolUse", "PermissionRequest", "UserPromptSubmit", "PreCompact"} {
			switch rng.Intn(4) {
			case 0:
				evs = append(evs, `"`+e+`"`+colon+`[{"matcher": "Bash", "hooks": [{"type": "command", "command": "./check.sh", "timeout": 5, "statusMessage": "checking"}]}]`)
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
	}
	if rng.Intn(3) == 0 {
		members = append(members, `"$schema"`+colon+`"https://example.com/hooks.schema.json"`)
		rng.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	}
	if compact {
		return []byte("{" + strings.Join(members, ",") + "}")
	}
	if len(members) == 0 {
		return []byte([]string{"{}", "{}" + nl, "{" + nl + "}" + nl, " { } ", ""}[rng.Intn(5)])
	}
	return []byte("{" + nl + ind + strings.Join(members, ","+nl+ind) + nl + "}" + nl)
}

func FuzzMergeHooks(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "hooks", "*.json"))
	for _, p := range files {
		b, _ := os.ReadFile(p)
		f.Add(b)
	}
	f.Add([]byte(`{"hooks":{"Stop":[]}}`))
	f.Fuzz(func(t *testing.T, old []byte) {
		merged, err := MergeHooks(old, HooksOptions{})
		if err != nil {
			return
		}
		checkHooks(t, old, merged)
	})
}
