package githook

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

func TestDetectManager(t *testing.T) {
	tests := []struct {
		name     string
		files    []string // created under the top level; a trailing / makes a directory
		hooksDir string   // relative to the top level
		want     string   // manager name; "" = none
		evidence string
		lines    []string // must appear in the instructions, each as a whole line
	}{
		{name: "no manager", files: []string{"README.md", ".githooks/"}, hooksDir: ".git/hooks"},
		{name: "custom hooksPath is not a manager", files: []string{".githooks/"}, hooksDir: ".githooks"},
		{
			name: "husky v9 hooksPath", files: []string{".husky/_/"}, hooksDir: ".husky/_",
			want: "husky", evidence: "core.hooksPath is .husky/_",
			lines: []string{"# .husky/pre-commit", "git yoimem hook pre-commit", "# .husky/pre-push (before any other command that reads stdin)", `git yoimem hook pre-push "$@"`},
		},
		{
			name: "husky hooksPath .husky", hooksDir: ".husky",
			want: "husky", evidence: "core.hooksPath is .husky",
			lines: []string{"# .husky/pre-commit", "git yoimem hook pre-commit", `git yoimem hook pre-push "$@"`},
		},
		{
			name: "husky in a subdirectory", hooksDir: "web/.husky/_",
			want: "husky", evidence: "core.hooksPath is web/.husky/_",
			lines: []string{"# web/.husky/pre-commit", "git yoimem hook pre-commit", `git yoimem hook pre-push "$@"`},
		},
		{
			name: "husky set up but not installed", files: []string{".husky/"}, hooksDir: ".git/hooks",
			want: "husky", evidence: ".husky/ exists",
			lines: []string{"# .husky/pre-commit", `git yoimem hook pre-push "$@"`},
		},
		{name: "a file named .husky is not husky", files: []string{".husky"}, hooksDir: ".git/hooks"},
		{
			name: "husky hooksPath wins over other configs", files: []string{".pre-commit-config.yaml", "lefthook.yml"}, hooksDir: ".husky/_",
			want: "husky", evidence: "core.hooksPath is .husky/_",
		},
		{
			name: "lefthook.yml", files: []string{"lefthook.yml", ".husky/"}, hooksDir: ".git/hooks",
			want: "lefthook", evidence: "lefthook.yml",
			lines: []string{"      run: git yoimem hook pre-commit", "      run: git yoimem hook pre-push {1} {2}", "      use_stdin: true"},
		},
		{name: ".lefthook.yml", files: []string{".lefthook.yml"}, hooksDir: ".git/hooks", want: "lefthook", evidence: ".lefthook.yml"},
		{name: "lefthook.yaml", files: []string{"lefthook.yaml"}, hooksDir: ".git/hooks", want: "lefthook", evidence: "lefthook.yaml"},
		{name: ".lefthook.yaml", files: []string{".lefthook.yaml"}, hooksDir: ".git/hooks", want: "lefthook", evidence: ".lefthook.yaml"},
		{name: ".config/lefthook.yml", files: []string{".config/lefthook.yml"}, hooksDir: ".git/hooks", want: "lefthook", evidence: ".config/lefthook.yml"},
		{
			name: "lefthook.toml gets YAML with a note", files: []string{"lefthook.toml"}, hooksDir: ".git/hooks",
			want: "lefthook", evidence: "lefthook.toml",
			lines: []string{"# add to lefthook.toml (written here in YAML; use the same keys in lefthook.toml), merged with any pre-commit: and pre-push: you have,"},
		},
		{name: "a directory named lefthook.yml is not lefthook", files: []string{"lefthook.yml/"}, hooksDir: ".git/hooks"},
		{name: "lefthook in a subdirectory is not the repository's", files: []string{"sub/lefthook.yml"}, hooksDir: ".git/hooks"},
		{
			name: "pre-commit framework", files: []string{".pre-commit-config.yaml"}, hooksDir: ".git/hooks",
			want: "pre-commit", evidence: ".pre-commit-config.yaml",
			lines: []string{
				"#   pre-commit install --hook-type pre-commit --hook-type pre-push",
				"  - repo: https://github.com/yoimem/git-yoimem",
				"    rev: <version>",
				"      - id: git-yoimem",
				"      - id: git-yoimem-pre-push",
				"  - repo: local",
				"        entry: git yoimem hook pre-commit",
				"        entry: git yoimem hook pre-push",
				"        language: system",
				"        pass_filenames: false",
				"        always_run: true",
			},
		},
		{
			name: "lefthook wins over pre-commit", files: []string{".pre-commit-config.yaml", ".lefthook.yml"}, hooksDir: ".git/hooks",
			want: "lefthook", evidence: ".lefthook.yml",
		},
		{name: "hooksDir outside the working tree", hooksDir: "../elsewhere/.husky/_"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			top := filepath.Join(t.TempDir(), "repo")
			if err := os.MkdirAll(filepath.Join(top, ".git", "hooks"), 0o755); err != nil {
				t.Fatal(err)
			}
			for _, f := range tt.files {
				p := filepath.Join(top, filepath.FromSlash(f))
				if strings.HasSuffix(f, "/") {
					if err := os.MkdirAll(p, 0o755); err != nil {
						t.Fatal(err)
					}
					continue
				}
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("# config\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			m, ok := DetectManager(top, filepath.Join(top, filepath.FromSlash(tt.hooksDir)))
			if tt.want == "" {
				if ok || m != nil {
					t.Fatalf("detected %+v", m)
				}
				return
			}
			if !ok || m == nil {
				t.Fatalf("no manager detected, want %s", tt.want)
			}
			if m.Name != tt.want || m.Evidence != tt.evidence {
				t.Errorf("got %s (%s), want %s (%s)", m.Name, m.Evidence, tt.want, tt.evidence)
			}
			if !strings.HasSuffix(m.Instructions, "\n") {
				t.Errorf("instructions do not end with a newline")
			}
			have := map[string]bool{}
			for _, l := range strings.Split(m.Instructions, "\n") {
				have[l] = true
			}
			for _, l := range tt.lines {
				if !have[l] {
					t.Errorf("instructions lack the line %q:\n%s", l, m.Instructions)
				}
			}
		})
	}
}

// The YAML snippets must parse and say what they mean.
func TestInstructionsYAML(t *testing.T) {
	t.Run("lefthook", func(t *testing.T) {
		var cfg map[string]struct {
			Commands map[string]struct {
				Run      string `yaml:"run"`
				UseStdin bool   `yaml:"use_stdin"`
			} `yaml:"commands"`
		}
		if err := yaml.Unmarshal([]byte(lefthook("lefthook.yml").Instructions), &cfg); err != nil {
			t.Fatal(err)
		}
		pc, pp := cfg["pre-commit"].Commands["git-yoimem"], cfg["pre-push"].Commands["git-yoimem"]
		if pc.Run != "git yoimem hook pre-commit" || pc.UseStdin {
			t.Errorf("pre-commit: %+v", pc)
		}
		if pp.Run != "git yoimem hook pre-push {1} {2}" || !pp.UseStdin {
			t.Errorf("pre-push: %+v", pp)
		}
	})
	t.Run("pre-commit", func(t *testing.T) {
		type hook struct {
			ID            string   `yaml:"id"`
			Entry         string   `yaml:"entry"`
			Language      string   `yaml:"language"`
			PassFilenames *bool    `yaml:"pass_filenames"`
			AlwaysRun     bool     `yaml:"always_run"`
			Stages        []string `yaml:"stages"`
		}
		var cfg struct {
			Repos []struct {
				Repo  string `yaml:"repo"`
				Rev   string `yaml:"rev"`
				Hooks []hook `yaml:"hooks"`
			} `yaml:"repos"`
		}
		if err := yaml.Unmarshal([]byte("repos:\n"+preCommit().Instructions), &cfg); err != nil {
			t.Fatal(err)
		}
		if len(cfg.Repos) != 2 {
			t.Fatalf("want 2 repos, got %+v", cfg.Repos)
		}
		remote, local := cfg.Repos[0], cfg.Repos[1]
		if remote.Repo != "https://github.com/yoimem/git-yoimem" || remote.Rev != VersionPlaceholder ||
			len(remote.Hooks) != 2 || remote.Hooks[0].ID != "git-yoimem" || remote.Hooks[1].ID != "git-yoimem-pre-push" {
			t.Errorf("remote repo entry: %+v", remote)
		}
		if local.Repo != "local" || len(local.Hooks) != 2 {
			t.Fatalf("local repo entry: %+v", local)
		}
		for i, stage := range []string{"pre-commit", "pre-push"} {
			h := local.Hooks[i]
			legacy := map[string]string{"pre-commit": "commit", "pre-push": "push"}[stage]
			if h.Entry != "git yoimem hook "+stage || h.Language != "system" || h.PassFilenames == nil || *h.PassFilenames ||
				!h.AlwaysRun || !reflect.DeepEqual(h.Stages, []string{legacy}) {
				t.Errorf("local %s hook: %+v", stage, h)
			}
		}
	})
}

// The repository's .pre-commit-hooks.yaml defines the ids the instructions
// refer to.
func TestPreCommitHooksManifest(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	type hook struct {
		ID            string   `yaml:"id"`
		Name          string   `yaml:"name"`
		Entry         string   `yaml:"entry"`
		Language      string   `yaml:"language"`
		PassFilenames *bool    `yaml:"pass_filenames"`
		AlwaysRun     bool     `yaml:"always_run"`
		Stages        []string `yaml:"stages"`
	}
	var manifest []hook
	if err := yaml.Unmarshal(b, &manifest); err != nil {
		t.Fatal(err)
	}
	want := []struct{ id, entry, language, stage string }{
		// commit and push: the stage names every pre-commit release reads
		{"git-yoimem", "git-yoimem hook pre-commit", "golang", "commit"},
		{"git-yoimem-pre-push", "git-yoimem hook pre-push", "golang", "push"},
		{"git-yoimem-system", "git-yoimem hook pre-commit", "system", "commit"},
		{"git-yoimem-system-pre-push", "git-yoimem hook pre-push", "system", "push"},
	}
	if len(manifest) != len(want) {
		t.Fatalf("%d hooks, want %d: %+v", len(manifest), len(want), manifest)
	}
	for i, w := range want {
		h := manifest[i]
		if h.ID != w.id || h.Entry != w.entry || h.Language != w.language || h.Name == "" ||
			h.PassFilenames == nil || *h.PassFilenames || !h.AlwaysRun || !reflect.DeepEqual(h.Stages, []string{w.stage}) {
			t.Errorf("hook %d: %+v, want %+v", i, h, w)
		}
	}
	if manifest[0].Name != "git-yoimem lint of staged .yoi/ records" {
		t.Errorf("name of git-yoimem: %q", manifest[0].Name)
	}
}
