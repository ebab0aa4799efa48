package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/internal/atomicfile"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/metrics"
	"github.com/yoimem/git-yoimem/record"
)

type extractOptions struct {
	log     string
	format  string
	model   string
	check   bool
	force   bool
	dryRun  bool
	json    bool
	maxRuns int
}

func newExtractCommand(env Env, g *globalOptions) *cli.Command {
	var opts extractOptions
	return &cli.Command{
		Name:  "extract",
		Usage: "turn the new part of an agent session log into a staging file for consolidation",
		Description: `Reads the session log after its pointer, asks the model
(yoimem.extract.model) what was decided, discussed, tried and requested,
and writes the answer to .yoi/memory/_staging/<id>.json with its source
(session and entry range). Then the pointer moves: a native log gets an
extension entry appended; Claude Code and Codex logs keep it in
$(git rev-parse --git-common-dir)/yoimem/extract/. It runs only when the
input tokens of the session's API calls since the pointer reach
yoimem.extract.tokenThreshold (or with --force), one run per log at a
time (a second one is skipped), and again at once if the threshold is
still met when a run ends. On any failure the pointer stays and nothing
partial is left: the next run covers the same range.

--check reports the tokens since the pointer and whether a run is due,
without calling a model. Both feed the token ledger of the usage metrics.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "log", Usage: "the session log (JSONL)", Destination: &opts.log, Required: true},
			&cli.StringFlag{Name: "format", Usage: "log format: native, claude-code or codex (default: detected)", Destination: &opts.format},
			&cli.StringFlag{Name: "model", Usage: "model string, overriding yoimem.extract.model", Destination: &opts.model},
			&cli.BoolFlag{Name: "check", Usage: "only report whether a run is due; no model call", Destination: &opts.check},
			&cli.BoolFlag{Name: "force", Usage: "run even below the threshold", Destination: &opts.force},
			&cli.BoolFlag{Name: "dry-run", Usage: "print what would be sent to the model for the entries after the pointer; no model call, nothing written", Destination: &opts.dryRun},
			&cli.BoolFlag{Name: "json", Usage: "print the report as JSON", Destination: &opts.json},
			&cli.IntFlag{Name: "max-runs", Usage: "runs at most, when the threshold is met again after one", Value: 4, Destination: &opts.maxRuns},
		},
		Action: func(c *cli.Context) error {
			if c.NArg() > 0 {
				return usageError("extract takes no arguments; give the log with --log PATH")
			}
			if opts.check && (opts.force || opts.dryRun) || opts.force && opts.dryRun {
				return usageError("--check, --force and --dry-run exclude each other")
			}
			return runExtract(c.Context, env, g, opts)
		},
	}
}

// extractReport is what extract prints.
type extractReport struct {
	Session   string       `json:"session_id"`
	Format    string       `json:"format"`
	Log       string       `json:"log"`
	Pointer   int          `json:"pointer"` // last entry extracted
	Tokens    int64        `json:"tokens_since_pointer"`
	Calls     int          `json:"calls_since_pointer"`
	Threshold int64        `json:"threshold"`
	Due       bool         `json:"due"`
	InFlight  bool         `json:"in_flight,omitempty"` // another run holds the session
	Runs      []extractRun `json:"runs"`
}

type extractRun struct {
	From        int       `json:"from"`
	To          int       `json:"to"`
	Staging     string    `json:"staging,omitempty"` // .yoi/-relative; empty: nothing to save
	Decisions   int       `json:"decisions"`
	Discussions int       `json:"discussions"`
	Attempts    int       `json:"attempts"`
	Requests    int       `json:"requests"`
	ModelCalls  int       `json:"model_calls"`
	Splits      int       `json:"splits,omitempty"`
	Usage       llm.Usage `json:"usage"`
}

func runExtract(ctx context.Context, env Env, g *globalOptions, opts extractOptions) error {
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	path := opts.log
	if !filepath.IsAbs(path) {
		path = filepath.Join(env.Dir, path)
	}
	log, err := openSessionLog(path, opts.format)
	if err != nil {
		return cannotRun(err)
	}
	if log.format == "" { // an empty log: a session that has not written yet
		rep := extractReport{Session: log.session, Log: displayPath(env, path), Threshold: w.cfg.Int(config.KeyExtractTokenThreshold), Runs: []extractRun{}}
		if opts.json {
			return writeJSON(env, rep)
		}
		_, err := fmt.Fprintf(env.Stdout, "session %s: the log is empty; nothing to extract yet\n", log.session)
		return err
	}
	ex := extractor{env: env, w: w, log: log, opts: opts, dir: filepath.Join(w.repo.CommonDir, "yoimem", "extract")}
	if opts.dryRun {
		return ex.dryRun()
	}
	rep, err := ex.run(ctx)
	if err != nil {
		return err
	}
	return ex.print(rep)
}

// extractor runs extract for one log.
type extractor struct {
	modelLabel string // the model as staging files name it
	env        Env
	w          *workspace
	log        *sessionLog
	opts       extractOptions
	dir        string // machine-local state
}

func (x *extractor) statePath() string { return filepath.Join(x.dir, x.log.key()+".json") }

func (x *extractor) run(ctx context.Context) (extractReport, error) {
	threshold := x.w.cfg.Int(config.KeyExtractTokenThreshold)
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
			rep.Pointer, rep.Tokens, rep.Calls, rep.Due = st.Pointer.Index, st.Scan.Tokens, st.Scan.Calls, st.Due(threshold)
		}
		if !x.opts.check {
			warnf(x.env.Stderr, "extract is already running for session %s; skipped (it checks the threshold again when it ends)", x.log.session)
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
		rep.Pointer, rep.Tokens, rep.Calls = st.Pointer.Index, st.Scan.Tokens, st.Scan.Calls
		rep.Due = st.Due(threshold)
		run := rep.Due || x.opts.force && i == 0 && st.Scan.Index > st.Pointer.Index
		if x.opts.check || !run || i >= x.opts.maxRuns {
			return rep, nil
		}
		if provider == nil {
			// Before the model call: without .yoi/ its answer could not be
			// staged, and every trigger would pay for it again.
			if _, err := os.Stat(x.w.yoiDir()); err != nil {
				return rep, cannotRun(fmt.Errorf("no .yoi/ in %s", displayPath(x.env, x.w.root)), "run 'git yoimem init' first")
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

// dryRun prints the transcript a run would send for the entries after the
// pointer as this machine knows it, changing nothing.
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
	r := extract.Render(entries, extract.RenderOptions{})
	fmt.Fprintf(x.env.Stderr, "git-yoimem: entries %d-%d of session %s: %d shown, %d left out, %d credential(s) redacted\n", st.Pointer.Index+1, st.Scan.Index, x.log.session, r.Entries, r.Dropped, r.Redacted)
	_, err = fmt.Fprint(x.env.Stdout, r.Text)
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
		if err := localMetrics(x.w).Tick(tick); err != nil {
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
		run.Staging = record.StagingDir + "/" + id + ".json"
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

// writeStaging writes the staging file atomically and durably.
func (x *extractor) writeStaging(run extractRun, a extract.Activity) (string, error) {
	u, err := uuid.NewV7()
	if err != nil {
		return "", fmt.Errorf("staging id: %w", err)
	}
	s := extract.Staging{
		Version: extract.StagingVersion, ID: u.String(), CreatedAt: x.env.Now().UTC().Truncate(time.Second),
		Source: extract.Source{SessionID: x.log.session, Range: [2]int{run.From, run.To}},
		Agent:  string(x.log.format), Model: x.modelLabel, Activity: a,
	}
	b, err := s.Marshal()
	if err != nil {
		return "", err
	}
	dir, err := realDir(x.w.root, record.Dir+"/"+record.StagingDir)
	if err != nil {
		return "", err
	}
	removeStaleTemps(dir, x.env.Now())
	if err := atomicfile.Write(filepath.Join(dir, s.ID+".json"), b, 0o644); err != nil {
		return "", err
	}
	return s.ID, nil
}

func (x *extractor) provider() (llm.Provider, error) {
	model := x.opts.model
	if model == "" {
		model = x.w.cfg.String(config.KeyExtractModel)
	}
	if model == "" {
		return nil, cannotRun(errors.New("no model for extract"), "set one: git config yoimem.extract.model anthropic:claude-haiku-4-5 (or openai:MODEL, command:ARGV, replay:FILE), or pass --model")
	}
	p, err := openModel(x.env, x.w, model)
	if err != nil {
		return nil, cannotRun(fmt.Errorf("yoimem.extract.model: %w", err))
	}
	x.modelLabel = modelLabel(model)
	return p, nil
}

// modelLabel is a model string as a staging file records it: the
// provider and model, without a replay file's or a command's directory.
func modelLabel(model string) string {
	kind, rest, _ := strings.Cut(model, ":")
	switch kind {
	case "replay":
		return kind + ":" + filepath.Base(rest)
	case "command":
		argv0, _, _ := strings.Cut(strings.TrimSpace(rest), " ")
		return kind + ":" + filepath.Base(argv0)
	}
	return model
}

// removeStaleTemps removes temporary files a killed run left in the
// staging directory (".<id>.json.tmp-…": never a staging file, which
// consolidation reads only as <id>.json). Only old ones: another
// session's run may be writing one right now.
func removeStaleTemps(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, ".") || !strings.Contains(name, ".tmp-") || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > time.Hour {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// realDir makes the directory rel below root, each component a real
// directory: a symlink anywhere on the way (.yoi/memory pointing outside,
// say) is refused, so nothing is written outside .yoi/.
func realDir(root, rel string) (string, error) {
	dir := root
	for i, part := range strings.Split(rel, "/") {
		dir = filepath.Join(dir, part)
		fi, err := os.Lstat(dir)
		if errors.Is(err, os.ErrNotExist) && i > 0 { // .yoi/ itself must exist
			if err = os.Mkdir(dir, 0o755); err == nil || errors.Is(err, os.ErrExist) {
				fi, err = os.Lstat(dir)
			}
		}
		switch {
		case errors.Is(err, os.ErrNotExist):
			return "", fmt.Errorf("no .yoi/ in %s: run 'git yoimem init' first", root)
		case err != nil:
			return "", err
		case fi.Mode()&os.ModeSymlink != 0:
			return "", fmt.Errorf("%s is a symlink; staging files are written only inside .yoi/", dir)
		case !fi.IsDir():
			return "", fmt.Errorf("%s is not a directory", dir)
		}
	}
	return dir, nil
}

// openModel opens a model string with the yoimem.llm.* settings.
func openModel(env Env, w *workspace, model string) (llm.Provider, error) {
	opts := llm.Options{
		APIHelper: apiHelper(),
		Getenv:    env.Getenv,
		Timeout:   time.Duration(w.cfg.Int(config.KeyLLMTimeoutSeconds)) * time.Second,
		ReadFile:  os.ReadFile,
		Exec:      llm.OSExec{Dir: env.Dir, Env: environ(env)},
	}
	if r := w.cfg.Int(config.KeyLLMMaxRetries); r > 0 {
		opts.MaxRetries = int(r)
	} else {
		opts.MaxRetries = llm.NoRetries
	}
	switch {
	case strings.HasPrefix(model, "anthropic:"):
		opts.BaseURL = w.cfg.String(config.KeyLLMAnthropicBaseURL)
	case strings.HasPrefix(model, "openai:"):
		opts.BaseURL = w.cfg.String(config.KeyLLMOpenAIBaseURL)
	case strings.HasPrefix(model, "replay:"):
		if f := strings.TrimPrefix(model, "replay:"); f != "" && !filepath.IsAbs(f) {
			model = "replay:" + filepath.Join(env.Dir, f)
		}
	}
	return llm.Open(model, opts)
}

// apiHelper is git-yoimem-llm beside this executable (install.sh puts both
// in one directory), else "" for the bridge to find it on PATH.
func apiHelper() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	p := filepath.Join(filepath.Dir(exe), llm.DefaultAPIHelper)
	if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
		return p
	}
	return ""
}

func environ(env Env) []string {
	if env.Environ == nil {
		return nil
	}
	return env.Environ()
}

func (x *extractor) loadState() (extract.State, error) {
	fresh := extract.State{Format: string(x.log.format), Session: x.log.session, Log: x.log.path}
	st, err := readState(x.statePath())
	if err == nil {
		return st, nil
	}
	// The scan state is saved without waiting for the disk; the pointer,
	// when it moved, was also saved durably beside it.
	if saved, perr := readState(x.pointerPath()); perr == nil {
		if !errors.Is(err, os.ErrNotExist) {
			warnf(x.env.Stderr, "%v; going on from the last saved pointer (entry %d)", err, saved.Pointer.Index)
		}
		return saved, nil
	}
	if errors.Is(err, os.ErrNotExist) {
		return fresh, nil
	}
	warnf(x.env.Stderr, "%v; starting this log over", err)
	return fresh, nil
}

func readState(path string) (extract.State, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return extract.State{}, fmt.Errorf("read extract state: %w", err)
	}
	return extract.ParseState(path, b)
}

func (x *extractor) pointerPath() string { return filepath.Join(x.dir, x.log.key()+".pointer.json") }

// saveState writes the state atomically; durably when the pointer moved.
func (x *extractor) saveState(st extract.State, durable bool) error {
	st.Format, st.Session, st.Log = string(x.log.format), x.log.session, x.log.path
	if err := os.MkdirAll(x.dir, 0o755); err != nil {
		return fmt.Errorf("save extract state: %w", err)
	}
	if durable {
		// The pointer moved: a copy that only moves with it, written
		// durably, survives a crash that empties the state file.
		if err := atomicfile.Write(x.pointerPath(), st.Marshal(), 0o644); err != nil {
			return fmt.Errorf("save extract pointer: %w", err)
		}
	}
	if err := atomicfile.Replace(x.statePath(), st.Marshal(), 0o644); err != nil {
		return fmt.Errorf("save extract state: %w", err)
	}
	return nil
}

func (x *extractor) print(rep extractReport) error {
	if x.opts.json {
		return writeJSON(x.env, rep)
	}
	var b strings.Builder
	due := "not due"
	if rep.Due {
		due = "due"
	}
	if rep.InFlight {
		due = "a run is in flight"
	}
	fmt.Fprintf(&b, "session %s (%s): %d input tokens in %d calls since the pointer (entry %d); threshold %d: %s\n",
		rep.Session, rep.Format, rep.Tokens, rep.Calls, rep.Pointer, rep.Threshold, due)
	for _, r := range rep.Runs {
		if r.Staging == "" {
			fmt.Fprintf(&b, "extracted entries %d-%d: nothing to save\n", r.From, r.To)
			continue
		}
		fmt.Fprintf(&b, "extracted entries %d-%d: %d decisions, %d discussions, %d attempts, %d requests -> .yoi/%s\n",
			r.From, r.To, r.Decisions, r.Discussions, r.Attempts, r.Requests, r.Staging)
	}
	_, err := fmt.Fprint(x.env.Stdout, b.String())
	return err
}
