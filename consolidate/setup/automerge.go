package setup

import (
	"context"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/workspace"
)

// AutoMerge brings the memory commits that reps made into the current
// branch when yoimem.autoMerge is on and gitstore.AutoMerge finds it safe
// (.yoi/ clean, the merge a fast-forward of .yoi/ alone); otherwise the
// result says why not and nothing changed. It returns nil when the
// setting is off or no run committed. Every way consolidation runs (the
// command, extract's follow-on run, the agents' background runs) calls it
// when its runs are done.
func AutoMerge(ctx context.Context, w *workspace.Workspace, reps []consolidate.Report) (*gitstore.AutoMergeResult, error) {
	if !w.Config.Bool(config.KeyAutoMerge) {
		return nil, nil
	}
	var first, last *consolidate.Report
	for i := range reps {
		if reps[i].Committed() {
			if first == nil {
				first = &reps[i]
			}
			last = &reps[i]
		}
	}
	if last == nil {
		return nil, nil
	}
	prefix, err := w.Prefix()
	if err != nil {
		return nil, err
	}
	res, err := gitstore.AutoMerge(ctx, w.Repo, gitstore.AutoMergeRequest{
		Branch: w.Config.String(config.KeyBranch), Prefix: prefix,
		Tip: last.Result.Commit, First: first.Result.Commit,
	})
	if err != nil {
		return nil, err
	}
	return &res, nil
}
