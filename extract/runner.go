package extract

import (
	"context"
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
	"path/filepath"
	"time"

	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
)

// ErrInFlight means another run holds the log's in-flight lock: this one
// is skipped, and the holder checks the threshold again when it ends. The
// report returned with it has the holder's last saved state.
var ErrInFlight = errors.New("extract is already running for this session")

// DefaultLockWait is how long a run waits for another run of the same log
// (a check holds it for milliseconds) before it is skipped as in flight.
const DefaultLockWait = 2 * time.Second

// Runner runs extract for one session log in a workspace (docs/extract.md):
// it scans the log after the pointer (feeding the token ledger), and when
// the input tokens since the pointer reach the threshold, asks the model,
// makes the staging file durable under .yoi/memory/_staging/, then moves
// the pointer. At most one run per log at a time (an flock in StateDir);
// on any failure the pointer stays and nothing partial is left.
type Runner struct {
	Log *SessionLog
	// StateDir is the machine-local state of foreign logs' pointers and
	// the in-flight locks: $(git rev-parse --git-common-dir)/yoimem/extract.
	StateDir string
	// Shared is the repository's core.sharedRepository, read when the
	// state directory, a state file or a lock is written (nil: the
	// umask's bits).
	Shared sharedperm.Source
	// YoiDir is the workspace's .yoi/; staging files go to its
	// memory/_staging/. It must exist for a run to call the model.
	YoiDir    string
	Threshold int64 // yoimem.extract.tokenThreshold
	// Model opens the model the first time a run needs one: the provider
	// and its label as staging files record it.
	Model func() (llm.Provider, string, error)
	// Ledger, when set, is given the input tokens each scan counted (the
	// usage metrics' token clock); a failure is a warning.
	Ledger func(metrics.Tick) error
	Now    func() time.Time
	// Warn is told what people should know of (nil drops it).
	Warn func(msg string)
	// LockWait bounds a run's wait for another run of the log (0:
	// DefaultLockWait); a check never waits.
	LockWait time.Duration
}

// RunOptions say how far Run goes.
type RunOptions struct {
	Force   bool // run even below the threshold (once, when there is anything new)
	MaxRuns int  // at most this many runs, when the threshold is met again after one
	// Until, when positive, bounds the run at a byte offset of the log:
	// only the complete lines ending at or before it are checked and
	// extracted, whatever was appended since. A hook before a compaction
	// passes the log's size at that moment, so that the run covers the
	// history as it was, whenever it runs; the next run covers the rest.
	Until int64
}

// Report is what a check or a run found and did: the state of the log
// before, the runs made, and the state after. Its JSON is `git yoimem
// extract --json`'s.
type Report struct {
	Session   string `json:"session_id"`
	Format    string `json:"format"`
	Log       string `json:"log"` // the log's path (the command prints it from the working directory)
	Threshold int64  `json:"threshold"`
	Status
	InFlight bool        `json:"in_flight,omitempty"` // another run holds the session
	Runs     []RunReport `json:"runs"`
	After    Status      `json:"after"`
	// StagingDir is where the runs wrote their staging files: what a
	// consolidation trigger counts (StagingUsage).
	StagingDir string `json:"-"`
}

// Status is where a log stands: its pointer and what came after.
type Status struct {
	Pointer int   `json:"pointer"` // last entry extracted
	Tokens  int64 `json:"tokens_since_pointer"`
	Calls   int   `json:"calls_since_pointer"`
	Due     bool  `json:"due"`
}

// RunReport is one run: the entries it covered and what it staged.
type RunReport struct {
	From        int       `json:"from"`
	To          int       `json:"to"`
	Staging     string    `json:"staging,omitempty"` // from the workspace root (.yoi/…); empty: nothing to save
	Decisions   int       `json:"decisions"`
	Discussions int       `json:"discussions"`
	Attempts    int       `json:"attempts"`
	Requests    int       `json:"requests"`
	ModelCalls  int       `json:"model_calls"`
	Splits      int       `json:"splits,omitempty"`
	Usage       llm.Usage `json:"usage"`
}

// PointerKeptError is a run that failed before the pointer moved: the
// next run covers the same entries.
type PointerKeptError struct{ Err error }

func (e *PointerKeptError) Error() string { return e.Err.Error() }
func (e *PointerKeptError) Unwrap() error { return e.Err }

