package eval

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	fixtures "github.com/yoimem/git-yoimem/internal/fixture"
)

const fixture = "testdata/scenarios/job-store-decision"

// copyDir copies a scenario directory to a new temporary one named name.
func copyDir(t *testing.T, src, name string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), name)
	if err := fixtures.CopyDir(src, dst); err != nil {
		t.Fatal(err)
	}
	return dst
}

func TestLoad(t *testing.T) {
	sc, err := Load(fixture)
	if err != nil {
		t.Fatal(err)
	}
	if sc.Name != "job-store-decision" || len(sc.Expect) != 7 || len(sc.Staging) != 1 || !strings.HasSuffix(sc.Replay, ReplayFile) {
		t.Fatalf("loaded %+v", sc)
	}
	if sc.Now.Format("2006-01-02T15:04:05Z") != "2026-03-10T09:00:00Z" {
		t.Errorf("now %v", sc.Now)
	}
	if e := sc.Expect[2]; e.Record != "**" || e.Exists != nil || e.Count != nil {
		t.Errorf("defaults: %+v", e)
	}
	if _, ok := sc.Before["memory/decisions/use-chi-router.md"]; !ok {
		t.Errorf("before: %v", sc.Before)
	}
}

// TestLoadErrors: each bad input is an error naming the file and the
// field.
func TestLoadErrors(t *testing.T) {
	yamlCase := func(old, repl string) func(t *testing.T, dir string) {
		return func(t *testing.T, dir string) {
			p := filepath.Join(dir, ScenarioFile)
			b, _ := os.ReadFile(p)
			s := string(b)
			if !strings.Contains(s, old) {
				t.Fatalf("fixture lacks %q", old)
			}
			if err := os.WriteFile(p, []byte(strings.Replace(s, old, repl, 1)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	staging := filepath.Join(StagingDir, "0195a000-aaaa-7001-8000-000000000001.json")
	for _, tc := range []struct {
		name   string
		dir    string
		change func(t *testing.T, dir string)
		want   []string
	}{
		{"unknown key", "", yamlCase("now:", "colour: red\nnow:"), []string{"scenario.yaml", "field colour not found"}},
		{"unknown expectation key", "", yamlCase("    untouched: true", "    untuched: true"), []string{"scenario.yaml", "field untuched not found"}},
		{"unknown category", "", yamlCase("category: tidy", "category: tidiness"), []string{"scenario.yaml", "expect[4] (committed): category: \"tidiness\""}},
		{"bad glob", "", yamlCase(`record: "memory/decisions/*.md"`, `record: "memory/decisions/[*.md"`), []string{"scenario.yaml", "expect[0] (one-job-store-decision): record:", "syntax error"}},
		{"glob with .yoi", "", yamlCase(`record: "memory/decisions/*.md"`, `record: ".yoi/memory/decisions/*.md"`), []string{"record:", "relative to .yoi/"}},
		{"untouched glob", "", yamlCase("record: memory/decisions/use-chi-router.md", "record: memory/decisions/*.md"), []string{"untouched: record \"memory/decisions/*.md\" must name one exact path"}},
		{"bad op kind", "", yamlCase("op: {kind: drop}", "op: {kind: delete}"), []string{"expect[6] (nothing-dropped): op: kind: \"delete\""}},
		{"bad op category", "", yamlCase("op: {kind: drop}", "op: {kind: drop, categories: [stale]}"), []string{"op: categories: \"stale\""}},
		{"commit and record", "", yamlCase("    commit: true", "    commit: true\n    record: x.md"), []string{"commit: checks the run alone"}},
		{"op and text", "", yamlCase("op: {kind: drop}", "op: {kind: drop}\n    text: [a]"), []string{"op: checks the commit message"}},
		{"exists and count", "", yamlCase("    count: 1", "    count: 1\n    exists: true"), []string{"exists and count"}},
		{"negative count", "", yamlCase("    count: 1", "    count: -1"), []string{"count: -1"}},
		{"duplicate name", "", yamlCase("name: reason-kept", "name: source-attached"), []string{`name "source-attached" is used twice`}},
		{"bad expectation name", "", yamlCase("name: reason-kept", "name: Reason Kept"), []string{"name: \"Reason Kept\" is not a kebab-case name"}},
		{"missing name", "", yamlCase("  - name: reason-kept\n", "  - \n"), []string{"expect[2]: name: missing"}},
		{"bad now", "", yamlCase("now: 2026-03-10T09:00:00Z", "now: yesterday"), []string{"now: \"yesterday\" is not an RFC 3339 time"}},
		{"no description", "", yamlCase("description: >-", "rules: >-"), []string{"description: missing"}},
		{"no expectations", "", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, ScenarioFile), []byte("description: x\nexpect: []\n"), 0o644)
		}, []string{"expect: missing"}},
		{"empty file", "", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, ScenarioFile), nil, 0o644)
		}, []string{"scenario.yaml: empty"}},
		{"readonly missing", "", yamlCase("now:", "readonly: [memory/decisions/nope.md]\nnow:"), []string{"readonly: memory/decisions/nope.md is not a file of"}},
		{"readonly escapes", "", yamlCase("now:", "readonly: [../x.md]\nnow:"), []string{"readonly: \"../x.md\""}},
		{"no summary", "", func(t *testing.T, dir string) {
			os.Remove(filepath.Join(dir, BeforeDir, "memory", "summary.md"))
		}, []string{filepath.Join("before", "memory", "summary.md") + ": missing"}},
		{"staging not json", "", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, staging), []byte("{"), 0o644)
		}, []string{staging, "unexpected end of JSON input"}},
		{"staging no session", "", func(t *testing.T, dir string) {
			b, _ := os.ReadFile(filepath.Join(dir, staging))
			os.WriteFile(filepath.Join(dir, staging), []byte(strings.Replace(string(b), `"session_id":"9f2c1a7e-3b4d-4e5f-8a6b-1c2d3e4f5a01"`, `"session_id":""`, 1)), 0o644)
		}, []string{staging, "source has no session_id"}},
		{"staging misnamed", "", func(t *testing.T, dir string) {
			os.Rename(filepath.Join(dir, staging), filepath.Join(dir, StagingDir, "x.json"))
		}, []string{filepath.Join(StagingDir, "x.json"), "id: \"0195a000-aaaa-7001-8000-000000000001\""}},
		{"staging other file", "", func(t *testing.T, dir string) {
			os.WriteFile(filepath.Join(dir, StagingDir, "notes.txt"), []byte("x"), 0o644)
		}, []string{"notes.txt: not a staging file"}},
		{"bad directory name", "Bad_Name", nil, []string{"Bad_Name", "not a kebab-case name"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			name := tc.dir
			if name == "" {
				name = "job-store-decision"
			}
			dir := copyDir(t, fixture, name)
			if tc.change != nil {
				tc.change(t, dir)
			}
			_, err := Load(dir)
			if err == nil {
				t.Fatal("loaded")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q lacks %q", err, w)
				}
			}
		})
	}
}

