package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/internal/udiff"
	"github.com/yoimem/git-yoimem/memlog"
	"github.com/yoimem/git-yoimem/memory"
	"github.com/yoimem/git-yoimem/record"
	"github.com/yoimem/git-yoimem/workspace"
)

// What consolidate shows without committing: a run planned (--dry-run)
// and a commit's run made again (--replay).

// dryRunJSON is consolidate --dry-run --format json.
type dryRunJSON struct {
	Engine   string           `json:"engine"`
	Model    string           `json:"model,omitempty"`
	RunID    string           `json:"run_id"`
	Message  string           `json:"message"` // the commit message the run would write
	Ops      []memlog.Op      `json:"ops"`
	Consumed []string         `json:"consumed"`
	Changes  []changeJSON     `json:"changes"`
	Warnings []memory.Finding `json:"warnings"`
	Skipped  []skippedJSON    `json:"skipped"`
}

// changeJSON is one record a run changes, with its unified diff.
type changeJSON struct {
	Path   string `json:"path"`
	Change string `json:"change"` // add, modify or delete
	Diff   string `json:"diff"`
}

// runDryRun plans a run over the entries staged now and prints its
// message and diff; nothing is written.
func runDryRun(ctx context.Context, env Env, w *workspace.Workspace, r *consolidate.Runner, p *progress, format string) error {
	plan, problems, err := r.Preview(ctx)
	p.done()
	out := dryRunJSON{Engine: r.Engine.Name(), Model: r.Engine.Model(), Ops: []memlog.Op{}, Consumed: []string{}, Changes: []changeJSON{}, Warnings: []memory.Finding{}, Skipped: []skippedJSON{}}
	for _, pr := range problems {
		out.Skipped = append(out.Skipped, skippedJSON{Path: record.DisplayPath(record.StagingDir + "/" + pr.ID + ".json"), Reason: pr.Err.Error()})
	}
	if err != nil {
		printSkipped(env, w.PathQuoter(ctx), out.Skipped)
		return consolidateError(w, err)
	}
	if plan != nil {
		msg, err := plan.Message.Format()
		if err != nil {
			return cannotRun(err)
		}
		out.RunID, out.Message, out.Consumed = plan.Input.RunID, msg, plan.Consumed
		out.Ops = displayOps(&memlog.Message{Ops: append([]memlog.Op(nil), plan.Message.Ops...)}).Ops
		out.Warnings = memory.Findings(plan.Warnings)
		for _, c := range plan.Changes.Changes() {
			out.Changes = append(out.Changes, changeOf(plan.Input.Base, c))
		}
	}
	if format == "json" {
		return writeJSON(env, out)
	}
	q := w.PathQuoter(ctx)
	printSkipped(env, q, out.Skipped)
	for _, f := range out.Warnings {
		warnf(env.Stderr, "%s:%d:%d: %s: %s", q.Path(f.Path), f.Line, f.Col, f.Rule, f.Message)
	}
	if plan == nil {
		statusf(env.Stderr, "nothing to consolidate: no staging entries")
		return nil
	}
	var b strings.Builder
	b.WriteString(out.Message)
	if len(out.Changes) == 0 {
		b.WriteString("\n(the entries change no record: a run would commit nothing and remove them)\n")
	}
	for _, c := range out.Changes {
		b.WriteString("\n" + c.Diff)
	}
	_, err = fmt.Fprint(env.Stdout, textSafe(b.String()))
	return err
}

func printSkipped(env Env, q *workspace.PathQuoter, skipped []skippedJSON) {
	for _, s := range skipped {
		warnf(env.Stderr, "skipped %s: %s; it is left in place", q.Path(s.Path), s.Reason)
	}
}

// changeOf is a change against base with its diff; paths print from the
// workspace root.
func changeOf(base record.Snapshot, c record.Change) changeJSON {
	path := record.DisplayPath(c.Path)
	old, err := base.Read(c.Path)
	existed := err == nil
	ch := changeJSON{Path: path, Change: "modify"}
	from, to := "a/"+path, "b/"+path
	var after []byte
	switch {
	case c.Op == record.OpDelete:
		ch.Change, to = "delete", "/dev/null"
	case !existed:
		ch.Change, from = "add", "/dev/null"
		after = c.Content
	default:
		after = c.Content
	}
	ch.Diff = udiff.Unified(from, to, old, after, udiff.DefaultContext)
	return ch
}

// replayJSON is consolidate --replay --format json.
type replayJSON struct {
	Commit      string           `json:"commit"`
	Parent      string           `json:"parent"`
	RunID       string           `json:"run_id"`
	Engine      string           `json:"engine"` // the replay's
	Model       string           `json:"model,omitempty"`
	Same        bool             `json:"same"`
	Differences []differenceJSON `json:"differences"`
	CommitOps   []memlog.Op      `json:"commit_ops"`
	ReplayOps   []memlog.Op      `json:"replay_ops"`
	MetricsFile string           `json:"metrics_file,omitempty"` // moved by the commit; not replayed
}

