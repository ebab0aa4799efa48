package eval

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/consolidate/agent"
	"github.com/yoimem/git-yoimem/consolidate/setup"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

// Recorder captures a model's calls (llm.Recorder): it is the model the
// engine calls, and gives the calls as a replay file and a transcript.
type Recorder interface {
	llm.Provider
	ReplayFile() ([]byte, error)
	Transcript() string
}

// Options say how scenarios run.
type Options struct {
	// Engine is setup.EngineRules or setup.EngineLLM.
	Engine string
	// Model, for llm, is the model called (any model string the engine
	// takes); "" replays the scenario's llm.replay.json, and a scenario
	// without one is not run (NotRecorded).
	Model string
	// NewRecorder, when set, wraps the llm engine's model: the run keeps
	// its replay file and transcript.
	NewRecorder func(llm.Provider) Recorder
	// Keep leaves the temporary repository in place (Ran.Kept).
	Keep bool
	// TempDir holds the temporary repositories; "": the system's.
	TempDir string
	// Environ is the environment a run starts from (a live model's key);
	// git's variables, HOME and XDG_CONFIG_HOME are replaced.
	Environ []string
	// Clock measures a run's time; nil: time.Now.
	Clock func() time.Time
}

// Ran is one scenario run: what it left and what it cost.
type Ran struct {
	Scenario *Scenario
	Result   Result
	// Err is the run's error (a lint error of the result, a refusal, a
	// model error): nothing was committed and the result is the tree
	// before.
	Err error
	// NotRecorded: the llm engine was to replay recorded answers, and
	// the scenario has none; it was not run.
	NotRecorded bool
	Elapsed     time.Duration
	Usage       llm.Usage // the model's tokens (llm engine)
	Turns       int
	Kept        string // the repository's path, with Options.Keep
	// Replay and Transcript are the recorder's, with NewRecorder;
	// ReplayErr says why the calls cannot be a replay file (a call
	// failed in a way the file cannot hold, such as answers that ran
	// out): the transcript is still there.
	Replay     []byte
	ReplayErr  error
	Transcript string
}

// Run runs scenario sc once, in a fresh repository, through the
// consolidation path the command takes. An error is a run that could not
// be set up or was interrupted; a failed consolidation is Ran.Err.
func Run(ctx context.Context, sc *Scenario, o Options) (ran *Ran, err error) {
	ran = &Ran{Scenario: sc, Result: Result{Before: sc.Before, After: sc.Before}}
	model := o.Model
	if o.Engine == setup.EngineLLM && model == "" {
		if sc.Replay == "" {
			ran.NotRecorded = true
			return ran, nil
		}
		abs, err := filepath.Abs(sc.Replay)
		if err != nil {
			return nil, err
		}
		model = "replay:" + abs
	}
	tmp, err := os.MkdirTemp(o.TempDir, "yoimem-eval-"+sc.Name+"-")
	if err != nil {
		return nil, fmt.Errorf("scenario %s: %w", sc.Name, err)
	}
	if o.Keep {
		ran.Kept = tmp
	} else {
		defer func() {
			if rerr := os.RemoveAll(tmp); rerr != nil && err == nil {
				err = fmt.Errorf("scenario %s: removing %s: %w", sc.Name, tmp, rerr)
			}
		}()
	}
	dir, home := filepath.Join(tmp, "repo"), filepath.Join(tmp, "home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		return nil, err
	}
	env := gitEnv(o.Environ, home, sc.Now)
	if err := makeRepo(ctx, gitstore.Git{Dir: dir, Env: env}, sc); err != nil {
		return nil, err
	}
	if err := consolidateOnce(ctx, ran, dir, env, model, o); err != nil {
		return nil, err
	}
	return ran, nil
}

