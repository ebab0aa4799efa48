package main

import (
	"slices"
	"strings"

	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/lint/annotate"
	"github.com/yoimem/git-yoimem/workspace"
)

// lintFormats are lint's --format values: the listing formats and the CI
// ones (docs/ci.md).
var lintFormats = []string{"text", "json", "github", "sarif"}

// sarifTool names git-yoimem in SARIF logs.
func sarifTool() annotate.ToolInfo {
	return annotate.ToolInfo{Name: "git-yoimem", Version: version(), InformationURI: "https://github.com/yoimem/git-yoimem"}
}

// printLintCI prints findings for CI (--format github or sarif) with
// paths from the repository root, where CI services resolve them.
func printLintCI(env Env, w *workspace.Workspace, rep lint.Report, format string) error {
	prefix, err := yoiPrefix(w)
	if err != nil {
		return err
	}
	fromRoot := func(f lint.Finding) string { return prefix + "/" + f.Path }
	if format == "github" {
		err = annotate.GitHub(env.Stdout, rep.Findings, fromRoot)
	} else {
		err = annotate.SARIF(env.Stdout, sarifTool(), lint.Rules(), rep.Findings, fromRoot)
	}
	if err == nil && len(rep.Findings) > 0 { // the job's log says it too
		statusf(env.Stderr, "%d error(s), %d warning(s) in %d file(s)", rep.Count(lint.Error), rep.Count(lint.Warning), rep.Files)
	}
	return err
}

// checkFormatOf checks a --format value against a command's formats (the
// CI commands have more than checkFormat's text and json).
func checkFormatOf(f string, formats []string) error {
	if slices.Contains(formats, f) {
		return nil
	}
	want := formats[len(formats)-1]
	if len(formats) > 1 {
		want = strings.Join(formats[:len(formats)-1], ", ") + " or " + want
	}
	return usageError("--format %s: want %s", quote.Value(f), want)
}
