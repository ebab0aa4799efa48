package main

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestCIDoc: the GitHub Actions workflow and the GitLab CI job in
// docs/ci.md are YAML that parses, run on requests that touch .yoi/, and
// every 'git yoimem' command they run parses as this CLI's, with the
// checks the doc promises (lint for annotations and SARIF, check-commits);
// their shell lines pass bash -n when bash is there, and take no
// ${{ … }} expression into the script (injection).
func TestCIDoc(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("..", "..", "docs", "ci.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindAllStringSubmatch(string(b), -1)
	if len(blocks) != 2 {
		t.Fatalf("docs/ci.md has %d yaml blocks; want 2 (GitHub Actions, GitLab CI)", len(blocks))
	}
	var g globalOptions
	app := newApp(Env{Stdout: io.Discard, Stderr: io.Discard}, &g)
	for i, want := range []struct {
		name     string
		trigger  []string // the path filter, as keys down the document
		commands []string // what must be run, as prefixes of the parsed arguments
	}{
		{"GitHub Actions", []string{"on", "pull_request", "paths"}, []string{"lint --format github", "lint --format sarif", "check-commits --format github --as"}},
		{"GitLab CI", []string{"yoimem", "rules", "0", "changes"}, []string{"lint", "check-commits --as"}},
	} {
		var doc any
		if err := yaml.Unmarshal([]byte(blocks[i][1]), &doc); err != nil {
			t.Errorf("%s: the YAML does not parse: %v", want.name, err)
			continue
		}
		if paths := fmtAny(dig(doc, want.trigger...)); !strings.Contains(paths, ".yoi/**") {
			t.Errorf("%s: %s is %s; want a filter on .yoi/**", want.name, strings.Join(want.trigger, "."), paths)
		}
		var ran []string
		for _, script := range scripts(doc) {
			// A ${{ … }} in run: is pasted into the script before the shell
			// runs it: a branch named $(…) would run. Values go in env:.
			if strings.Contains(script, "${{") {
				t.Errorf("%s: run: %q expands ${{ … }} in the script; pass it through env:", want.name, script)
			}
			if path, err := exec.LookPath("bash"); err == nil {
				// ${{ … }} is the runner's, expanded before the shell sees it.
				sh := regexp.MustCompile(`\$\{\{[^}]*\}\}`).ReplaceAllString(script, "x")
				if out, err := exec.Command(path, "-n", "-c", sh).CombinedOutput(); err != nil {
					t.Errorf("%s: bash -n rejects %q: %v\n%s", want.name, script, err, out)
				}
			}
			for _, line := range strings.Split(script, "\n") {
				i := strings.Index(line, "git yoimem ")
				if i < 0 {
					continue
				}
				args, ok := exampleArgs(line[i:])
				if !ok {
					continue
				}
				if _, err := parseArgs(app, append([]string{"git-yoimem"}, args...)); err != nil {
					t.Errorf("%s: %q does not parse: %v", want.name, line[i:], err)
				}
				ran = append(ran, strings.Join(args, " "))
			}
		}
		for _, c := range want.commands {
			found := false
			for _, r := range ran {
				found = found || strings.HasPrefix(r, c)
			}
			if !found {
				t.Errorf("%s runs %q; want one starting %q", want.name, ran, c)
			}
		}
	}
}

// dig follows keys (list indices as numbers) down a parsed document.
func dig(v any, keys ...string) any {
	for _, k := range keys {
		switch n := v.(type) {
		case map[string]any:
			v = n[k]
		case []any:
			i := 0
			for _, c := range k {
				i = i*10 + int(c-'0')
			}
			if i >= len(n) {
				return nil
			}
			v = n[i]
		default:
			return nil
		}
	}
	return v
}

func fmtAny(v any) string {
	out, _ := yaml.Marshal(v)
	return strings.TrimSpace(string(out))
}

// scripts collects the shell a document runs: GitHub's run: strings and
// GitLab's script: lists, at any depth.
func scripts(v any) []string {
	var out []string
	switch n := v.(type) {
	case map[string]any:
		for k, c := range n {
			switch s := c.(type) {
			case string:
				if k == "run" {
					out = append(out, s)
				}
			case []any:
				if k == "script" {
					for _, l := range s {
						if str, ok := l.(string); ok {
							out = append(out, str)
						}
					}
					continue
				}
			}
			out = append(out, scripts(c)...)
		}
	case []any:
		for _, c := range n {
			out = append(out, scripts(c)...)
		}
	}
	return out
}
