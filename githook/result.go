package githook

import "github.com/yoimem/git-yoimem/lint"

// Result is what a hook found: PreCommit's or PrePush's report, as data.
type Result struct {
	// Prefix is .yoi/ relative to the top level, e.g. ".yoi": the
	// findings' paths are below it.
	Prefix string
	// Staging are machine-local files a commit stages, from the top level
	// (pre-commit): the commit is refused whatever else it holds, and
	// nothing is linted.
	Staging []string
	// Report is the linter's findings on the records changed.
	Report lint.Report
	// Trailers are the pushed memory commits whose Yoimem-* trailers are
	// wrong, one line each naming the ref and commit (pre-push).
	Trailers []string
}

// Refused tells whether the commit or push must not go on: staged
// machine-local files, a lint error, or a memory commit's bad trailers.
func (r Result) Refused() bool {
	return len(r.Staging) > 0 || r.Report.HasErrors() || len(r.Trailers) > 0
}

// Path is a finding's path from the top level, slash-separated.
func (r Result) Path(f lint.Finding) string { return r.Prefix + "/" + f.Path }
