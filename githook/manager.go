package githook

import (
	"os"
	"path/filepath"
	"strings"
)

// Manager is a hook manager that owns the repository's hooks: writing into
// the hooks directory would be ignored or overwritten, so the user adds
// git-yoimem to the manager's configuration instead.
type Manager struct {
	Name         string // husky, lefthook or pre-commit
	Evidence     string // what gave it away, e.g. "core.hooksPath is .husky/_"
	Instructions string // what to add, and where; ends with a newline
}

// VersionPlaceholder stands for a git-yoimem release tag (the `rev:` of a
// pre-commit repository entry) in the pre-commit framework's
// Instructions; a caller that knows its release version may replace it.
const VersionPlaceholder = "<version>"

// lefthookConfigs are the main configuration files lefthook reads.
func lefthookConfigs() []string {
	return []string{
		"lefthook.yml", ".lefthook.yml", "lefthook.yaml", ".lefthook.yaml",
		".config/lefthook.yml", ".config/lefthook.yaml",
		"lefthook.toml", ".lefthook.toml", ".config/lefthook.toml",
		"lefthook.json", ".lefthook.json", ".config/lefthook.json",
		"lefthook.jsonc", ".lefthook.jsonc", ".config/lefthook.jsonc",
	}
}

// DetectManager reports the hook manager in charge of the repository whose
// working tree is topLevel, given its resolved hooks directory (both
// absolute). In order: husky when core.hooksPath points at a .husky/_ or
// .husky directory in the working tree, lefthook by its configuration
// file, the pre-commit framework by .pre-commit-config.yaml, husky again
// when a .husky directory exists at the top level (husky is set up by
// `npm install`, which may not have run yet).
func DetectManager(topLevel, hooksDir string) (*Manager, bool) {
	top := filepath.Clean(topLevel)
	hd := filepath.Clean(hooksDir)
	if rel, err := filepath.Rel(top, hd); err == nil && filepath.IsLocal(rel) {
		switch {
		case filepath.Base(rel) == ".husky":
			return husky(rel, "core.hooksPath is "+filepath.ToSlash(rel)), true
		case filepath.Base(rel) == "_" && filepath.Base(filepath.Dir(rel)) == ".husky":
			return husky(filepath.Dir(rel), "core.hooksPath is "+filepath.ToSlash(rel)), true
		}
	}
	for _, name := range lefthookConfigs() {
		if isFile(filepath.Join(top, filepath.FromSlash(name))) {
			return lefthook(name), true
		}
	}
	if isFile(filepath.Join(top, ".pre-commit-config.yaml")) {
		return preCommit(), true
	}
	if fi, err := os.Stat(filepath.Join(top, ".husky")); err == nil && fi.IsDir() {
		return husky(".husky", ".husky/ exists"), true
	}
	return nil, false
}

func isFile(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.Mode().IsRegular()
}

// husky runs <dir>/<hook> (user-owned, committed) from the stubs it
// generates in <dir>/_; the shim's line goes into the former.
func husky(dir, evidence string) *Manager {
	d := filepath.ToSlash(dir)
	return &Manager{
		Name:     "husky",
		Evidence: evidence,
		Instructions: `# husky runs the scripts in ` + d + `/; add a line to each (create the file if it is missing):
# ` + d + `/pre-commit
git yoimem hook pre-commit
# ` + d + `/pre-push (before any other command that reads stdin)
git yoimem hook pre-push "$@"
`,
	}
}

func lefthook(config string) *Manager {
	note := ""
	if !strings.HasSuffix(config, ".yml") && !strings.HasSuffix(config, ".yaml") {
		note = " (written here in YAML; use the same keys in " + config + ")"
	}
	return &Manager{
		Name:     "lefthook",
		Evidence: config,
		Instructions: `# add to ` + config + note + `, merged with any pre-commit: and pre-push: you have,
# then run 'lefthook install':
pre-commit:
  commands:
    git-yoimem:
      run: git yoimem hook pre-commit
pre-push:
  commands:
    git-yoimem:
      run: git yoimem hook pre-push {1} {2}
      use_stdin: true
`,
	}
}

func preCommit() *Manager {
	return &Manager{
		Name:     "pre-commit",
		Evidence: ".pre-commit-config.yaml",
		Instructions: `# add to the repos: list of .pre-commit-config.yaml, then run
#   pre-commit install --hook-type pre-commit --hook-type pre-push
  - repo: https://github.com/yoimem/git-yoimem
    rev: ` + VersionPlaceholder + `
    hooks:
      - id: git-yoimem
      - id: git-yoimem-pre-push
# or, to run the git-yoimem already on PATH instead of having pre-commit build it:
  - repo: local
    hooks:
      - id: git-yoimem
        name: git-yoimem
        entry: git yoimem hook pre-commit
        language: system
        pass_filenames: false
        always_run: true
        stages: [commit]
      - id: git-yoimem-pre-push
        name: git-yoimem (pre-push)
        entry: git yoimem hook pre-push
        language: system
        pass_filenames: false
        always_run: true
        stages: [push]
`,
	}
}
