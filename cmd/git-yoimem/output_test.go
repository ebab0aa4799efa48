//go:build unix

package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"sort"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// The output convention (docs/output.md): JSON keys are snake_case, and
// every path printed is relative to the workspace root, slash-separated,
// beginning with ".yoi/".
var (
	snakeKey = regexp.MustCompile(`^[a-z][a-z0-9]*(_[a-z0-9]+)*$`)
	// a .yoi/-relative path printed without its ".yoi/"
	barePath = regexp.MustCompile(`^(knowledge|memory|workflow|metrics)/\S+$`)
)

// pathKeys name values that are paths into .yoi/.
func pathKey(k string) bool {
	return k == "path" || k == "staging" || k == "target" || strings.HasSuffix(k, "_path")
}

// checkConvention walks a decoded JSON value and reports every key that
// is not snake_case and every path that does not begin with ".yoi/".
// Under opaque keys the value is data of another format (a JSON schema, a
// record's text) and is not walked.
func checkConvention(v any, at string, problems *[]string) {
	switch v := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !snakeKey.MatchString(k) {
				*problems = append(*problems, fmt.Sprintf("%s: key %q is not snake_case", at, k))
			}
			if at == "$.schema" && k == "json" {
				continue // extract --dry-run's schema: a JSON schema, whose keys are its own
			}
			if s, ok := v[k].(string); ok && pathKey(k) {
				if s != "" && !strings.HasPrefix(s, ".yoi/") {
					*problems = append(*problems, fmt.Sprintf("%s.%s: path %q does not begin with .yoi/", at, k, s))
				}
				continue
			}
			checkConvention(v[k], at+"."+k, problems)
		}
	case []any:
		for i, e := range v {
			checkConvention(e, fmt.Sprintf("%s[%d]", at, i), problems)
		}
	case string:
		if barePath.MatchString(v) {
			*problems = append(*problems, fmt.Sprintf("%s: path %q does not begin with .yoi/", at, v))
		}
	}
}

// TestJSONOutputConvention runs every command with a JSON output, and
// every MCP tool, on the sample repository with usage, a token ledger, a
// staging file and memory commits, and checks each document against the
// convention.
func TestJSONOutputConvention(t *testing.T) {
	r := newExtractRepo(t)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir, cmd.Env = r.dir, r.env
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	// a memory commit for log
	r.write("msg", "yoimem: 1 added, 1 replaced\n\nadd memory/requests/checkout-retries.md: asked in s1\n"+
		"replace memory/decisions/json-logs.md -> memory/decisions/structured-logging.md [superseded]: slog wins\n\n"+
		"Yoimem-Run: 0193a1b2-7c00-7d11-8e22-33445566aabb\nYoimem-Engine: rules\nYoimem-Consumed: 0193a1b2-0000-7000-8000-000000000001\n"+
		"Yoimem-Session: s1:1-9\nYoimem-Categories: outdated=0 superseded=1 unused=0 noisy=0\n")
	git("branch", "yoimem/memory")
	git("commit", "-q", "--allow-empty", "--no-verify", "-F", "msg")
	git("branch", "-f", "yoimem/memory", "HEAD")
	git("reset", "-q", "--hard", "HEAD~1")

	cases := []struct {
		name string
		args []string
		code int
	}{
		// the request, before the run leaves nothing to send
		{"extract --dry-run", []string{"extract", "--log", "session.jsonl", "--dry-run", "--json"}, 0},
		{"extract", []string{"extract", "--log", "session.jsonl", "--force", "--json", "--model", r.replay("good.json", `{"json": `+goodActivity+`}`)}, 0},
		{"extract --check", []string{"extract", "--log", "session.jsonl", "--check", "--json"}, 0},
		{"search knowledge", []string{"--session", "s1", "search", "knowledge", "--format", "json", "wal"}, 0},
		{"search memory", []string{"--session", "s1", "search", "memory", "--format", "json", "sqlite"}, 0},
		{"search by kind", []string{"search", "knowledge", "--kind", "howto", "--format", "json"}, 0},
		{"show", []string{"--session", "s2", "show", "--format", "json", "sqlite-pragmas"}, 0},
		{"show decision", []string{"show", "--format", "json", "use-sqlite"}, 0},
		{"context", []string{"context", "--format", "json"}, 0},
		{"stats", []string{"stats", "--format", "json"}, 0},
		{"lint", []string{"lint", "--format", "json"}, 1},
		{"lint --list-rules", []string{"lint", "--list-rules", "--format", "json"}, 0},
		{"config", []string{"config", "--format", "json"}, 0},
		{"log", []string{"log", "--format", "json"}, 0},
		{"memory read", []string{"memory", "read", "--format", "json", "knowledge/sqlite-pragmas.md"}, 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) { checkJSONCommand(t, r, tc.name, tc.code, tc.args...) })
	}

	// consolidation, on the sample with its lint errors fixed (as the demo
	// does) and no memory branch yet: the entry extract staged above
	git("branch", "-D", "yoimem/memory")
	fixSample(t, r)
	git("add", "-A")
	git("commit", "-q", "-m", "fix the sample")
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"consolidate --check", []string{"consolidate", "--check", "--format", "json"}},
		{"consolidate --dry-run", []string{"consolidate", "--dry-run", "--format", "json"}},
		{"consolidate", []string{"consolidate", "--format", "json"}},
		{"consolidate --replay", []string{"consolidate", "--replay", "yoimem/memory", "--engine", "rules", "--format", "json"}},
	} {
		t.Run(tc.name, func(t *testing.T) { checkJSONCommand(t, r, tc.name, 0, tc.args...) })
	}

	t.Run("mcp", func(t *testing.T) {
		cmd := r.command("mcp", "--write")
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		cs, err := sdk.NewClient(&sdk.Implementation{Name: "output-test"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		crlf := strings.ReplaceAll("---\nkind: fact\ndescription: Ports\nmodel_invokation: false\nuser_invocable: true\ncreated_at: 2026-01-05T09:30:00Z\nupdated_at: 2026-01-05T09:30:00Z\nlast_sources: []\n---\nThe shop listens on 8080.\n", "\n", "\r\n")
		for _, call := range []struct {
			tool string
			args map[string]any
		}{
			{"knowledge_search", map[string]any{"query": "wal"}},
			{"knowledge_search", map[string]any{"query": "", "slug": "sqlite-pragmas"}},
			{"memory_search", map[string]any{"query": "sqlite"}},
			{"memory_read", map[string]any{"path": "knowledge/sqlite-pragmas.md"}},
			// a warning (CRLF line endings) names the record
			{"memory_write", map[string]any{"path": "knowledge/ports.md", "content": crlf, "create": true}},
		} {
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: call.tool, Arguments: call.args})
			if err != nil {
				t.Fatalf("%s: %v", call.tool, err)
			}
			b, _ := json.Marshal(res.StructuredContent)
			if res.IsError {
				var text strings.Builder
				for _, c := range res.Content {
					if tc, ok := c.(*sdk.TextContent); ok {
						text.WriteString(tc.Text)
					}
				}
				t.Fatalf("%s: tool error: %s", call.tool, text.String())
			}
			var doc any
			if err := json.Unmarshal(b, &doc); err != nil {
				t.Fatal(err)
			}
			var problems []string
			checkConvention(doc, call.tool, &problems)
			for _, p := range problems {
				t.Error(p)
			}
			if call.tool == "memory_write" && !strings.Contains(string(b), `".yoi/knowledge/ports.md"`) {
				t.Errorf("memory_write's warning does not name .yoi/knowledge/ports.md: %s", b)
			}
		}
	})
}