// consolidateOnce opens the workspace in dir and runs one consolidation.
func consolidateOnce(ctx context.Context, ran *Ran, dir string, env []string, model string, o Options) error {
	sc := ran.Scenario
	now := func() time.Time { return sc.Now }
	w, err := workspace.Open(ctx, workspace.Env{Dir: dir, Getenv: lookup(env), Environ: func() []string { return env }, Now: now}, workspace.Options{})
	if err != nil {
		return fmt.Errorf("scenario %s: %w", sc.Name, err)
	}
	branch, err := setup.MemoryBranch(ctx, w)
	if err != nil {
		return fmt.Errorf("scenario %s: %w", sc.Name, err)
	}
	var rec Recorder
	eo := setup.EngineOptions{Progress: func(ev agent.Event) {
		ran.Usage, ran.Turns = ev.Usage, max(ran.Turns, ev.Turn)
	}}
	if o.NewRecorder != nil {
		eo.Wrap = func(p llm.Provider) llm.Provider { rec = o.NewRecorder(p); return rec }
	}
	e, err := setup.OpenEngine(w, setup.Engine{Name: o.Engine, Model: model}, eo)
	if err != nil {
		return fmt.Errorf("scenario %s: %w", sc.Name, err)
	}
	r := setup.NewRunner(w, branch, e, setup.RunnerOptions{Now: now, NewRunID: func() (string, error) { return runID(sc.Now), nil }})
	clock := o.Clock
	if clock == nil {
		clock = time.Now
	}
	start := clock()
	rep, runErr := r.Once(ctx)
	ran.Elapsed = clock().Sub(start)
	if rec != nil {
		ran.Transcript = rec.Transcript()
		ran.Replay, ran.ReplayErr = rec.ReplayFile()
	}
	if ctx.Err() != nil && runErr != nil && errors.Is(runErr, ctx.Err()) {
		return runErr
	}
	ran.Err = runErr
	if rep.Committed() {
		return readResult(ctx, ran, w, branch, rep)
	}
	return nil
}

// runID is a run's ID, fixed by the scenario's clock (a UUIDv7 of that
// millisecond with no random bits): the same scenario writes the same
// metrics file name and trailers each time.
func runID(now time.Time) string {
	ms := uint64(now.UnixMilli())
	return fmt.Sprintf("%08x-%04x-7000-8000-000000000000", ms>>16, ms&0xffff)
}

// readResult reads the memory commit's tree and the operations of the
// run's commit messages, from git, not from the working tree.
func readResult(ctx context.Context, ran *Ran, w *workspace.Workspace, branch *gitstore.MemoryBranch, rep consolidate.Report) error {
	commit := rep.Result.Commit
	snap, err := gitstore.RevisionSnapshot(ctx, w.Repo, branch.Objects, commit, branch.Prefix, w.Config.Int(config.KeyLintMaxFileBytes))
	if err != nil {
		return fmt.Errorf("scenario %s: the memory commit: %w", ran.Scenario.Name, err)
	}
	after := map[string][]byte{}
	for _, e := range snap.Entries {
		if e.Mode != record.ModeRegular {
			continue
		}
		b, err := snap.ReadFile(e.Path)
		if err != nil {
			return fmt.Errorf("scenario %s: %s at %.12s: %w", ran.Scenario.Name, record.DisplayPath(e.Path), commit, err)
		}
		after[e.Path] = b
	}
	commits, bad, err := gitstore.MemoryLog(ctx, w.Repo, branch.Base+".."+commit)
	if err != nil {
		return fmt.Errorf("scenario %s: the memory log: %w", ran.Scenario.Name, err)
	}
	if len(bad) > 0 {
		return fmt.Errorf("scenario %s: a memory commit message does not parse: %s", ran.Scenario.Name, bad[0])
	}
	var ops []memlog.Op
	for i := len(commits) - 1; i >= 0; i-- {
		ops = append(ops, commits[i].Ops...)
	}
	ran.Result = Result{Before: ran.Scenario.Before, After: after, Ops: ops, Committed: true}
	return nil
}
