package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/record"
)

// consolidateOnce stages ENTRIES entries (half of them decisions on
// records the corpus has, half on new topics, a request in every fourth)
// and times one consolidation run over them: lock, input (the base
// snapshot of the memory branch's parent), the engine, the lint of the
// whole resulting memory, the commit, its note and the cleanup. Each run
// starts from the corpus again (the memory branch and notes removed).
func consolidateOnce(repo string, runs, entries int) error {
	ctx := context.Background()
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
	decisions, err := records(repo, 1<<30)
	if err != nil && !strings.Contains(err.Error(), "fewer than") {
		return err
	}
	var slugs []string
	for _, p := range decisions {
		if strings.HasPrefix(p, record.DecisionsDir+"/") {
			slugs = append(slugs, strings.TrimSuffix(strings.TrimPrefix(p, record.DecisionsDir+"/"), ".md"))
		}
	}
	staging := filepath.Join(repo, ".yoi", "memory", "_staging")
	var times []time.Duration
	steps := map[string][]time.Duration{}
	for i := -1; i < runs; i++ {
		_, _ = git(repo, nil, nil, "update-ref", "-d", "refs/heads/yoimem/bench-consolidate")
		_, _ = git(repo, nil, nil, "update-ref", "-d", "refs/notes/yoimem")
		if err := stage(staging, entries, slugs); err != nil {
			return err
		}
		sw := &stopwatch{start: time.Now()}
		run := &consolidate.Runner{
			Branch:     &gitstore.MemoryBranch{Repo: r, Objects: objs, Branch: "yoimem/bench-consolidate", Base: base, Prefix: ".yoi"},
			StagingDir: staging, Root: repo, MaxRead: 1 << 20, Lint: lint.DefaultOptions(), Engine: foldEngine{sw: sw},
			Hooks: consolidate.Hooks{Stage: sw.stage},
		}
		rep, err := run.Once(ctx)
		d := time.Since(sw.start)
		if err != nil {
			return err
		}
		if !rep.Committed() {
			return errors.New("the run committed nothing")
		}
		if i >= 0 {
			times = append(times, d)
			for name, d := range sw.steps() {
				steps[name] = append(steps[name], d)
			}
		}
		if i == runs-1 {
			fmt.Printf("consolidation of %d staged entries: %d records changed, %d operations\n", entries, rep.Plan.Changes.Len(), len(rep.Plan.Message.Ops))
		}
	}
	var self syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	fmt.Printf("consolidation run (fold engine): median %s (goal < 1 s)\n", ms(median(times)))
	var parts []string
	for _, name := range stepNames {
		parts = append(parts, name+" "+ms(median(steps[name])))
	}
	fmt.Printf("  medians of its steps: %s\n", strings.Join(parts, ", "))
	fmt.Printf("peak RSS of gitbench over %d runs: %.1f MiB (goal < 100 MiB)\n", runs+1, float64(self.Maxrss)/1024)
	return nil
}

// stage writes the benchmark's staging entries.
func stage(dir string, n int, slugs []string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for i := 0; i < n; i++ {
		topic := fmt.Sprintf("bench topic %d", i)
		if i%2 == 0 && len(slugs) > 0 {
			topic = strings.ReplaceAll(slugs[(i*7919)%len(slugs)], "-", " ")
		}
		act := extract.Activity{Decisions: []extract.Decision{{Topic: topic, Options: []string{"a", "b"}, Chosen: fmt.Sprintf("option %d", i), Rationale: "measured"}}}
		if i%4 == 0 {
			act.Requests = []extract.Request{{Intent: "want", Target: fmt.Sprintf("bench target %d", i), Summary: "a request"}}
		}
		id := fmt.Sprintf("0194d2a0-0000-7000-8000-%012d", i)
		s := extract.Staging{Version: extract.StagingVersion, ID: id, CreatedAt: at, Source: extract.Source{SessionID: fmt.Sprintf("bench-%d", i%10), Range: [2]int{i + 1, i + 5}}, Agent: "native", Activity: act}
		b, err := s.Marshal()
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, id+".json"), b, 0o644); err != nil {
			return err
		}
	}
	return nil
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
}

// stepNames are the steps steps reports, in order.
var stepNames = []string{"lock+input", "engine", "final lint", "commit", "note+cleanup"}

// steps are the durations of the run's steps: up to the input read, the
// engine, the lint of the whole result, the memory commit (with the
// lock's update before it), the note and the staging cleanup.
func (w *stopwatch) steps() map[string]time.Duration {
	return map[string]time.Duration{
		"lock+input":   w.at[consolidate.StageInput].Sub(w.start),
		"engine":       w.engineTo.Sub(w.engineFrom),
		"final lint":   w.at[consolidate.StageLinted].Sub(w.engineTo),
		"commit":       w.at[consolidate.StageCommitted].Sub(w.at[consolidate.StageLinted]),
		"note+cleanup": w.at[consolidate.StageCleaned].Sub(w.at[consolidate.StageCommitted]),
	}
}

// foldEngine folds each decision into the record of its topic and each
// request into one of its target: the plumbing a rules run goes through,
// without the rules engine's judgement (measured in consolidate/rules).
type foldEngine struct{ sw *stopwatch }

func (foldEngine) Name() string  { return "rules" }
func (foldEngine) Model() string { return "" }

func (f foldEngine) Run(ctx context.Context, s *consolidate.Session) error {
	f.sw.engineFrom = time.Now()
	defer func() { f.sw.engineTo = time.Now() }()
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
