package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

// extractor runs extract for one log.
type extractor struct {
	modelLabel string // the model as staging files name it
	env        Env
	w          *workspace.Workspace
	log        *sessionLog
	opts       extractOptions
	dir        string // machine-local state
}

func (x *extractor) run(ctx context.Context) (extractReport, error) {
	threshold := x.w.Config.Int(config.KeyExtractTokenThreshold)
	rep := extractReport{Session: x.log.session, Format: string(x.log.format), Log: displayPath(x.env, x.log.path), Threshold: threshold, Runs: []extractRun{}}
	// A run waits a moment for a holder that may be a check (milliseconds)
	// rather than dropping its trigger; a check never waits.
	wait := 2 * time.Second
	if x.opts.check {
		wait = 0
	}
	unlock, held, err := lockSession(x.dir, x.log.key(), x.env.Now(), wait)
	if err != nil {
		return rep, cannotRun(err)
	}
	if !held {
		rep.InFlight = true
		// The holder's last saved state is what it knows; it is replaced
		// atomically, so reading it without the lock is safe.
		if st, err := x.loadState(); err == nil {
			rep.extractState = stateOf(st, threshold)
			rep.After = rep.extractState
		}
		if !x.opts.check {
			warnf(x.env.Stderr, "extract is already running for session %s; skipped (it checks the threshold again when it ends)", quote.Path(x.log.session, false))
		}
		return rep, nil // the holder re-checks when it ends
	}
	defer unlock()
	st, err := x.loadState()
	if err != nil {
		return rep, cannotRun(err)
	}
	var provider llm.Provider
	for i := 0; ; i++ {
		if err := x.scan(&st); err != nil {
			return rep, cannotRun(err)
		}
		rep.After = stateOf(st, threshold)
		if i == 0 {
			rep.extractState = rep.After // what the command found
		}
		run := rep.After.Due || x.opts.force && i == 0 && st.Scan.Index > st.Pointer.Index
		if x.opts.check || !run || i >= x.opts.maxRuns {
			return rep, nil
		}
		if provider == nil {
			// Before the model call: without .yoi/ its answer could not be
			// staged, and every trigger would pay for it again.
			if _, err := realDir(x.w.Root, record.Dir); err != nil {
				return rep, noYoi(x.w, err)
			}
			if provider, err = x.provider(); err != nil {
				return rep, err
			}
		}
		r, err := x.extractOnce(ctx, &st, provider)
		if err != nil {
			return rep, err
		}
		rep.Runs = append(rep.Runs, r)
	}
}

func stateOf(st extract.State, threshold int64) extractState {
	return extractState{Pointer: st.Pointer.Index, Tokens: st.Scan.Tokens, Calls: st.Scan.Calls, Due: st.Due(threshold)}
}

// dryRun prints the request a run would send for the entries after the
// pointer as this machine knows it, changing nothing: the text a command:
// model reads on stdin, or with --json the request as the model helper
// gets it. Both are built by the function the run uses.
func (x *extractor) dryRun() error {
	st, err := x.loadState()
	if err != nil {
		return cannotRun(err)
	}
	if _, err := x.log.scan(&st, x.env.Now()); err != nil {
		return cannotRun(err)
	}
	entries, err := x.log.readRange(st)
	if err != nil {
		return cannotRun(err)
	}
	if len(entries) == 0 {
		statusf(x.env.Stderr, "git-yoimem: no new entries after the pointer (entry %d) of session %s: nothing to send", st.Pointer.Index, quote.Path(x.log.session, false))
		return nil
	}
	req, r, ok := extract.FirstRequest(extract.Input{Session: x.log.session, Entries: entries})
	fmt.Fprintf(x.env.Stderr, "git-yoimem: entries %d-%d of session %s: %d shown, %d left out, %d credential(s) redacted\n", st.Pointer.Index+1, st.Scan.Index, quote.Path(x.log.session, false), r.Entries, r.Dropped, r.Redacted)
	if !ok {
		statusf(x.env.Stderr, "git-yoimem: nothing to show the model: a run makes no model call and moves the pointer")
		return nil
	}
	if x.opts.json {
		return writeJSON(x.env, req)
	}
	_, err = io.WriteString(x.env.Stdout, llm.PromptText(req))
	return err
}

// scan reads what is new in the log, feeds the ledger and saves the state.
func (x *extractor) scan(st *extract.State) error {
	res, err := x.log.scan(st, x.env.Now())
	if err != nil {
		return err
	}
	if res.tokens > 0 {
		// The ledger's session is the log: two logs of one session (a
		// sub-agent's) have their own line numbers.
		tick := metrics.Tick{Time: x.env.Now().UTC(), Session: x.log.key(), From: res.from, To: res.to, Tokens: res.tokens}
		if err := x.w.Metrics().Tick(tick); err != nil {
			warnf(x.env.Stderr, "token ledger not updated: %v", err)
		}
	}
	// Only the scan moved: state rebuilt by rescanning if lost, so it
	// need not wait for the disk.
	return x.saveState(*st, false)
}

// extractOnce extracts everything between the pointer and the scan
// position, makes the staging file durable, then moves the pointer.
func (x *extractor) extractOnce(ctx context.Context, st *extract.State, provider llm.Provider) (extractRun, error) {
	entries, err := x.log.readRange(*st)
	if err != nil {
		return extractRun{}, cannotRun(err)
	}
	var res extract.Result
	if len(entries) > 0 {
		res, err = extract.Run(ctx, extract.Input{Session: x.log.session, Entries: entries, Model: provider})
		if err != nil {
			return extractRun{}, cannotRun(err, "the pointer did not move: the next run covers the same entries")
		}
	}
	run := extractRun{From: st.Pointer.Index + 1, To: st.Scan.Index, ModelCalls: res.Calls, Splits: res.Splits, Usage: res.Usage,
		Decisions: len(res.Activity.Decisions), Discussions: len(res.Activity.Discussions), Attempts: len(res.Activity.Attempts), Requests: len(res.Activity.Requests)}
	var id string
	if !res.Activity.Empty() {
		if id, err = x.writeStaging(run, res.Activity); err != nil {
			return extractRun{}, cannotRun(err, "the pointer did not move: the next run covers the same entries")
		}
		run.Staging = record.DisplayPath(record.StagingDir + "/" + id + ".json")
	}
	st.MovePointer()
	if err := x.saveState(*st, true); err != nil {
		return run, cannotRun(err)
	}
	if x.log.format == "native" {
		line := extract.NativePointerLine(x.log.session, x.env.Now(), extract.NativePointer{Through: st.Pointer.Index, Offset: st.Pointer.Offset, Staging: id})
		if ok, err := x.log.appendPointer(line); err != nil {
			warnf(x.env.Stderr, "%v; the pointer is kept on this machine only", err)
		} else if !ok {
			warnf(x.env.Stderr, "the log ends in a half-written line; the pointer is kept on this machine, and the log gets it with the next run that moves it")
		}
	}
	return run, nil
}

func (x *extractor) provider() (llm.Provider, error) {
	p, label, err := x.w.OpenModelFor(config.KeyExtractModel, x.opts.model)
	if errors.Is(err, workspace.ErrNoModel) {
		return nil, cannotRun(err, "set one: git config yoimem.extract.model anthropic:claude-haiku-4-5 (or openai:MODEL, command:ARGV, replay:FILE), or pass --model")
	} else if err != nil {
		return nil, cannotRun(err)
	}
	x.modelLabel = label
	return p, nil
}