func TestLoadAll(t *testing.T) {
	root := t.TempDir()
	for _, n := range []string{"b-two", "a-one"} {
		copyDir(t, fixture, n)
		os.Rename(filepath.Join(filepath.Dir(copyDir(t, fixture, n)), n), filepath.Join(root, n))
	}
	os.MkdirAll(filepath.Join(root, "_draft"), 0o755)
	os.MkdirAll(filepath.Join(root, ".hidden"), 0o755)
	os.WriteFile(filepath.Join(root, "score.rules.json"), []byte("{}"), 0o644)
	all, err := LoadAll(root)
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 2 || all[0].Name != "a-one" || all[1].Name != "b-two" {
		t.Fatalf("LoadAll: %d scenarios", len(all))
	}
	os.MkdirAll(filepath.Join(root, "c-broken"), 0o755)
	if _, err := LoadAll(root); err == nil || !strings.Contains(err.Error(), "c-broken") {
		t.Fatalf("a broken scenario: %v", err)
	}
}

// TestLoadNamed: scenarios picked by name, in the order given; a name
// that is not one of root's scenarios, or is a path, is ErrNoSuchScenario.
func TestLoadNamed(t *testing.T) {
	root := filepath.Dir(copyDir(t, fixture, "job-store-decision"))
	scs, err := LoadNamed(root, []string{"job-store-decision"})
	if err != nil || len(scs) != 1 || scs[0].Name != "job-store-decision" {
		t.Fatalf("LoadNamed: %v, %v", scs, err)
	}
	for _, bad := range []string{"nope", "../x", ".", "..", "a/b"} {
		if _, err := LoadNamed(root, []string{bad}); !errors.Is(err, ErrNoSuchScenario) {
			t.Errorf("LoadNamed(%q): %v, want ErrNoSuchScenario", bad, err)
		}
	}
}
