package archtest

import (
	"encoding/json"
	"errors"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

const module = "github.com/yoimem/git-yoimem/"

// forbidden says, for a package (a path below the module; "x/..." is x
// and every package below it), which of the module's packages it must not
// import directly ("x/..." likewise). The layers of docs/architecture.md:
// leaves and pure cores know nothing of git, the workspace or the
// runners; the workspace knows no runner; nothing but the command imports
// the front ends.
func forbidden() map[string][]string {
	return map[string][]string{
		"record": {"..."}, // but internal/
		"memlog": {"..."},
		// a pull request through gh or glab: tools and URLs, nothing of
		// the memory (the command gives it the description)
		"forge": {"..."}, // but internal/
		// the record merge of the git merge driver: records in, bytes out
		"recmerge": {"memlog/...", "config/...", "metrics/...", "sessionlog/...", "llm/...", "lint/...", "memory/...", "extract/...", "gitstore/...", "workspace/...", "hooks/...", "githook", "mcp/...", "consolidate/...", "eval/...", "agent/...", "doctor/...", "internal/..."},
		// sync: git (gitstore), the record merge and the linter; no
		// workspace, no runner, no model
		"memsync": {"workspace/...", "consolidate/...", "extract/...", "memory/...", "mcp/...", "hooks/...", "githook", "llm/...", "metrics/...", "sessionlog/...", "agent/...", "eval/...", "doctor/...", "review/..."},
		// an agent CLI as the consolidation model (the command serves the
		// run's MCP server): as consolidate/agent
		"consolidate/agentcli": {"gitstore/...", "workspace/...", "mcp/...", "hooks/...", "consolidate/rules", "llm/apis"},
		// config and metrics read records' paths and names, nothing else
		"config":     {"memlog/...", "metrics/...", "sessionlog/...", "llm/...", "lint/...", "memory/...", "extract/...", "gitstore/...", "workspace/...", "hooks/...", "githook", "mcp/...", "consolidate/..."},
		"metrics":    {"memlog/...", "config/...", "sessionlog/...", "llm/...", "lint/...", "memory/...", "extract/...", "gitstore/...", "workspace/...", "hooks/...", "githook", "mcp/...", "consolidate/..."},
		"sessionlog": {"..."},
		"llm":        {"..."},
		"lint":       {"gitstore/...", "workspace/...", "memory/...", "extract/...", "consolidate/...", "llm/...", "metrics/...", "hooks/...", "githook", "mcp/...", "config/..."},
		"memory":     {"gitstore/...", "workspace/...", "extract/...", "consolidate/...", "llm/...", "hooks/...", "githook", "mcp/...", "config/...", "metrics/..."},
		"extract":    {"gitstore/...", "workspace/...", "consolidate/...", "memory/...", "lint/...", "hooks/...", "githook", "mcp/...", "config/..."},
		"gitstore":   {"workspace/...", "extract/...", "consolidate/...", "memory/...", "llm/...", "hooks/...", "githook", "mcp/...", "metrics/...", "sessionlog/..."},
		"workspace":  {"extract/...", "consolidate/...", "hooks/...", "githook", "mcp/...", "sessionlog/..."},
		// the shim scripts alone; githook installs them and runs the checks
		// they call, on gitstore and the linter, with the configuration
		// given as functions by the command
		"hooks":             {"..."},
		"githook":           {"workspace/...", "extract/...", "consolidate/...", "memory/...", "llm/...", "mcp/...", "metrics/...", "sessionlog/...", "agent/...", "eval/..."},
		"mcp":               {"gitstore/...", "workspace/...", "extract/...", "consolidate/...", "llm/...", "hooks/...", "githook", "config/..."},
		"consolidate/rules": {"gitstore/...", "workspace/...", "llm/...", "mcp/...", "hooks/...", "githook", "consolidate/agent"},
		"consolidate/agent": {"gitstore/...", "workspace/...", "mcp/...", "hooks/...", "githook", "consolidate/rules", "llm/apis"},
		"consolidate":       {"mcp/...", "hooks/...", "githook", "llm/apis"},
		"consolidate/setup": {"mcp/...", "hooks/...", "githook", "llm/apis"},
		"eval":              {"mcp/...", "hooks/...", "githook", "llm/apis"},
		// review reads commits, blobs and notes; usage is judged by a
		// function the command gives it
		"review": {"workspace/...", "mcp/...", "hooks/...", "githook", "llm/...", "memory/...", "extract/...", "agent/...", "eval/..."},
		// agent integrations: pure events, responses and settings merges;
		// what the hooks do with them is the command's wiring
		"agent": {"agent/...", "memlog/...", "config/...", "metrics/...", "sessionlog/...", "llm/...", "lint/...", "memory/...", "extract/...", "gitstore/...", "workspace/...", "hooks/...", "githook", "mcp/...", "consolidate/...", "eval/..."},
		// which files an agent's setup writes, and writing them: the
		// agents' pure merges, no workspace or git
		"agent/setup":      {"memlog/...", "config/...", "metrics/...", "sessionlog/...", "llm/...", "lint/...", "memory/...", "extract/...", "gitstore/...", "workspace/...", "hooks/...", "githook", "mcp/...", "consolidate/...", "eval/..."},
		"agent/claudecode": {"agent/codex", "memlog/...", "config/...", "metrics/...", "sessionlog/...", "llm/...", "lint/...", "memory/...", "extract/...", "gitstore/...", "workspace/...", "hooks/...", "githook", "mcp/...", "consolidate/...", "eval/..."},
		"agent/codex":      {"agent/claudecode", "memlog/...", "config/...", "metrics/...", "sessionlog/...", "llm/...", "lint/...", "memory/...", "extract/...", "gitstore/...", "workspace/...", "hooks/...", "githook", "mcp/...", "consolidate/...", "eval/..."},
		// the hooks' answers and background run: the workspace and the
		// runners, never an agent's encoding, the front ends or the SDKs
		"agent/handler": {"agent/claudecode", "agent/codex", "mcp/...", "hooks/...", "githook", "eval/...", "llm/apis"},
		// doctor reads what the runners and the setup leave; it runs none
		"doctor": {"mcp/...", "llm/apis", "consolidate/agent", "consolidate/rules", "consolidate/setup", "extract", "eval/...", "agent/claudecode", "agent/codex"},
		// helpers; the catalog caches memory's examinations of records
		"internal/...": {"gitstore/...", "workspace/...", "extract/...", "consolidate/...", "mcp/...", "hooks/...", "githook", "llm/...", "config/...", "metrics/...", "sessionlog/...", "memlog/...", "lint/..."},
	}
}

// sdks are the model SDKs: only llm/apis and the helper that wraps it
// may link them.
func sdks() []string { return []string{"github.com/anthropics/", "github.com/openai/"} }

type pkg struct {
	ImportPath string
	Imports    []string
	Deps       []string
}

// statSources stats every Go file of the module: go test caches a test's
// result by the files it touches, and go list, which reads them, runs in
// another process.
func statSources(t *testing.T) {
	t.Helper()
	root := filepath.Join("..", "..")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")) && p != root {
			return filepath.SkipDir
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".go") || d.Name() == "go.mod") {
			_, err = os.Stat(p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	statSources(t)
	goBin, err := exec.LookPath("go")
	if err != nil {
		goBin = filepath.Join(runtime.GOROOT(), "bin", "go")
	}
	cmd := exec.Command(goBin, "list", "-deps=false", "-json=ImportPath,Imports,Deps", module+"...")
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			t.Fatalf("go list: %v\n%s", err, ee.Stderr)
		}
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		pkgs = append(pkgs, p)
	}
	return pkgs
}

