package main

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
)

// TestDocumentedCommandsParse: every 'git yoimem …' command line in the
// help texts, the README and docs/ names a real command with real flags,
// each given its value, so that an example runs as written (synopses are
// read with their first alternative: [--format text|json] as --format
// text).
func TestDocumentedCommandsParse(t *testing.T) {
	var g globalOptions
	app := newApp(Env{Stdout: io.Discard, Stderr: io.Discard}, &g)
	type example struct{ where, line string }
	var examples []example
	quoted := regexp.MustCompile(`'(git yoimem [^']*)'`)
	for _, c := range app.Commands {
		texts := []string{c.Description, c.Usage}
		for _, f := range c.Flags {
			texts = append(texts, f.(cli.DocGenerationFlag).GetUsage())
		}
		for _, s := range texts {
			for _, m := range quoted.FindAllStringSubmatch(s, -1) {
				examples = append(examples, example{"help of " + c.Name, m[1]})
			}
		}
		for _, l := range strings.Split(c.UsageText, "\n") {
			examples = append(examples, example{"usage of " + c.Name, l})
		}
	}
	// Hints and messages in the code too ('git yoimem install --chain').
	sources, _ := filepath.Glob("*.go")
	for _, f := range sources {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range quoted.FindAllStringSubmatch(string(b), -1) {
			if !strings.Contains(m[1], `" +`) { // not built from parts
				examples = append(examples, example{f, m[1]})
			}
		}
	}
	docs, _ := filepath.Glob(filepath.Join("..", "..", "docs", "*.md"))
	docs = append(docs, filepath.Join("..", "..", "README.md"))
	inline := regexp.MustCompile("`(git yoimem [^`]*)`")
	for _, d := range docs {
		b, err := os.ReadFile(d)
		if err != nil {
			t.Fatal(err)
		}
		inBlock := false
		for i, l := range strings.Split(string(b), "\n") {
			where := filepath.Base(d) + ":" + itoa(i+1)
			if strings.HasPrefix(strings.TrimSpace(l), "```") {
				inBlock = !inBlock
				continue
			}
			if inBlock {
				l = strings.TrimPrefix(strings.TrimSpace(l), "$ ")
				if strings.HasPrefix(l, "git yoimem ") {
					examples = append(examples, example{where, l})
				}
				continue
			}
			for _, m := range inline.FindAllStringSubmatch(l, -1) {
				examples = append(examples, example{where, m[1]})
			}
		}
	}
	for _, ex := range examples {
		args, ok := exampleArgs(ex.line)
		if !ok {
			continue
		}
		if len(args) == 1 {
			// A command named in prose: it must exist; its flags are not
			// the point.
			args = append(args, "--help")
		}
		if _, err := parseArgs(app, append([]string{"git-yoimem"}, args...)); err != nil {
			t.Errorf("%s: %q does not run as written: %v", ex.where, ex.line, err)
		}
	}
	if len(examples) < 50 {
		t.Errorf("found only %d examples; is the search broken?", len(examples))
	}
}

// exampleArgs reads a documented command line as the arguments after
// "git yoimem": shell words up to a redirection, pipe, comment or "…",
// with a synopsis's brackets and alternatives read as their first choice.
// ok is false for a line that is not a command (a placeholder for any).
func exampleArgs(line string) (args []string, ok bool) {
	line = strings.ReplaceAll(line, `\|`, "|")
	words := shellWords(strings.TrimPrefix(line, "git yoimem "))
	for _, w := range words {
		if w == "<" || w == ">" || w == "|" || w == "&&" || w == ";" || strings.HasPrefix(w, "#") || w == "…" {
			break
		}
		w = strings.Trim(w, "[]")
		if w == "COMMAND" {
			return nil, false
		}
		w = strings.TrimSuffix(w, "...")
		if alt, _, found := strings.Cut(w, "|"); found {
			w = alt
		}
		if w != "" {
			args = append(args, w)
		}
	}
	return args, true
}

// shellWords splits like sh for the simple quoting examples use.
func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	in := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ' || r == '\t':
			if in {
				words = append(words, cur.String())
				cur.Reset()
				in = false
			}
		default:
			cur.WriteRune(r)
			in = true
		}
	}
	if in {
		words = append(words, cur.String())
	}
	return words
}

func itoa(i int) string { return strconv.Itoa(i) }