// StagingDir is .yoi/memory/_staging/.
func (r *Runner) StagingDir() string {
	return filepath.Join(r.YoiDir, filepath.FromSlash(record.StagingDir))
}

func (r *Runner) warn(format string, args ...any) {
	if r.Warn != nil {
		r.Warn(fmt.Sprintf(format, args...))
	}
}

func (r *Runner) report() Report {
	return Report{Session: r.Log.Session, Format: string(r.Log.Format), Log: r.Log.Path, Threshold: r.Threshold,
		Runs: []RunReport{}, StagingDir: r.StagingDir()}
}

// Check scans what is new in the log (feeding the ledger) and reports
// whether a run is due; it calls no model and never waits for a run in
// flight (then ErrInFlight, with the holder's last state).
func (r *Runner) Check(ctx context.Context) (Report, error) {
	return r.run(ctx, RunOptions{}, true)
}

// Run checks the log and, while a run is due (or once with Force), runs
// extract, at most MaxRuns times. A run in flight is ErrInFlight (after
// LockWait). No .yoi/ is an error wrapping record.ErrNoYoi, found before
// the model is opened; a failed model call or staging write is a
// *PointerKeptError. The report says what was done before any error.
func (r *Runner) Run(ctx context.Context, o RunOptions) (Report, error) {
	return r.run(ctx, o, false)
}

func (r *Runner) run(ctx context.Context, o RunOptions, check bool) (Report, error) {
	rep := r.report()
	wait := r.LockWait
	if wait <= 0 {
		wait = DefaultLockWait
	}
	if check {
		wait = 0
	}
	unlock, held, err := r.lock(ctx, wait)
	if err != nil {
		return rep, err
	}
	if !held {
		rep.InFlight = true
		// The holder's last saved state is what it knows; it is replaced
		// atomically, so reading it without the lock is safe.
		if st, err := r.loadState(); err == nil {
			rep.Status = stateOf(st, r.Threshold)
			rep.After = rep.Status
		}
		return rep, fmt.Errorf("session %s: %w", quote.Path(r.Log.Session, false), ErrInFlight)
	}
	defer unlock()
	st, err := r.loadState()
	if err != nil {
		return rep, err
	}
	var provider llm.Provider
	var label string
	for i := 0; ; i++ {
		work, err := r.scanFor(&st, o.Until)
		if err != nil {
			return rep, err
		}
		rep.After = stateOf(*work, r.Threshold)
		if i == 0 {
			rep.Status = rep.After // what the run found
		}
		due := rep.After.Due || o.Force && i == 0 && work.Scan.Index > work.Pointer.Index
		if check || !due || i >= o.MaxRuns {
			return rep, nil
		}
		if provider == nil {
			// Before the model call: without .yoi/ its answer could not be
			// staged, and every trigger would pay for it again.
			if err := r.checkYoi(); err != nil {
				return rep, err
			}
			if provider, label, err = r.Model(); err != nil {
				return rep, err
			}
		}
		run, err := r.extractOnce(ctx, work, &st, provider, label)
		if err != nil {
			return rep, err
		}
		rep.Runs = append(rep.Runs, run)
	}
}

func stateOf(st State, threshold int64) Status {
	return Status{Pointer: st.Pointer.Index, Tokens: st.Scan.Tokens, Calls: st.Scan.Calls, Due: st.Due(threshold)}
}

// scanFor scans the log for a run bounded at until (0: no bound) and
// returns the state the run works on: st itself, or, when an earlier scan
// read past the bound, its part from the pointer to the bound, rescanned
// without the ledger (which counted those lines then).
func (r *Runner) scanFor(st *State, until int64) (*State, error) {
	if until <= 0 || st.Scan.Offset <= until {
		return st, r.scan(st, until)
	}
	part := State{Version: st.Version, Format: st.Format, Session: st.Session, Log: st.Log, Pointer: st.Pointer, Scan: Scan{Position: st.Pointer}}
	if st.Pointer.Offset >= until {
		return &part, nil
	}
	guard, err := r.Log.guardOf(st.Pointer.Offset)
	if err != nil {
		return nil, err
	}
	part.Scan.Guard = guard
	if _, err := r.Log.scan(&part, r.Now(), until); err != nil {
		return nil, err
	}
	return &part, nil
}

