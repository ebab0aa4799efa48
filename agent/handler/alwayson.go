package handler

import (
	"github.com/yoimem/git-yoimem/agent"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

// AlwaysOn is the always-on context of w as `git yoimem context` prints
// it (the working tree's summary and invocable knowledge, within
// yoimem.context.budgetChars), for a file an agent reads at startup
// (Codex's AGENTS.md). Nothing is recorded as used: no session reads it
// yet. A summary alone over the budget is an error.
func AlwaysOn(w *workspace.Workspace) (agent.Context, error) {
	dirs := []string{record.SummaryPath, record.KnowledgeDir}
	loaded := w.OpenCatalogAsync(true, dirs...)
	snap, err := w.Snapshot(dirs...)
	cat := <-loaded
	if err != nil {
		return agent.Context{}, err
	}
	defer cat.Save()
	res, err := memory.Context(snap, int(w.Config.Int(config.KeyContextBudgetChars)), cat.Examiner(snap))
	if err != nil {
		return agent.Context{}, err
	}
	return agent.Context{Summary: res.Text, Hint: contextHint}, nil
}
