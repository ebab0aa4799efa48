package workspace

import (
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
)

// LintOptions maps the configuration onto the linter's options.
func (w *Workspace) LintOptions() lint.Options {
	return LintOptions(w.Config)
}

// LintOptions maps a configuration onto the linter's options.
func LintOptions(cfg *config.Config) lint.Options {
	o := lint.DefaultOptions()
	o.MaxFileBytes = cfg.Int(config.KeyLintMaxFileBytes)
	o.Caps = map[record.Kind]int{
		record.KindSummary:   int(cfg.Int(config.KeyLintSummaryChars)),
		record.KindDecision:  int(cfg.Int(config.KeyLintDecisionChars)),
		record.KindRequest:   int(cfg.Int(config.KeyLintRequestChars)),
		record.KindKnowledge: int(cfg.Int(config.KeyLintKnowledgeChars)),
	}
	o.DescriptionChars = int(cfg.Int(config.KeyLintDescriptionChars))
	o.SourcesWarn = int(cfg.Int(config.KeyLintSourcesWarn))
	o.LowImportanceTokens = cfg.Int(config.KeyLintLowImportanceTokens)
	o.LossRatio = cfg.Float(config.KeyLintLossRatio)
	o.SimilarSlugs = cfg.Bool(config.KeyLintSimilarSlugs)
	o.ProtectFrequency = cfg.Float(config.KeyMetricsProtectFrequency)
	return o
}

// Tools are the memory tools on the working tree's .yoi/: linted as
// automation, writers serialised by RecordsLockFile across processes.
func (w *Workspace) Tools() *memory.Tools {
	return &memory.Tools{
		Store: &gitstore.WorktreeStore{
			Root:     w.Root,
			LockFile: w.RecordsLockFile(),
			MaxRead:  w.Config.Int(config.KeyLintMaxFileBytes),
			Shared:   w.SharedPerm,
		},
		Lint: w.LintOptions(),
	}
}
