// Package setup wires a consolidation run from a workspace: the memory
// branch, the engine and the consolidate.Runner, from the workspace's
// settings. The command line (git yoimem consolidate, extract's trigger)
// and the scorer (eval) run consolidation through it, so that what is
// scored is what users run. It chooses no engine from flags, prints
// nothing and maps no exit code: its errors are typed for the caller.
package setup

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/consolidate/agent"
	"github.com/yoimem/git-yoimem/consolidate/agentcli"
	"github.com/yoimem/git-yoimem/consolidate/rules"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/workspace"
)

// Engine names (--engine, Yoimem-Engine).
const (
	EngineRules = "rules"
	EngineLLM   = "llm"
)

// Engine is the engine a run uses: Name is EngineRules or EngineLLM;
// Model, for llm, overrides yoimem.consolidate.model.
type Engine struct {
	Name  string
	Model string
}

// EngineOptions are the seams of an llm engine: Progress is told of the
// agent's turns and tool calls; Wrap, if set, wraps the model opened
// (a recorder of its calls).
type EngineOptions struct {
	Progress func(agent.Event)
	Wrap     func(llm.Provider) llm.Provider
	// Serve, if set, serves MCP over a connection of a run's server (git
	// yoimem mcp --run): with it a command: model runs the agent CLI it
	// names (agentcli.Engine); without it, such a model is refused.
	Serve func(ctx context.Context, rw io.ReadWriteCloser, v *agent.Served) error
}

// CommandModelError is a command: model given to the llm engine where no
// MCP server can serve the run to it (EngineOptions.Serve is nil):
// refused before the run.
type CommandModelError struct {
	Source string // --model or the setting that named it
	Model  string
}

func (e *CommandModelError) Error() string {
	return fmt.Sprintf("%s %s: a command: model runs an agent CLI that calls the run's tools through its MCP server, which is not served here (git yoimem consolidate serves it)", e.Source, quote.Value(e.Model))
}

// OpenEngine opens engine c of workspace w. A model that cannot be
// opened is a *workspace.ModelError; a command: model a
// *CommandModelError.
func OpenEngine(w *workspace.Workspace, c Engine, o EngineOptions) (consolidate.Engine, error) {
	if c.Name == EngineRules {
		return rules.Engine{}, nil
	}
	if m := w.Model(config.KeyConsolidateModel, c.Model); strings.HasPrefix(m, "command:") {
		source := config.KeyConsolidateModel
		if c.Model != "" {
			source = "--model"
		}
		if o.Serve == nil {
			return nil, &CommandModelError{Source: source, Model: m}
		}
		if _, err := llm.SplitArgv(strings.TrimPrefix(m, "command:")); err != nil {
			return nil, &workspace.ModelError{Setting: source, Err: fmt.Errorf("model %s: %w", m, err)}
		}
		return commandEngine(w, m, o), nil
	}
	provider, label, err := w.OpenModelFor(config.KeyConsolidateModel, c.Model)
	if err != nil {
		return nil, err
	}
	if o.Wrap != nil {
		provider = o.Wrap(provider)
	}
	cfg := w.Config
	return agent.Engine{
		Provider:  provider,
		ModelName: label,
		MaxTurns:  int(cfg.Int(config.KeyConsolidateMaxTurns)),
		Brief:     briefOptions(w),
		Search:    searchOptions(w),
		Progress:  o.Progress,
	}, nil
}

// commandEngine runs the agent CLI model names, with the run's MCP
// server (git yoimem mcp --run) in the workspace root.
func commandEngine(w *workspace.Workspace, model string, o EngineOptions) agentcli.Engine {
	cfg := w.Config
	return agentcli.Engine{
		Spec:      model,
		RunsDir:   RunsDir(w),
		Shared:    w.SharedPerm,
		Dir:       w.Root,
		Timeout:   time.Duration(cfg.Int(config.KeyConsolidateCommandTimeout)) * time.Second,
		Serve:     o.Serve,
		Brief:     briefOptions(w),
		Search:    searchOptions(w),
		MaxOutput: cfg.Int(config.KeyLLMMaxReplyBytes),
		Progress:  o.Progress,
	}
}

// RunsDir holds the machine-local files of the runs an agent CLI makes:
// their sockets, briefs and logs.
func RunsDir(w *workspace.Workspace) string { return filepath.Join(w.LocalDir(), "runs") }

func briefOptions(w *workspace.Workspace) agent.BriefOptions {
	return agent.BriefOptions{BudgetChars: int(w.Config.Int(config.KeyConsolidateBudgetChars))}
}

func searchOptions(w *workspace.Workspace) memory.Options {
	return memory.Options{
		MaxResults:   int(w.Config.Int(config.KeySearchMaxResults)),
		ExcerptLines: int(w.Config.Int(config.KeySearchExcerptLines)),
	}
}

