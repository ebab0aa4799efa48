package setup

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
)

// Select picks the agents named (a name may repeat; "all" is every agent
// that has the scope) for the scope named. The errors name the flag
// value at fault: an unknown scope or agent, or an agent named on its own
// that has no such scope.
func Select(names []string, scope string) ([]Agent, Scope, error) {
	sc, err := ParseScope(scope)
	if err != nil {
		return nil, "", fmt.Errorf("--scope: %w", err)
	}
	var out []Agent
	for _, name := range names {
		as := Agents()
		if name != "all" {
			a, err := Lookup(name)
			if err != nil {
				return nil, "", fmt.Errorf("--agent: %w", err)
			}
			as = []Agent{a}
		}
		for _, a := range as {
			if !slices.Contains(a.Scopes, sc) {
				if name == "all" {
					continue
				}
				return nil, "", fmt.Errorf("--scope %s: %s has no %s scope (want %s)", sc, a.Name, sc, scopeNames(a.Scopes))
			}
			if !slices.ContainsFunc(out, func(b Agent) bool { return b.Name == a.Name }) {
				out = append(out, a)
			}
		}
	}
	return out, sc, nil
}

func scopeNames(scs []Scope) string {
	n := make([]string, len(scs))
	for i, sc := range scs {
		n[i] = string(sc)
	}
	return strings.Join(n, " or ")
}

// RepoCreatedRecord is where the project and local scopes' record of the
// files install created is kept: in the repository's machine-local state.
func RepoCreatedRecord(localDir string) string {
	return filepath.Join(localDir, "agent", "created.json")
}

// UserCreatedRecord is where the user scope's record is kept:
// $XDG_CONFIG_HOME/git-yoimem/created.json, else under ~/.config; ""
// (no record) when neither is an absolute path.
func UserCreatedRecord(getenv func(string) string) string {
	if getenv == nil {
		return ""
	}
	if x := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(x) {
		return filepath.Join(x, "git-yoimem", "created.json")
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".config", "git-yoimem", "created.json")
	}
	return ""
}
