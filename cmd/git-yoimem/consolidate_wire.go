package main

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/consolidate/agent"
	"github.com/yoimem/git-yoimem/consolidate/agentcli"
	"github.com/yoimem/git-yoimem/consolidate/setup"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/workspace"
)

// A consolidation run as the command line wires it from the workspace:
// the memory branch, the staging, the locks, usage, the linter's options
// and the engine. `consolidate` and extract's trigger share it.

// Engine names (--engine, Yoimem-Engine).
const (
	engineRules = setup.EngineRules
	engineLLM   = setup.EngineLLM
)

// engineChoice is the engine a run uses and, for llm, the --model flag.
type engineChoice = setup.Engine

// chooseEngine: --engine when given, else llm when a model is set (by
// --model or yoimem.consolidate.model), else rules. --engine llm without
// a model and --model with the rules engine are usage errors.
func chooseEngine(w *workspace.Workspace, flag, model string) (engineChoice, error) {
	configured := w.Model(config.KeyConsolidateModel, model)
	switch flag {
	case "":
		if configured != "" {
			return engineChoice{Name: engineLLM, Model: model}, nil
		}
		return engineChoice{Name: engineRules}, nil
	case engineRules:
		if model != "" {
			return engineChoice{}, usageErrorHint("leave --model out, or use --engine llm", "--model %s is for the llm engine; the rules engine uses no model", quote.Value(model))
		}
		return engineChoice{Name: engineRules}, nil
	case engineLLM:
		if configured == "" {
			return engineChoice{}, usageErrorHint("set one: git config "+config.KeyConsolidateModel+" anthropic:claude-sonnet-4-5 (or openai:MODEL, replay:FILE), or pass --model; or use --engine rules",
				"--engine llm needs a model, and %s is not set", config.KeyConsolidateModel)
		}
		return engineChoice{Name: engineLLM, Model: model}, nil
	}
	return engineChoice{}, usageError("--engine %s: want llm or rules", quote.Value(flag))
}

// openEngine opens the engine chosen; progress is told of the agent's
// turns and tool calls.
func openEngine(w *workspace.Workspace, c engineChoice, p *progress) (consolidate.Engine, error) {
	e, err := setup.OpenEngine(w, c, setup.EngineOptions{Progress: p.agentEvent, Serve: serveRun(p.writer())})
	if err != nil {
		return nil, engineError(err)
	}
	return e, nil
}

// engineError gives an engine that cannot be opened what to do.
func engineError(err error) error {
	var cmdModel *setup.CommandModelError
	if errors.As(err, &cmdModel) {
		return cannotRun(err, "use an anthropic:, openai: or replay: model, or --engine rules")
	}
	var model *workspace.ModelError
	if errors.As(err, &model) {
		return cannotRun(err, "check the model string; 'git yoimem config "+config.KeyConsolidateModel+"' shows it")
	}
	return cannotRun(err)
}

// memoryBranch is the workspace's memory branch (yoimem.branch) on its
// base branch (yoimem.baseBranch, else the default branch).
func memoryBranch(ctx context.Context, w *workspace.Workspace) (*gitstore.MemoryBranch, error) {
	b, err := setup.MemoryBranch(ctx, w)
	if errors.Is(err, gitstore.ErrNoBase) {
		return nil, cannotRun(err, "commit on the default branch first, or set yoimem.baseBranch to the branch the memory belongs to")
	} else if err != nil {
		return nil, cannotRun(err)
	}
	return b, nil
}

// newRunner wires a consolidation run of the workspace with engine e.
func newRunner(env Env, w *workspace.Workspace, branch *gitstore.MemoryBranch, e consolidate.Engine, p *progress) *consolidate.Runner {
	return setup.NewRunner(w, branch, e, setup.RunnerOptions{Now: env.Now, Hooks: consolidate.Hooks{Stage: p.stage}})
}

// consolidateMemoryLimit is the soft memory limit of a consolidation
// (Go's GOMEMLIMIT), a backstop over consolidateGCPercent. Measured with
// bench/consolidate.sh (10,000 records, 100 staged entries, rules engine):
// main's GOGC=200 lets the heap grow to three times the live heap (peak
// RSS 115 MiB with a 112 MiB limit, 724 ms); GOGC=100 keeps it at 86 MiB
// and is no slower (656 ms): a run allocates in bursts the collector
// keeps up with. A larger memory (live heap over the limit) has the
// collector run more often, at most half the CPU.
const consolidateMemoryLimit = 96 << 20

// consolidateGCPercent is the GOGC of a consolidation (see above).
const consolidateGCPercent = 100

// limitMemory sets a consolidation's garbage collection target and soft
// memory limit, unless the environment sets GOGC or GOMEMLIMIT, which are
// the user's choice.
func limitMemory(env Env) {
	if env.Getenv == nil || env.Getenv("GOGC") == "" {
		debug.SetGCPercent(consolidateGCPercent)
	}
	if env.Getenv != nil && env.Getenv("GOMEMLIMIT") != "" {
		return
	}
	debug.SetMemoryLimit(consolidateMemoryLimit)
}

// thresholds are the staging count and bytes at which a run is due.
func thresholds(w *workspace.Workspace) (files int, bytes int64) {
	return setup.Thresholds(w)
}

// consolidateError gives a run's error its exit code and what to do.
func consolidateError(w *workspace.Workspace, err error) error {
	var busy *consolidate.BusyError
	var lintErr *consolidate.LintError
	var refusal *consolidate.Refusal
	var model *workspace.ModelError
	var cliErr *agentcli.CLIError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &cliErr):
		return cannotRun(err, "nothing was committed and the staging entries are kept; check the command ('git yoimem config "+config.KeyConsolidateModel+"'), or consolidate with --engine rules")
	case errors.As(err, &busy):
		hint := "it ends on its own; the entries staged meanwhile wait for the next run"
		if busy.OtherHost {
			hint = "if that run is gone, remove " + busy.Path
		}
		return &exitError{code: exitLocked, err: err, hints: []string{hint}}
	case errors.Is(err, consolidate.ErrBusy), errors.Is(err, gitstore.ErrLocked):
		return &exitError{code: exitLocked, err: err, hints: []string{"another git-yoimem process is at work; try again when it is done"}}
	case errors.As(err, &lintErr):
		return &exitError{code: exitFindings, err: err, hints: []string{"fix the records it names and commit the fix (a run reads the committed memory, not the working tree; 'git yoimem lint' checks it), then run again; the staging entries are kept"}}
	case errors.As(err, &refusal):
		return &exitError{code: exitFindings, err: err, hints: []string{"nothing was committed and the staging entries are kept; compress or split the record (or raise its cap), then run again"}}
	case errors.Is(err, agent.ErrNoReport):
		return cannotRun(err, fmt.Sprintf("nothing was committed and the staging entries are kept; raise %s, or consolidate with --engine rules", agent.SettingMaxTurns))
	case errors.As(err, &model):
		return cannotRun(err, "check the model string; 'git yoimem config "+config.KeyConsolidateModel+"' shows it")
	case errors.Is(err, gitstore.ErrNoYoi):
		return noYoi(w, err)
	}
	return cannotRun(err, "nothing was committed unless it says so; the staging entries are kept for the next run")
}