// matches tells whether rel (below the module) is pattern.
func matches(pattern, rel string) bool {
	if pattern == "..." {
		return true
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == base || strings.HasPrefix(rel, base+"/")
	}
	return rel == pattern
}

// rulesFor are the forbidden imports of rel: those of the most specific
// pattern that names it.
func rulesFor(rel string) (string, []string) {
	rules := forbidden()
	best := ""
	for pattern := range rules {
		if matches(pattern, rel) && len(pattern) > len(best) {
			best = pattern
		}
	}
	return best, rules[best]
}

func TestImportRules(t *testing.T) {
	for _, p := range listPackages(t) {
		rel := strings.TrimPrefix(p.ImportPath, module)
		if strings.HasPrefix(rel, "bench/") || rel == "internal/archtest" {
			continue
		}
		pattern, rules := rulesFor(rel)
		for _, imp := range p.Imports {
			dep, ours := strings.CutPrefix(imp, module)
			if !ours || strings.HasPrefix(dep, "internal/") {
				continue // every package may use internal/ helpers
			}
			if strings.HasPrefix(dep, "cmd/") {
				t.Errorf("%s imports %s: nothing imports a command", rel, dep)
			}
			for _, f := range rules {
				if matches(f, dep) && dep != rel {
					t.Errorf("%s imports %s (docs/architecture.md: %s may not import %s)", rel, dep, pattern, f)
				}
			}
		}
		if rel == "llm/apis" || rel == "cmd/git-yoimem-llm" {
			continue
		}
		for _, d := range p.Deps {
			for _, sdk := range sdks() {
				if strings.HasPrefix(d, sdk) {
					t.Errorf("%s links %s: only llm/apis and git-yoimem-llm may", rel, d)
				}
			}
		}
	}
}

func TestRulesFor(t *testing.T) {
	for rel, want := range map[string]string{
		"record": "record", "consolidate": "consolidate", "consolidate/rules": "consolidate/rules",
		"internal/lockfile": "internal/...", "githook": "githook", "hooks": "hooks", "cmd/git-yoimem": "",
		"agent": "agent", "agent/claudecode": "agent/claudecode", "agent/codex": "agent/codex", "agent/handler": "agent/handler",
		"agent/setup": "agent/setup", "doctor": "doctor", "forge": "forge",
	} {
		if got, _ := rulesFor(rel); got != want {
			t.Errorf("rulesFor(%s) = %s; want %s", rel, got, want)
		}
	}
}
