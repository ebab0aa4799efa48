package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/consolidate/setup"
	"github.com/yoimem/git-yoimem/eval"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/llm"
)

type evalOptions struct {
	engine        string
	model         string
	scenarios     []string
	root          string
	format        string
	baseline      string
	writeBaseline string
	record        bool
	transcripts   string
	keep          bool
}

// evalParallel bounds the scenarios run at once.
const evalParallel = 2

func newEvalCommand(env Env, _ *globalOptions) *cli.Command {
	var opts evalOptions
	var names cli.StringSlice
	return &cli.Command{
		Name:      "eval",
		Usage:     "score consolidation: run the scenarios, check their expectations, print a score per category",
		UsageText: "git yoimem eval [--engine rules|llm] [--model MODEL] [--scenario NAME]... [--scenarios DIR] [--format text|json] [--baseline FILE] [--write-baseline FILE] [--record] [--transcripts DIR] [--keep]",
		Description: `Runs each scenario (docs/evaluation.md) once in a temporary repository
through the real consolidation path, checks its expectations and prints a
table: each scenario's passed/total, failed expectations, tokens and time,
then the totals per category (duplicates avoided, information kept,
lifecycle, tidy-up, safety) and overall. Scenarios the rules engine cannot
satisfy by design (their rules: field) are scored apart. The current
repository is never touched; --scenarios defaults to testdata/scenarios
under its top level (the git-yoimem source tree).

The llm engine with --model calls that model (a key is needed); without
it, each scenario's recorded answers (llm.replay.json) are replayed, and a
scenario without them is reported as not recorded. --record (with
--model) writes each scenario's calls as its llm.replay.json;
--transcripts DIR writes DIR/<scenario>.txt with every request the model
saw and every reply. --baseline FILE compares the score with a score file
(testdata/scenarios/score.rules.json, score.llm.json) and exits 1 on a
regression; --write-baseline FILE writes one. --keep keeps each temporary
repository and prints its path. Progress goes to standard error. Exit 0
when every scenario ran, whatever the score.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "engine", Usage: "the `ENGINE`: rules or llm", Value: setup.EngineRules, Destination: &opts.engine},
			&cli.StringFlag{Name: "model", Usage: "the llm engine's `MODEL` (anthropic:..., openai:...); default: each scenario's recorded answers", Destination: &opts.model},
			&cli.StringSliceFlag{Name: "scenario", Usage: "run only scenario `NAME` (repeatable)", Destination: &names},
			&cli.StringFlag{Name: "scenarios", Usage: "the scenarios' `DIR` (default: testdata/scenarios at the repository's top level)", Destination: &opts.root},
			formatFlag(&opts.format),
			&cli.StringFlag{Name: "baseline", Usage: "compare with score file `FILE`; a regression exits 1", Destination: &opts.baseline},
			&cli.StringFlag{Name: "write-baseline", Usage: "write the score as score file `FILE`", Destination: &opts.writeBaseline},
			&cli.BoolFlag{Name: "record", Usage: "with --model: write each scenario's model calls as its llm.replay.json", Destination: &opts.record},
			&cli.StringFlag{Name: "transcripts", Usage: "write each llm run's requests and replies to `DIR`/<scenario>.txt", Destination: &opts.transcripts},
			&cli.BoolFlag{Name: "keep", Usage: "keep each temporary repository and print its path", Destination: &opts.keep},
		},
		Action: func(c *cli.Context) error {
			opts.scenarios = names.Value()
			if err := checkEvalOptions(c, opts); err != nil {
				return err
			}
			return runEval(c.Context, env, opts)
		},
	}
}

func checkEvalOptions(c *cli.Context, opts evalOptions) error {
	if err := checkFormat(opts.format); err != nil {
		return err
	}
	switch {
	case c.NArg() > 0:
		return usageError("eval takes no arguments; name scenarios with --scenario NAME")
	case opts.engine != setup.EngineRules && opts.engine != setup.EngineLLM:
		return usageError("--engine %s: want rules or llm", quote.Value(opts.engine))
	case opts.engine == setup.EngineRules && opts.model != "":
		return usageErrorHint("leave --model out, or use --engine llm", "--model %s is for the llm engine; the rules engine uses no model", quote.Value(opts.model))
	case opts.record && opts.model == "":
		return usageErrorHint("record with a real model: --engine llm --model anthropic:MODEL --record", "--record needs --model: it records a model's answers")
	case opts.record && opts.engine != setup.EngineLLM, opts.transcripts != "" && opts.engine != setup.EngineLLM:
		return usageError("--record and --transcripts are for --engine llm")
	case opts.model != "" && strings.HasPrefix(opts.model, "command:"):
		return usageErrorHint("use an anthropic:, openai: or replay: model", "--model %s: a command: model cannot run the consolidation agent, which calls tools", quote.Value(opts.model))
	}
	for _, f := range []struct{ flag, v string }{{"--baseline", opts.baseline}, {"--write-baseline", opts.writeBaseline}, {"--transcripts", opts.transcripts}, {"--scenarios", opts.root}} {
		if c.IsSet(strings.TrimPrefix(f.flag, "--")) && strings.TrimSpace(f.v) == "" {
			return usageError("%s needs a value", f.flag)
		}
	}
	return nil
}

func runEval(ctx context.Context, env Env, opts evalOptions) error {
	scs, root, err := loadScenarios(ctx, env, opts)
	if err != nil {
		return err
	}
	var baseline *eval.ScoreFile
	if opts.baseline != "" {
		if baseline, err = eval.ReadScoreFile(absPath(env, opts.baseline)); err != nil {
			return cannotRun(err, "give a score file written by --write-baseline or go test ./eval -update")
		}
	}
	o := eval.Options{Engine: opts.engine, Model: opts.model, Keep: opts.keep, Environ: environ(env)}
	if opts.engine == setup.EngineLLM {
		o.NewRecorder = func(p llm.Provider) eval.Recorder { return llm.NewRecorder(p) }
	}
	fmt.Fprintf(env.Stderr, "eval: %d scenario(s) from %s, %s engine\n", len(scs), root, opts.engine)
	runs, err := eval.RunAll(ctx, scs, o, evalParallel, func(i, n int, name string) {
		fmt.Fprintf(env.Stderr, "eval: scenario %d of %d: %s\n", i, n, terminalSafe(name))
	})
	if err != nil {
		return evalRunError(err)
	}
	if err := writeRecorded(env, opts, runs); err != nil {
		return err
	}
	rep := eval.Score(opts.engine, opts.model, runs)
	if opts.writeBaseline != "" {
		if err := writeScoreFile(env, opts.writeBaseline, rep); err != nil {
			return err
		}
	}
	var diff *eval.Diff
	if baseline != nil {
		d := eval.Compare(baseline.Only(scenarioNames(scs)), rep.File())
		diff = &d
	}
	if err := printEval(env, opts.format, rep, diff); err != nil {
		return err
	}
	if diff != nil && len(diff.Regressions) > 0 {
		return &exitError{code: exitFindings, err: fmt.Errorf("%d regression(s) against %s", len(diff.Regressions), opts.baseline),
			hints: []string{"fix what regressed; or, if the change is right, refresh the score file (go test ./eval -update) and say why in the commit"}}
	}
	return nil
}

// loadScenarios loads the scenarios asked for.
func loadScenarios(ctx context.Context, env Env, opts evalOptions) ([]*eval.Scenario, string, error) {
	root := opts.root
	if root == "" {
		repo, err := gitstore.Locate(ctx, gitstore.Git{Dir: env.Dir, Env: environ(env)})
		if err != nil {
			return nil, "", cannotRun(fmt.Errorf("no --scenarios, and %s is not in a git repository: %w", env.Dir, err),
				"run it in the git-yoimem source tree, or pass --scenarios DIR")
		}
		root = filepath.Join(repo.TopLevel, "testdata", "scenarios")
	} else {
		root = absPath(env, root)
	}
	if fi, err := os.Stat(root); err != nil || !fi.IsDir() {
		return nil, "", cannotRun(fmt.Errorf("no scenarios: %s is not a directory", root),
			"run it in the git-yoimem source tree, or pass --scenarios DIR (docs/evaluation.md describes a scenario)")
	}
	if len(opts.scenarios) == 0 {
		scs, err := eval.LoadAll(root)
		if err != nil {
			return nil, "", cannotRun(err, "fix the scenario it names (docs/evaluation.md describes the format)")
		}
		if len(scs) == 0 {
			return nil, "", cannotRun(fmt.Errorf("no scenarios in %s", root), "add one (docs/evaluation.md), or pass --scenarios DIR")
		}
		return scs, root, nil
	}
	scs, err := eval.LoadNamed(root, opts.scenarios)
	if errors.Is(err, eval.ErrNoSuchScenario) {
		return nil, "", usageErrorHint("the scenarios are the directories of "+root, "--scenario %s", err)
	} else if err != nil {
		return nil, "", cannotRun(err, "fix the scenario it names (docs/evaluation.md describes the format)")
	}
	return scs, root, nil
}

func scenarioNames(scs []*eval.Scenario) []string {
	out := make([]string, len(scs))
	for i, sc := range scs {
		out[i] = sc.Name
	}
	return out
}

func absPath(env Env, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(env.Dir, p)
}

func environ(env Env) []string {
	if env.Environ != nil {
		return env.Environ()
	}
	return os.Environ()
}

// evalRunError: an interrupt stays one (exit 130); anything else could
// not run.
func evalRunError(err error) error {
	if errors.Is(err, context.Canceled) {
		return err
	}
	return cannotRun(err, "nothing was written; --keep keeps the scenario's repository to look at")
}

// writeRecorded writes the recorded answers and transcripts asked for.
func writeRecorded(env Env, opts evalOptions, runs []*eval.Ran) error {
	for _, ran := range runs {
		if ran.NotRecorded {
			continue
		}
		// The transcript first: it shows what went wrong when the
		// calls cannot be a replay file.
		if opts.transcripts != "" {
			if err := eval.WriteTranscript(absPath(env, opts.transcripts), ran); err != nil {
				return cannotRun(err)
			}
		}
		if opts.record {
			if err := eval.WriteReplay(ran); err != nil {
				return cannotRun(err, "nothing was written for this scenario; --transcripts DIR shows the calls")
			}
			fmt.Fprintf(env.Stderr, "eval: wrote %s\n", filepath.Join(ran.Scenario.Dir, eval.ReplayFile))
		}
	}
	return nil
}

func writeScoreFile(env Env, p string, rep *eval.Report) error {
	if err := eval.WriteScoreFile(absPath(env, p), rep.File()); err != nil {
		return cannotRun(fmt.Errorf("--write-baseline: %w", err))
	}
	return nil
}
