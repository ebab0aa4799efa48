package eval

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/yoimem/git-yoimem/internal/atomicfile"
)

// RunAll runs every scenario, at most parallel at a time (at least one),
// and returns the runs in the scenarios' order. started is told, one
// call at a time, when each begins (i counts from 1). The first error
// (a scenario that could not be set up, an interrupt) stops the scenarios
// not yet begun and is returned.
func RunAll(ctx context.Context, scs []*Scenario, o Options, parallel int, started func(i, n int, name string)) ([]*Ran, error) {
	if parallel < 1 {
		parallel = 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	runs := make([]*Ran, len(scs))
	var (
		mu       sync.Mutex
		firstErr error
		wg       sync.WaitGroup
	)
	sem := make(chan struct{}, parallel)
	for i, sc := range scs {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
		mu.Lock()
		if started != nil {
			started(i+1, len(scs), sc.Name)
		}
		mu.Unlock()
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			ran, err := Run(ctx, sc, o)
			mu.Lock()
			defer mu.Unlock()
			if err != nil && firstErr == nil {
				firstErr = err
				cancel()
			}
			runs[i] = ran
		}()
	}
	wg.Wait()
	if firstErr == nil && ctx.Err() != nil {
		firstErr = ctx.Err()
	}
	return runs, firstErr
}

// WriteReplay writes a recorded run's calls as the scenario's
// llm.replay.json, atomically.
func WriteReplay(ran *Ran) error {
	if ran.ReplayErr != nil {
		return fmt.Errorf("scenario %s: the recorded calls: %w", ran.Scenario.Name, ran.ReplayErr)
	}
	if ran.Replay == nil {
		return fmt.Errorf("scenario %s: no calls were recorded", ran.Scenario.Name)
	}
	p := filepath.Join(ran.Scenario.Dir, ReplayFile)
	if err := atomicfile.Write(p, ran.Replay, 0o644); err != nil {
		return fmt.Errorf("scenario %s: %w", ran.Scenario.Name, err)
	}
	return nil
}

// WriteTranscript writes a run's transcript as dir/<scenario>.txt.
func WriteTranscript(dir string, ran *Ran) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	p := filepath.Join(dir, ran.Scenario.Name+".txt")
	if err := atomicfile.Write(p, []byte(ran.Transcript), 0o644); err != nil {
		return fmt.Errorf("scenario %s: %w", ran.Scenario.Name, err)
	}
	return nil
}

// WriteScoreFile writes f to path, atomically.
func WriteScoreFile(path string, f *ScoreFile) error {
	b, err := f.Marshal()
	if err != nil {
		return err
	}
	return atomicfile.Write(path, b, 0o644)
}
