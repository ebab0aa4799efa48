package annotate

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/yoimem/git-yoimem/lint"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// findings cover both severities, a file-level finding (no line), and
// paths and messages with every character the formats escape.
var findings = []lint.Finding{
	{Path: "knowledge/retry.md", Line: 10, Col: 31, Severity: lint.Error, Rule: lint.RuleKnowledgeRef, Message: "#storage-notes names no knowledge record"},
	{Path: "knowledge/a,b:c 100%.md", Line: 3, Col: 1, Severity: lint.Warning, Rule: lint.RuleLineEndings, Message: "CRLF line endings: 50% of lines\r\n::error file=x::forged"},
	{Path: "memory/summary.md", Severity: lint.Error, Rule: lint.RuleSummaryMissing, Message: ".yoi/ has no memory/summary.md"},
}

func fromRoot(f lint.Finding) string { return ".yoi/" + f.Path }

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func TestGitHubGolden(t *testing.T) {
	var b bytes.Buffer
	if err := GitHub(&b, findings, fromRoot); err != nil {
		t.Fatal(err)
	}
	golden(t, "github.golden", b.Bytes())
}

func TestSARIFGolden(t *testing.T) {
	var b bytes.Buffer
	tool := ToolInfo{Name: "git-yoimem", Version: "1.2.3", InformationURI: "https://example.com/git-yoimem"}
	if err := SARIF(&b, tool, lint.Rules()[:3], findings, fromRoot); err != nil {
		t.Fatal(err)
	}
	golden(t, "sarif.golden", b.Bytes())
}

func TestEscape(t *testing.T) {
	for _, tc := range []struct{ in, data, prop string }{
		{"plain", "plain", "plain"},
		{"100%", "100%25", "100%25"},
		{"a\r\nb", "a%0D%0Ab", "a%0D%0Ab"},
		{"a,b:c", "a,b:c", "a%2Cb%3Ac"},
		{"%0A", "%250A", "%250A"},
	} {
		if got := escapeData(tc.in); got != tc.data {
			t.Errorf("escapeData(%q) = %q, want %q", tc.in, got, tc.data)
		}
		if got := escapeProperty(tc.in); got != tc.prop {
			t.Errorf("escapeProperty(%q) = %q, want %q", tc.in, got, tc.prop)
		}
	}
}

// unescape is GitHub's runner reading a value back.
func unescape(s string) string {
	return strings.NewReplacer("%0D", "\r", "%0A", "\n", "%3A", ":", "%2C", ",", "%25", "%").Replace(s)
}

// FuzzGitHub: whatever the path, rule and message, a finding is one line,
// one command, whose properties split on ',' and '=' as the runner splits
// them and read back to what was given.
func FuzzGitHub(f *testing.F) {
	f.Add("knowledge/a.md", "knowledge-ref", "msg", 1, 2)
	f.Add("a,b:c%.md", "x::y", "a\r\n::error::forged%0A", 0, 0)
	f.Fuzz(func(t *testing.T, path, rule, msg string, line, col int) {
		var b bytes.Buffer
		fd := lint.Finding{Path: path, Line: line, Col: col, Severity: lint.Warning, Rule: rule, Message: msg}
		if err := GitHub(&b, []lint.Finding{fd}, func(f lint.Finding) string { return f.Path }); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.Count(out, "\n") != 1 || !strings.HasSuffix(out, "\n") || strings.Contains(out, "\r") {
			t.Fatalf("not one line: %q", out)
		}
		cmd, data, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(out, "::warning "), "\n"), "::")
		if !ok {
			t.Fatalf("no message separator: %q", out)
		}
		if got := unescape(data); got != msg {
			t.Fatalf("message %q read back as %q", msg, got)
		}
		props := map[string]string{}
		for _, kv := range strings.Split(cmd, ",") {
			k, v, _ := strings.Cut(kv, "=")
			props[k] = unescape(v)
		}
		if props["file"] != path || props["title"] != rule {
			t.Fatalf("properties %q read back as file=%q title=%q", cmd, props["file"], props["title"])
		}
	})
}

// TestSARIFStructure checks the log against what SARIF 2.1.0's schema
// requires of the properties written (no network: the rules are here).
func TestSARIFStructure(t *testing.T) {
	var b bytes.Buffer
	all := append(findings, lint.Finding{Path: "x.md", Line: 1, Col: 1, Severity: lint.Error, Rule: "not-in-the-registry", Message: "m"})
	if err := SARIF(&b, ToolInfo{Name: "git-yoimem", Version: "dev"}, lint.Rules(), all, fromRoot); err != nil {
		t.Fatal(err)
	}
	if errs := validateSARIF(b.Bytes()); len(errs) > 0 {
		t.Fatalf("invalid SARIF:\n%s\n%s", strings.Join(errs, "\n"), b.String())
	}
	// and the validator catches what it should
	for _, bad := range []string{
		`{"version":"2.1.0","runs":[]}`,
		`{"$schema":"x","version":"2.0.0","runs":[]}`,
		`{"$schema":"x","version":"2.1.0","runs":[{"tool":{"driver":{}},"results":[]}]}`,
		`{"$schema":"x","version":"2.1.0","runs":[{"tool":{"driver":{"name":"n","rules":[]}},"results":[{"ruleId":"r","ruleIndex":0,"level":"error","message":{"text":"m"},"locations":[]}]}]}`,
		`{"$schema":"x","version":"2.1.0","runs":[{"tool":{"driver":{"name":"n","rules":[{"id":"r","shortDescription":{"text":"s"}}]}},"results":[{"ruleId":"r","ruleIndex":0,"level":"fatal","message":{"text":"m"},"locations":[{"physicalLocation":{"artifactLocation":{"uri":"a b","uriBaseId":"%SRCROOT%"},"region":{"startLine":0}}}]}]}]}`,
	} {
		if errs := validateSARIF([]byte(bad)); len(errs) == 0 {
			t.Errorf("validator accepts %s", bad)
		}
	}
}

func TestURIPath(t *testing.T) {
	for in, want := range map[string]string{
		".yoi/knowledge/a.md":   ".yoi/knowledge/a.md",
		".yoi/knowledge/a b.md": ".yoi/knowledge/a%20b.md",
		"c:d/x.md":              "./c:d/x.md",
		".yoi/é#?.md":           ".yoi/%C3%A9%23%3F.md",
	} {
		if got := uriPath(in); got != want {
			t.Errorf("uriPath(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestGitHubCommand(t *testing.T) {
	got := GitHubCommand("error", "memory-trailers", "refs/heads/x: commit abc: bad\nline 100%")
	want := "::error title=memory-trailers::refs/heads/x: commit abc: bad%0Aline 100%25\n"
	if got != want {
		t.Errorf("GitHubCommand = %q, want %q", got, want)
	}
}