// MemoryBranch is the workspace's memory branch (yoimem.branch) on its
// base branch (yoimem.baseBranch, else the default branch). No base
// branch is an error wrapping gitstore.ErrNoBase.
func MemoryBranch(ctx context.Context, w *workspace.Workspace) (*gitstore.MemoryBranch, error) {
	prefix, err := w.Prefix()
	if err != nil {
		return nil, err
	}
	objs, err := gitstore.OpenObjects(w.Repo)
	if err != nil {
		return nil, err
	}
	base, err := gitstore.ResolveBaseIn(ctx, w.Repo, objs, w.Config.String(config.KeyBaseBranch))
	if err != nil {
		return nil, err
	}
	return &gitstore.MemoryBranch{Repo: w.Repo, Objects: objs, Branch: w.Config.String(config.KeyBranch), Base: base, Prefix: prefix}, nil
}

// RunnerOptions are a run's seams: the clock, the run IDs (nil: UUIDv7s)
// and the hooks.
type RunnerOptions struct {
	Now      func() time.Time
	NewRunID func() (string, error)
	Hooks    consolidate.Hooks
}

// NewRunner wires a consolidation run of workspace w on branch with
// engine e: its staging, locks, lint options, usage (the local metrics
// and the committed run files) and metrics.
func NewRunner(w *workspace.Workspace, branch *gitstore.MemoryBranch, e consolidate.Engine, o RunnerOptions) *consolidate.Runner {
	cfg := w.Config
	local := w.Metrics()
	usage := func() (metrics.Data, error) {
		d, err := local.Read()
		if err != nil {
			return metrics.Data{}, err
		}
		committed, err := metrics.ReadRunFiles(w.YoiDir())
		return d.Add(committed), err
	}
	return &consolidate.Runner{
		Branch:     branch,
		StagingDir: w.StagingDir(),
		Root:       w.Root,
		Locked:     cfg.List(config.KeyConsolidateLocked),
		MaxRead:    cfg.Int(config.KeyLintMaxFileBytes),
		Lint:       w.WithImportance(w.LintOptions()),
		Usage:      consolidate.JudgeUsage(usage, workspace.MetricsParams(cfg)),
		Metrics:    consolidate.LocalMetrics{Local: local},
		Engine:     e,
		Now:        o.Now,
		NewRunID:   o.NewRunID,
		Hooks:      o.Hooks,
		Sync:       RunSync(w, branch, o.Now),
	}
}

// Thresholds are the staging count and bytes at which a run is due.
func Thresholds(w *workspace.Workspace) (files int, bytes int64) {
	return int(w.Config.Int(config.KeyConsolidateStagingFiles)), w.Config.Int(config.KeyConsolidateStagingBytes)
}

// DefaultEngine is the engine a triggered run uses (no flag chooses):
// llm when yoimem.consolidate.model is set, else rules.
func DefaultEngine(w *workspace.Workspace) Engine {
	if w.Model(config.KeyConsolidateModel, "") != "" {
		return Engine{Name: EngineLLM}
	}
	return Engine{Name: EngineRules}
}

// StagingDue tells whether the staging in dir reaches the workspace's
// thresholds (Thresholds): the consolidation trigger's test.
func StagingDue(w *workspace.Workspace, dir string) (bool, error) {
	files, bytes := Thresholds(w)
	b, err := consolidate.Due(dir, files, bytes)
	return b.Due, err
}

// TriggerOptions are a triggered run's seams and bound.
type TriggerOptions struct {
	Engine  EngineOptions
	Runner  RunnerOptions
	MaxRuns int // at most this many runs while the staging left is due
}

// RunIfDue is the consolidation trigger (docs/consolidate.md, "Running
// it") as a process with no terminal runs it: when the workspace's
// staging is due, consolidation with DefaultEngine, at most o.MaxRuns
// runs. Not due: no reports, due false. Another run holding the lock is
// a *consolidate.BusyError.
func RunIfDue(ctx context.Context, w *workspace.Workspace, o TriggerOptions) (reps []consolidate.Report, due bool, err error) {
	if due, err = StagingDue(w, w.StagingDir()); err != nil || !due {
		return nil, due, err
	}
	branch, err := MemoryBranch(ctx, w)
	if err != nil {
		return nil, true, err
	}
	e, err := OpenEngine(w, DefaultEngine(w), o.Engine)
	if err != nil {
		return nil, true, err
	}
	files, bytes := Thresholds(w)
	reps, err = NewRunner(w, branch, e, o.Runner).Run(ctx, max(1, o.MaxRuns), files, bytes)
	return reps, true, err
}
