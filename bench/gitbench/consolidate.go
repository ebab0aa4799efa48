package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/record"
)

// consolidateBench stages ENTRIES entries (half of them decisions on records
// the corpus has, half on new topics, a request in every fourth) and
// times consolidation runs over them, each in a new process (gitbench
// consolidate-run), as `git yoimem consolidate` runs: from opening the
// repository to the staging cleanup, with nothing read before, and its
// peak RSS. Each run starts from the corpus again (the memory branch and
// notes removed).
func consolidateBench(repo string, runs, entries int, engine string) error {
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
	var times, cpus []time.Duration
	var rss int64
	steps := map[string][]time.Duration{}
	var last runResult
	for i := -1; i < runs; i++ {
		_, _ = git(repo, nil, nil, "update-ref", "-d", "refs/heads/"+benchBranch)
		_, _ = git(repo, nil, nil, "update-ref", "-d", "refs/notes/yoimem")
		if err := stage(staging, entries, slugs); err != nil {
			return err
		}
		res, usage, err := runChild(repo, engine)
		if err != nil {
			return err
		}
		if i >= 0 {
			times = append(times, res.Total)
			cpus = append(cpus, time.Duration(usage.Utime.Nano()+usage.Stime.Nano()))
			for name, d := range res.Steps {
				steps[name] = append(steps[name], d)
			}
			rss = max(rss, usage.Maxrss)
		}
		last = res
	}
	fmt.Printf("consolidation of %d staged entries: %d records changed, %d operations\n", entries, last.Changed, last.Ops)
	fmt.Printf("consolidation run (%s engine): median %s (goal < 1 s), CPU time (user+system) median %s\n", engine, ms(median(times)), ms(median(cpus)))
	var parts []string
	for _, name := range stepNames {
		parts = append(parts, name+" "+ms(median(steps[name])))
	}
	fmt.Printf("  medians of its steps: %s\n", strings.Join(parts, ", "))
	fmt.Printf("peak RSS of a run, the largest of %d: %.1f MiB (goal < 100 MiB)\n", runs, float64(rss)/1024)
	return nil
}

// runChild runs gitbench consolidate-run and returns what it printed and
// its resource usage (peak RSS in KiB, CPU time: the process's start
// included).
func runChild(repo, engine string) (runResult, syscall.Rusage, error) {
	var usage syscall.Rusage
	self, err := os.Executable()
	if err != nil {
		return runResult{}, usage, err
	}
	cmd := exec.Command(self, "consolidate-run", "-repo", repo, "-engine", engine)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if os.Getenv("GITBENCH_RUN_STDERR") == "1" { // GODEBUG=gctrace=1, say
		cmd.Stderr = io.MultiWriter(&errb, os.Stderr)
	}
	if err := cmd.Run(); err != nil {
		return runResult{}, usage, fmt.Errorf("consolidate-run: %v: %s", err, errb.String())
	}
	var res runResult
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return runResult{}, usage, fmt.Errorf("consolidate-run printed %q: %v", out.String(), err)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		usage = *ru
	}
	return res, usage, nil
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

// consolidateCLI times the command users run, `git-yoimem consolidate`
// (bin), over the same staged entries: the library's run plus what the
// command adds (its start, configuration, usage, printing, its memory
// limit).
func consolidateCLI(repo string, runs, entries int, engine, bin string) error {
	if engine != "rules" {
		return fmt.Errorf("the command runs the rules or llm engine; -engine %s is the library's", engine)
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
	var times, cpus []time.Duration
	var rss int64
	for i := -1; i < runs; i++ {
		_, _ = git(repo, nil, nil, "update-ref", "-d", "refs/heads/"+benchBranch)
		_, _ = git(repo, nil, nil, "update-ref", "-d", "refs/notes/yoimem")
		if err := stage(staging, entries, slugs); err != nil {
			return err
		}
		cmd := exec.Command(bin, "-c", "yoimem.branch="+benchBranch, "consolidate", "--engine", "rules", "--max-runs", "1")
		cmd.Dir = repo
		var errb bytes.Buffer
		cmd.Stderr = &errb
		start := time.Now()
		err := cmd.Run()
		took := time.Since(start)
		if err != nil {
			return fmt.Errorf("%s consolidate: %v: %s", bin, err, errb.String())
		}
		if i < 0 {
			continue
		}
		times = append(times, took)
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			cpus = append(cpus, time.Duration(ru.Utime.Nano()+ru.Stime.Nano()))
			rss = max(rss, ru.Maxrss)
		}
	}
	fmt.Printf("git-yoimem consolidate (rules engine, %d entries): median %s (goal < 1 s), CPU time median %s, peak RSS the largest of %d: %.1f MiB (goal < 100 MiB)\n",
		entries, ms(median(times)), ms(median(cpus)), runs, float64(rss)/1024)
	return nil
}