// differenceJSON is a record whose outcome differs: the diff from the
// commit's content to the replay's.
type differenceJSON struct {
	Path string `json:"path"`
	Diff string `json:"diff"`
}

// runReplay runs a memory commit's input again against its parent and
// prints whether the outcome is the same.
func runReplay(ctx context.Context, env Env, w *workspace.Workspace, branch *gitstore.MemoryBranch, opts consolidateOptions) error {
	rev := opts.replay
	if strings.HasPrefix(rev, "-") {
		return usageError("--replay %s: give a commit, e.g. yoimem/memory", quote.Value(rev))
	}
	engine, model := opts.engine, opts.model
	if engine == "" && model == "" {
		var err error
		if engine, err = commitEngine(ctx, w, rev); err != nil {
			return err
		}
	}
	choice, err := chooseEngine(w, engine, model)
	if err != nil {
		return err
	}
	p := newProgress(env)
	e, err := openEngine(w, choice, p)
	if err != nil {
		return err
	}
	r := newRunner(env, w, branch, e, p)
	rep, err := r.Replay(ctx, rev, nil)
	p.done()
	if err != nil {
		return consolidateError(w, err)
	}
	out := replayOf(rep, e)
	if opts.format == "json" {
		return writeJSON(env, out)
	}
	return printReplay(ctx, env, w, out)
}

// commitEngine is the engine a memory commit was made with.
func commitEngine(ctx context.Context, w *workspace.Workspace, rev string) (string, error) {
	entries, _, err := gitstore.MemoryLog(ctx, w.Repo, rev+"^!")
	var ge *gitstore.Error
	switch {
	case errors.As(err, &ge):
		return "", cannotRun(fmt.Errorf("--replay %s: %s", quote.Value(rev), ge.Message()), "give a memory commit: 'git yoimem log' lists them")
	case err != nil:
		return "", cannotRun(err)
	case len(entries) != 1:
		return "", cannotRun(fmt.Errorf("--replay %s: not a memory commit (no Yoimem-Run trailer)", quote.Value(rev)), "give a memory commit: 'git yoimem log' lists them")
	}
	if entries[0].Engine == engineLLM {
		return engineLLM, nil
	}
	return engineRules, nil
}

func replayOf(rep *consolidate.Replayed, e consolidate.Engine) replayJSON {
	out := replayJSON{Commit: rep.Commit, Parent: rep.Parent, RunID: rep.Message.RunID, Engine: e.Name(), Model: e.Model(),
		Same: rep.Same(), Differences: []differenceJSON{}, MetricsFile: rep.MetricsFile,
		CommitOps: displayOps(&memlog.Message{Ops: append([]memlog.Op{}, rep.Message.Ops...)}).Ops,
		ReplayOps: displayOps(&memlog.Message{Ops: append([]memlog.Op{}, rep.Plan.Message.Ops...)}).Ops}
	base := rep.Plan.Input.Base
	for _, d := range rep.Differences() {
		path := record.DisplayPath(d.Path)
		parent, _ := base.Read(d.Path)
		committed, replayed := parent, parent
		if d.InCommit {
			committed = d.Committed
		}
		if d.InReplay {
			replayed = d.Replayed
		}
		from, to := path+" (commit)", path+" (replay)"
		if d.DeletedInCommit || committed == nil {
			from = "/dev/null"
		}
		if d.DeletedInReplay || replayed == nil {
			to = "/dev/null"
		}
		out.Differences = append(out.Differences, differenceJSON{Path: path, Diff: udiff.Unified(from, to, committed, replayed, udiff.DefaultContext)})
	}
	return out
}

func printReplay(ctx context.Context, env Env, w *workspace.Workspace, out replayJSON) error {
	q := w.PathQuoter(ctx)
	var b strings.Builder
	engine := out.Engine + " engine"
	if out.Model != "" {
		engine += " (" + out.Model + ")"
	}
	verdict := "the same outcome: the same records, byte for byte, and the same operations"
	if !out.Same {
		verdict = "a different outcome"
	}
	fmt.Fprintf(&b, "replay of %s (run %s) against %s with the %s: %s\n", out.Commit, out.RunID, out.Parent, engine, verdict)
	for _, d := range out.Differences {
		b.WriteString("\n" + d.Diff)
	}
	if !out.Same {
		for _, side := range []struct {
			name string
			ops  []memlog.Op
		}{{"the commit", out.CommitOps}, {"the replay", out.ReplayOps}} {
			fmt.Fprintf(&b, "\noperations of %s:\n", side.name)
			for _, op := range side.ops {
				b.WriteString(opLine(q, op) + "\n")
			}
		}
	}
	_, err := fmt.Fprint(env.Stdout, textSafe(b.String()))
	return err
}

// textSafe escapes the control bytes of text printed whole (a diff, a
// message): its line breaks and tabs stay, and no line is cut, unlike an
// error's (terminalSafe), since the text is the command's data.
func textSafe(text string) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		cells := strings.Split(l, "\t")
		for j, c := range cells {
			cells[j] = quote.Controls(c)
		}
		lines[i] = strings.Join(cells, "\t")
	}
	return strings.Join(lines, "\n")
}
