package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/consolidate/rules"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// benchBranch is the memory branch the runs write.
const benchBranch = "yoimem/bench-consolidate"

// runResult is what consolidate-run prints: the run's wall time and its
// steps, and what it changed.
type runResult struct {
	Total   time.Duration            `json:"total"`
	Steps   map[string]time.Duration `json:"steps"`
	Changed int                      `json:"changed"`
	Ops     int                      `json:"ops"`
}

// consolidateRun is one consolidation run over the staged entries, in
// this process, as `git yoimem consolidate` makes it: the repository
// opened, the lock, the input, the engine (rules, or fold: the plumbing
// alone), the lint of the whole result, the commit, its note and the
// cleanup. It prints a runResult as JSON.
func consolidateRun(repo, engine string) error {
	ctx := context.Background()
	sw := &stopwatch{start: time.Now()}
	r, err := gitstore.Locate(ctx, gitstore.Git{Dir: repo})
	if err != nil {
		return err
	}
	objs, err := gitstore.OpenObjects(r)
	if err != nil {
		return err
	}
	base, err := gitstore.ResolveBase(ctx, r, "")
	if err != nil {
		return err
	}
	var e consolidate.Engine
	switch engine {
	case "rules":
		e = rules.Engine{}
	case "fold":
		e = foldEngine{}
	default:
		return fmt.Errorf("unknown engine %q: want rules or fold", engine)
	}
	run := &consolidate.Runner{
		Branch:     &gitstore.MemoryBranch{Repo: r, Objects: objs, Branch: benchBranch, Base: base, Prefix: ".yoi"},
		StagingDir: filepath.Join(repo, ".yoi", "memory", "_staging"), Root: repo, MaxRead: 1 << 20,
		Lint: lint.DefaultOptions(), Engine: timedEngine{Engine: e, sw: sw},
		Hooks: consolidate.Hooks{Stage: sw.stage},
	}
	rep, err := run.Once(ctx)
	total := time.Since(sw.start)
	if err != nil {
		return err
	}
	if !rep.Committed() {
		return errors.New("the run committed nothing")
	}
	return json.NewEncoder(os.Stdout).Encode(runResult{Total: total, Steps: sw.steps(), Changed: rep.Plan.Changes.Len(), Ops: len(rep.Plan.Message.Ops)})
}

// stopwatch times the steps of one run from its stages and the engine.
type stopwatch struct {
	start                time.Time
	at                   map[consolidate.Stage]time.Time
	engineFrom, engineTo time.Time
}

func (w *stopwatch) stage(s consolidate.Stage) {
	if w.at == nil {
		w.at = map[consolidate.Stage]time.Time{}
	}
	w.at[s] = time.Now()
	if p := os.Getenv("GITBENCH_MEMPROFILE"); p != "" && s == consolidate.StageLinted {
		// The heap when the whole result is linted: the run's largest.
		if f, err := os.Create(p); err == nil {
			_ = pprof.Lookup("heap").WriteTo(f, 0)
			f.Close()
		}
	}
}

// stepNames are the steps steps reports, in order.
var stepNames = []string{"open+lock+input", "engine", "final lint", "commit", "note+cleanup"}

// steps are the durations of the run's steps: up to the input read (the
// repository opened, the lock), the engine, the lint of the whole result,
// the memory commit (with the lock's update before it), the note and the
// staging cleanup.
func (w *stopwatch) steps() map[string]time.Duration {
	return map[string]time.Duration{
		"open+lock+input": w.at[consolidate.StageInput].Sub(w.start),
		"engine":          w.engineTo.Sub(w.engineFrom),
		"final lint":      w.at[consolidate.StageLinted].Sub(w.engineTo),
		"commit":          w.at[consolidate.StageCommitted].Sub(w.at[consolidate.StageLinted]),
		"note+cleanup":    w.at[consolidate.StageCleaned].Sub(w.at[consolidate.StageCommitted]),
	}
}

// timedEngine times an engine's run.
type timedEngine struct {
	consolidate.Engine
	sw *stopwatch
}

func (t timedEngine) Run(ctx context.Context, s *consolidate.Session) error {
	t.sw.engineFrom = time.Now()
	defer func() { t.sw.engineTo = time.Now() }()
	return t.Engine.Run(ctx, s)
}

// foldEngine folds each decision into the record of its topic and each
// request into one of its target: the plumbing a rules run goes through,
// without the rules engine's judgement.
type foldEngine struct{}

func (foldEngine) Name() string  { return "rules" }
func (foldEngine) Model() string { return "" }

func (foldEngine) Run(ctx context.Context, s *consolidate.Session) error {
	for _, e := range s.Input().Entries {
		for _, d := range e.Activity.Decisions {
			if err := fold(ctx, s, record.PathFor(record.KindDecision, slugOf(d.Topic)), "---\nstatus: resolved\n---\n# "+d.Topic+"\n", "Chosen: "+d.Chosen, e.ID); err != nil {
				return err
			}
		}
		for _, q := range e.Activity.Requests {
			if err := fold(ctx, s, record.PathFor(record.KindRequest, slugOf(q.Target)), "---\n---\n# "+q.Target+"\n", q.Summary, e.ID); err != nil {
				return err
			}
		}
	}
	return nil
}

func fold(ctx context.Context, s *consolidate.Session, path, head, line, entry string) error {
	cur, err := s.View().ReadFile(path)
	c := consolidate.Change{Kind: memlog.OpUpdate, Path: path, Staging: []string{entry}, Reason: "from " + entry}
	switch {
	case errors.Is(err, record.ErrNotExist):
		c.Kind, c.Content = memlog.OpAdd, []byte(head+line+"\n")
	case err != nil:
		return err
	default:
		c.Content = append(append([]byte(nil), cur...), line+"\n"...)
	}
	_, err = s.Apply(ctx, c)
	return err
}

func slugOf(topic string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(topic) {
		switch {
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		case b.Len() > 0 && !strings.HasSuffix(b.String(), "-"):
			b.WriteByte('-')
		}
	}
	return strings.TrimSuffix(b.String(), "-")
}
