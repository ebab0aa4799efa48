package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/llm"
	"github.com/yoimem/git-yoimem/workspace"
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
	// noConsolidate: do not run consolidation after a successful run,
	// even when the staging is due.
	noConsolidate bool
}

func newExtractCommand(env Env, g *globalOptions) *cli.Command {
	var opts extractOptions
	return &cli.Command{
		Name:      "extract",
		Usage:     "turn the new part of an agent session log into a staging file for consolidation",
		UsageText: "git yoimem extract --log PATH [--format native|claude-code|codex] [--check | --force | --dry-run] [--model MODEL] [--max-runs N] [--no-consolidate] [--json]",
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
without calling a model. Both feed the token ledger of the usage metrics.
The report shows the state found, the runs made, and the state left
("now: …"); --json prints it as {…, runs, after}. --dry-run prints the
request a run would send: the text a command: model reads on stdin, or
with --json the request the model helper gets.

After a successful run, when the staging files reach
yoimem.consolidate.stagingFiles or .stagingBytes, extract runs
consolidation ('git yoimem consolidate') in the same process and prints
what it committed after its own report (--json: under "consolidation").
--no-consolidate skips it. A consolidation already running is no error:
extract says so and leaves the staging to it and the next run.`,
		Flags: []cli.Flag{
			&cli.StringFlag{Name: "log", Usage: "the session log to read, a JSONL file at `PATH` (required)", Destination: &opts.log, Required: true},
			&cli.StringFlag{Name: "format", Usage: "the log's `FORMAT`: native, claude-code or codex (default: detected)", Destination: &opts.format},
			&cli.StringFlag{Name: "model", Usage: "the `MODEL` to ask, overriding yoimem.extract.model", Destination: &opts.model},
			&cli.BoolFlag{Name: "check", Usage: "only report whether a run is due; no model call", Destination: &opts.check},
			&cli.BoolFlag{Name: "force", Usage: "run even below the threshold", Destination: &opts.force},
			&cli.BoolFlag{Name: "dry-run", Usage: "print the request a run would send to the model for the entries after the pointer; no model call, nothing written", Destination: &opts.dryRun},
			&cli.BoolFlag{Name: "json", Usage: "print the report as JSON", Destination: &opts.json},
			&cli.IntFlag{Name: "max-runs", Usage: "at most `N` runs, when the threshold is met again after one", Value: defaultMaxRuns, Destination: &opts.maxRuns},
			&cli.BoolFlag{Name: "no-consolidate", Usage: "do not run consolidation after the run, even when the staging is due", Destination: &opts.noConsolidate},
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

func runExtract(ctx context.Context, env Env, g *globalOptions, opts extractOptions) error {
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	path := opts.log
	if !filepath.IsAbs(path) {
		path = filepath.Join(env.Dir, path)
	}
	log, err := extract.OpenLog(path, opts.format)
	if err != nil {
		return cannotRun(err)
	}
	if log.Format == "" { // an empty log: a session that has not written yet
		rep := extract.Report{Session: log.Session, Log: displayPath(env, path), Threshold: w.Config.Int(config.KeyExtractTokenThreshold), Runs: []extract.RunReport{}}
		if opts.json {
			return writeJSON(env, rep)
		}
		_, err := fmt.Fprintf(env.Stdout, "session %s: the log is empty; nothing to extract yet\n", quote.Path(log.Session, false))
		return err
	}
	r := &extract.Runner{
		Log: log, StateDir: w.ExtractStateDir(), Shared: w.SharedPerm, YoiDir: w.YoiDir(),
		Threshold: w.Config.Int(config.KeyExtractTokenThreshold),
		Model:     func() (llm.Provider, string, error) { return w.OpenModelFor(config.KeyExtractModel, opts.model) },
		Ledger:    w.Metrics().Tick,
		Now:       env.Now,
		Warn:      func(msg string) { warnf(env.Stderr, "%s", msg) },
	}
	if opts.dryRun {
		p, err := r.Preview()
		if err != nil {
			return cannotRun(err)
		}
		return printPreview(env, p, opts.json)
	}
	var rep extract.Report
	if opts.check {
		rep, err = r.Check(ctx)
	} else {
		rep, err = r.Run(ctx, extract.RunOptions{Force: opts.force, MaxRuns: opts.maxRuns})
	}
	switch {
	case errors.Is(err, extract.ErrInFlight):
		if !opts.check {
			warnf(env.Stderr, "extract is already running for session %s; skipped (it checks the threshold again when it ends)", quote.Path(log.Session, false))
		}
	case err != nil:
		return extractError(w, err)
	}
	rep.Log = displayPath(env, rep.Log)
	if opts.check || opts.noConsolidate || err != nil {
		return printExtract(env, rep, opts.json)
	}
	return extractThenConsolidate(ctx, env, w, rep, opts.json)
}

// extractError gives a run's error its exit code and what to do.
func extractError(w *workspace.Workspace, err error) error {
	var pk *extract.PointerKeptError
	switch {
	case errors.As(err, &pk):
		return cannotRun(err, "the pointer did not move: the next run covers the same entries")
	case errors.Is(err, gitstore.ErrNoYoi):
		return noYoi(w, err)
	case errors.Is(err, workspace.ErrNoModel):
		return cannotRun(err, "set one: git config yoimem.extract.model anthropic:claude-haiku-4-5 (or openai:MODEL, command:ARGV, replay:FILE), or pass --model")
	}
	return cannotRun(err)
}

func printExtract(env Env, rep extract.Report, asJSON bool) error {
	if asJSON {
		return writeJSON(env, rep)
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
		quote.Path(rep.Session, false), rep.Format, rep.Tokens, rep.Calls, rep.Pointer, rep.Threshold, due)
	for _, r := range rep.Runs {
		if r.Staging == "" {
			fmt.Fprintf(&b, "extracted entries %d-%d: nothing to save\n", r.From, r.To)
			continue
		}
		fmt.Fprintf(&b, "extracted entries %d-%d: %d decisions, %d discussions, %d attempts, %d requests -> %s\n",
			r.From, r.To, r.Decisions, r.Discussions, r.Attempts, r.Requests, r.Staging)
	}
	if len(rep.Runs) > 0 {
		due = "not due"
		if rep.After.Due {
			due = "due (a next run is left for the next trigger)"
		}
		fmt.Fprintf(&b, "now: %d input tokens in %d calls since the pointer (entry %d); %s\n", rep.After.Tokens, rep.After.Calls, rep.After.Pointer, due)
	}
	_, err := fmt.Fprint(env.Stdout, b.String())
	return err
}

// printPreview prints the dry run: the text a command: model reads on
// stdin, or with --json the request as the model helper gets it.
func printPreview(env Env, p extract.Preview, asJSON bool) error {
	session := quote.Path(p.Session, false)
	if p.Empty() {
		statusf(env.Stderr, "git-yoimem: no new entries after the pointer (entry %d) of session %s: nothing to send", p.Pointer, session)
		return nil
	}
	r := p.Rendered
	fmt.Fprintf(env.Stderr, "git-yoimem: entries %d-%d of session %s: %d shown, %d left out, %d credential(s) redacted\n", p.Pointer+1, p.Through, session, r.Entries, r.Dropped, r.Redacted)
	if p.Request == nil {
		statusf(env.Stderr, "git-yoimem: nothing to show the model: a run makes no model call and moves the pointer")
		return nil
	}
	if asJSON {
		return writeJSON(env, p.Request)
	}
	_, err := io.WriteString(env.Stdout, llm.PromptText(*p.Request))
	return err
}
