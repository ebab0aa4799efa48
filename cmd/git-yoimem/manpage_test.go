package main

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/internal/manpage"
)

// manPath is the committed man page; install.sh installs it.
var manPath = filepath.Join("..", "..", "docs", "man", "git-yoimem.1")

// manPage is git-yoimem(1), generated from the command definitions.
func manPage() manpage.Page {
	var g globalOptions
	app := newApp(Env{Stdout: io.Discard, Stderr: io.Discard}, &g)
	p := manpage.Page{
		Name:        "git-yoimem",
		Section:     1,
		Source:      "git-yoimem",
		Manual:      "git-yoimem Manual",
		Summary:     app.Usage,
		Synopsis:    strings.Split(app.UsageText, "\n"),
		Description: app.Description,
		Options:     manOptions(appFlags(app)),
	}
	for _, c := range app.Commands {
		p.Commands = append(p.Commands, manpage.Command{
			Name:        c.Name,
			Synopsis:    strings.Split(c.UsageText, "\n"),
			Summary:     capitalize(c.Usage) + ".",
			Description: c.Description,
			Options:     manOptions(c.Flags),
		})
	}
	for _, s := range helpSections() {
		p.Sections = append(p.Sections, manpage.Section{Title: s.title, Text: s.text})
	}
	return p
}

func manOptions(flags []cli.Flag) []manpage.Option {
	var out []manpage.Option
	for _, f := range flags {
		df := f.(cli.DocGenerationFlag)
		arg, usage := unquoteUsage(df.GetUsage())
		if df.TakesValue() && arg == "" {
			arg = "VALUE"
		}
		o := manpage.Option{Arg: arg, Usage: usage}
		if df.TakesValue() {
			o.Default = df.GetValue()
		}
		for _, n := range f.Names() {
			o.Names = append(o.Names, dashed(n))
		}
		out = append(out, o)
	}
	return out
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// TestManPage: docs/man/git-yoimem.1 is what the command definitions
// say; 'go test ./cmd/git-yoimem -update' rewrites it.
func TestManPage(t *testing.T) {
	want := manPage().Roff()
	if *update {
		if err := os.WriteFile(manPath, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(manPath)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is out of date with the command definitions; run 'go test ./cmd/git-yoimem -update'", manPath)
	}
}

// TestManPageRenders: groff reads the page without a warning.
func TestManPageRenders(t *testing.T) {
	if _, err := exec.LookPath("groff"); err != nil {
		t.Skip("groff not installed")
	}
	cmd := exec.Command("groff", "-man", "-ww", "-z", "-Tutf8", manPath)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil || stderr.Len() > 0 {
		t.Errorf("groff %s: %v\n%s", manPath, err, stderr.String())
	}
}