// scan reads what is new in the log up to until (0: to the end), feeds
// the ledger and saves the state.
func (r *Runner) scan(st *State, until int64) error {
	res, err := r.Log.scan(st, r.Now(), until)
	if err != nil {
		return err
	}
	if res.tokens > 0 && r.Ledger != nil {
		// The ledger's session is the log: two logs of one session (a
		// sub-agent's) have their own line numbers.
		tick := metrics.Tick{Time: r.Now().UTC(), Session: r.Log.Key(), From: res.from, To: res.to, Tokens: res.tokens}
		if err := r.Ledger(tick); err != nil {
			r.warn("token ledger not updated: %v", err)
		}
	}
	// Only the scan moved: state rebuilt by rescanning if lost, so it
	// need not wait for the disk.
	return r.saveState(*st, false)
}

// extractOnce extracts everything between work's pointer and its scan
// position, makes the staging file durable, then moves the pointer and
// saves st: work itself, or the whole state work is the bounded part of
// (scanFor), which keeps its scan and the tokens after the part.
func (r *Runner) extractOnce(ctx context.Context, work, st *State, provider llm.Provider, label string) (RunReport, error) {
	entries, err := r.Log.readRange(*work)
	if err != nil {
		return RunReport{}, err
	}
	var res Result
	if len(entries) > 0 {
		res, err = Run(ctx, Input{Session: r.Log.Session, Entries: entries, Model: provider})
		if err != nil {
			return RunReport{}, &PointerKeptError{Err: err}
		}
	}
	run := RunReport{From: work.Pointer.Index + 1, To: work.Scan.Index, ModelCalls: res.Calls, Splits: res.Splits, Usage: res.Usage,
		Decisions: len(res.Activity.Decisions), Discussions: len(res.Activity.Discussions), Attempts: len(res.Activity.Attempts), Requests: len(res.Activity.Requests)}
	var id string
	if !res.Activity.Empty() {
		if id, err = r.writeStaging(run, label, res.Activity); err != nil {
			return RunReport{}, &PointerKeptError{Err: err}
		}
		run.Staging = record.DisplayPath(record.StagingDir + "/" + id + ".json")
	}
	if work != st {
		st.Pointer = work.Scan.Position
		st.Scan.Tokens = max(0, st.Scan.Tokens-work.Scan.Tokens)
		st.Scan.Calls = max(0, st.Scan.Calls-work.Scan.Calls)
	} else {
		st.MovePointer()
	}
	if err := r.saveState(*st, true); err != nil {
		return run, err
	}
	if r.Log.Format == "native" {
		line := NativePointerLine(r.Log.Session, r.Now(), NativePointer{Through: st.Pointer.Index, Offset: st.Pointer.Offset, Staging: id})
		if ok, err := r.Log.appendPointer(line); err != nil {
			r.warn("%v; the pointer is kept on this machine only", err)
		} else if !ok {
			r.warn("the log ends in a half-written line; the pointer is kept on this machine, and the log gets it with the next run that moves it")
		}
	}
	return run, nil
}

// Preview is the request a run would send for the entries after the
// pointer as this machine knows it (the dry run).
type Preview struct {
	Session  string
	Pointer  int // the last entry extracted
	Through  int // the last complete entry of the log
	Rendered Rendered
	// Request is what the model would get; nil when there are no new
	// entries, or nothing in them to show (a run then calls no model and
	// moves the pointer).
	Request *llm.Request
}

// Empty tells that there are no new entries after the pointer.
func (p Preview) Empty() bool { return p.Through <= p.Pointer }

// Preview builds the request a run would send, with the function a run
// uses, changing nothing: no lock, no state saved, no ledger.
func (r *Runner) Preview() (Preview, error) {
	st, err := r.loadState()
	if err != nil {
		return Preview{}, err
	}
	if _, err := r.Log.scan(&st, r.Now(), 0); err != nil {
		return Preview{}, err
	}
	p := Preview{Session: r.Log.Session, Pointer: st.Pointer.Index, Through: st.Scan.Index}
	entries, err := r.Log.readRange(st)
	if err != nil || len(entries) == 0 {
		p.Through = p.Pointer
		return p, err
	}
	req, rendered, ok := FirstRequest(Input{Session: r.Log.Session, Entries: entries})
	p.Rendered = rendered
	if ok {
		p.Request = &req
	}
	return p, nil
}