// checkJSONCommand runs one command of TestJSONOutputConvention and checks
// its JSON against the convention.
func checkJSONCommand(t *testing.T, r *extractRepo, name string, want int, args ...string) {
	t.Helper()
	stdout, stderr, code := r.run(args...)
	if code != want {
		t.Fatalf("git yoimem %s: exit %d, want %d\n%s%s", strings.Join(args, " "), code, want, stdout, stderr)
	}
	var doc any
	if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	var problems []string
	checkConvention(doc, "$", &problems)
	switch name {
	case "lint --list-rules", "config", "context", "extract --check", "extract --dry-run", "consolidate --check":
	default:
		if !strings.Contains(stdout, ".yoi/") {
			problems = append(problems, "no .yoi/ path at all")
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
	if t.Failed() {
		t.Logf("output:\n%s", stdout)
	}
}

// fixSample fixes the sample repository's two lint errors, as install.sh
// --demo does: the request gets its sources, and the knowledge record
// #request-ids names is written.
func fixSample(t *testing.T, r *extractRepo) {
	t.Helper()
	req := ".yoi/memory/requests/checkout-retries.md"
	b, err := os.ReadFile(r.path(req))
	if err != nil {
		t.Fatal(err)
	}
	fixed := strings.Replace(string(b), "updated_at: 2025-12-10T08:00:00Z\n", "updated_at: 2025-12-10T08:00:00Z\nsources:\n  - {session_id: 0193a1b2-7c00-7d11-8e22-33445566aaee, range: [5, 18]}\n", 1)
	if fixed == string(b) {
		t.Fatal("the sample's request is not as fixSample expects")
	}
	r.write(req, fixed)
	r.write(".yoi/knowledge/request-ids.md", "---\nkind: rule\ndescription: Every log line carries the request ID; read before adding logging.\nmodel_invokation: false\nuser_invocable: true\ncreated_at: 2025-12-09T11:00:00Z\nupdated_at: 2025-12-09T11:00:00Z\nlast_sources:\n  - {session_id: 0193a1b2-7c00-7d11-8e22-33445566aadd, range: [60, 77]}\n---\n# Request IDs\n\nMiddleware puts the ID in the context; slog handlers read it from there.\n")
}
