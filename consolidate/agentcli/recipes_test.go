package agentcli

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/llm"
)

// TestRecipes: the recipes of docs/consolidate.md, as git config stores
// them, split into the words the CLIs expect, placeholders expanded.
func TestRecipes(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "consolidate.md"))
	if err != nil {
		t.Fatal(err)
	}
	f := runFiles{config: "/r/mcp.json", prompt: "/r/prompt.md"}
	for _, c := range []struct {
		name, value string
		want        []string
	}{
		{"claude", `command:claude -p --tools "" --mcp-config {mcp_config} --strict-mcp-config --allowedTools mcp__yoimem__memory_read,mcp__yoimem__memory_write,mcp__yoimem__memory_edit,mcp__yoimem__memory_delete,mcp__yoimem__knowledge_search,mcp__yoimem__memory_search,mcp__yoimem__report`,
			[]string{"claude", "-p", "--tools", "", "--mcp-config", "/r/mcp.json", "--strict-mcp-config", "--allowedTools", "mcp__yoimem__memory_read,mcp__yoimem__memory_write,mcp__yoimem__memory_edit,mcp__yoimem__memory_delete,mcp__yoimem__knowledge_search,mcp__yoimem__memory_search,mcp__yoimem__report"}},
		{"codex", `command:codex exec --sandbox read-only -c 'mcp_servers.yoimem.command="git"' -c 'mcp_servers.yoimem.args=["yoimem","mcp","--run","{run_id}"]' -c 'mcp_servers.yoimem.env_vars=["YOIMEM_RUN_TOKEN"]' -c 'mcp_servers.yoimem.default_tools_approval_mode="approve"' -`,
			[]string{"codex", "exec", "--sandbox", "read-only", "-c", `mcp_servers.yoimem.command="git"`, "-c", `mcp_servers.yoimem.args=["yoimem","mcp","--run","run-1"]`, "-c", `mcp_servers.yoimem.env_vars=["YOIMEM_RUN_TOKEN"]`, "-c", `mcp_servers.yoimem.default_tools_approval_mode="approve"`, "-"}},
	} {
		argv, err := llm.SplitArgv(strings.TrimPrefix(c.value, "command:"))
		if err != nil {
			t.Fatal(err)
		}
		if got := expand(argv, f, "run-1"); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q\nwant %q", c.name, got, c.want)
		}
		if !strings.Contains(string(doc), shellQuoted(c.value)) {
			t.Errorf("%s: docs/consolidate.md does not give %s", c.name, shellQuoted(c.value))
		}
		// every tool of the run is allowed by the Claude Code recipe
		if c.name == "claude" {
			for _, tool := range []string{"memory_read", "memory_write", "memory_edit", "memory_delete", "knowledge_search", "memory_search", "report"} {
				if !regexp.MustCompile(`mcp__yoimem__` + tool + `\b`).MatchString(c.value) {
					t.Errorf("the claude recipe does not allow %s", tool)
				}
			}
		}
	}
}

// shellQuoted is how the docs set value with git config: in single
// quotes, or in double quotes when it holds single quotes.
func shellQuoted(v string) string {
	if !strings.Contains(v, "'") {
		return "git config yoimem.consolidate.model '" + v + "'"
	}
	return `git config yoimem.consolidate.model "` + strings.ReplaceAll(v, `"`, `\"`) + `"`
}
