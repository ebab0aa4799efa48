package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/review"
	"github.com/yoimem/git-yoimem/workspace"
)

func newReviewCommand(env Env, g *globalOptions) *cli.Command {
	var format string
	return &cli.Command{
		Name:      "review",
		Usage:     "describe a memory pull request: operations by category, possible losses, evidence",
		ArgsUsage: "[RANGE]",
		UsageText: "git yoimem review [--format markdown|json] [RANGE]",
		Description: `Describes the memory commits of RANGE (any range git log takes; by
default <base branch>..<memory branch>), oldest first, for a pull
request: each commit's operations grouped by category (outdated,
superseded, unused, noisy; then add, update, replace) with their
reasons; its new records; the records that may have lost information
(a source gone, more than a third of the body's lines gone, or the
record removed); the protected records it touched, with the usage the
run judged them by (from its note; without the note, judged now from
this machine's metrics and the committed run files); the knowledge it
created with the candidates the run had; the sessions behind it
(Yoimem-Session trailers and the evidence note on refs/notes/yoimem). What the commit and its note do not hold is
said. Commits of the range that are not memory commits are listed as
skipped. Paths print from the workspace root (.yoi/...).

--format json prints {range, commits, skipped} with snake_case keys.`,
		Flags: []cli.Flag{&cli.StringFlag{Name: "format", Value: "markdown", Usage: "output `FORMAT`: markdown or json", Destination: &format}},
		Action: func(c *cli.Context) error {
			if format != "markdown" && format != "json" {
				return usageError("--format %s: want markdown or json", quote.Value(format))
			}
			if c.NArg() > 1 {
				return usageError("review takes at most one RANGE")
			}
			return runReview(c.Context, env, g, format, c.Args().First())
		},
	}
}

func runReview(ctx context.Context, env Env, g *globalOptions, format, rng string) error {
	w, err := openWorkspace(ctx, env, g)
	if err != nil {
		return err
	}
	if strings.HasPrefix(rng, "-") {
		return reviewBadRange(rng, "a range does not start with '-'")
	}
	prefix, err := yoiPrefix(w)
	if err != nil {
		return err
	}
	given := rng != ""
	if !given {
		var ok bool
		if rng, ok, err = defaultReviewRange(ctx, env, w.Repo, w.Config.String(config.KeyBaseBranch), w.Config.String(config.KeyBranch)); err != nil || !ok {
			if err == nil {
				return printReview(env, format, review.Report{Range: rng, Commits: []review.Commit{}, Skipped: []review.Skipped{}})
			}
			return err
		}
	}
	rep, err := buildReview(ctx, w, prefix, rng)
	var ge *gitstore.Error
	switch {
	case errors.As(err, &ge) && given && ge.ExitCode == 128:
		return reviewBadRange(rng, ge.Message())
	case err != nil:
		return cannotRun(fmt.Errorf("review %s: %w", rng, err))
	}
	if n := len(rep.Skipped); n > 0 {
		statusf(env.Stderr, "review: skipped %s of %s that are not memory commits", skippedCount(n), quote.Controls(rng))
	}
	return printReview(env, format, rep)
}

// buildReview describes the memory commits of rng (review.Build) in
// workspace w, whose .yoi/ is at prefix.
func buildReview(ctx context.Context, w *workspace.Workspace, prefix, rng string) (review.Report, error) {
	obj, err := gitstore.OpenObjects(w.Repo)
	if err != nil {
		return review.Report{}, err
	}
	src := review.Source{Repo: w.Repo, Prefix: prefix, Notes: &gitstore.Notes{Repo: w.Repo, Objects: obj, Ref: consolidate.NotesRef},
		Judge:   consolidate.JudgeUsage(w.Metrics().Read, workspace.MetricsParams(w.Config)),
		MaxRead: w.Config.Int(config.KeyLintMaxFileBytes)}
	return review.Build(ctx, src, rng)
}

// defaultReviewRange is <base>..<memory branch>; ok is false (and the
// range still named) when there is no memory branch yet.
func defaultReviewRange(ctx context.Context, env Env, r gitstore.Repo, baseBranch, branch string) (string, bool, error) {
	base, err := gitstore.ResolveBase(ctx, r, baseBranch)
	if err != nil {
		return "", false, cannotRun(err, "set the base branch: git config yoimem.baseBranch main, or give a RANGE")
	}
	mem := "refs/heads/" + branch
	rng := base + ".." + mem
	_, err = gitstore.CommitOfRef(ctx, r, mem)
	switch {
	case errors.Is(err, gitstore.ErrNoRef):
		statusf(env.Stderr, "no memory branch yet (%s)", branch)
		return rng, false, nil
	case err != nil:
		return "", false, cannotRun(err, "'git reflog "+mem+"' shows where it pointed before; 'git update-ref "+mem+" <commit>' repairs it")
	}
	return rng, true, nil
}

func printReview(env Env, format string, rep review.Report) error {
	if format == "json" {
		return writeJSON(env, rep)
	}
	_, err := fmt.Fprint(env.Stdout, review.Markdown(rep))
	return err
}

// reviewBadRange is a usage error naming the range, in what git said of it.
func reviewBadRange(rng, why string) error {
	return &exitError{code: exitCannotRun, err: fmt.Errorf("bad revision range %s: %s", quote.Value(rng), why),
		hints: []string{"give a range git log takes, e.g. 'git yoimem review main..yoimem/memory', or none for <base branch>..<memory branch>"}}
}

func skippedCount(n int) string {
	if n == 1 {
		return "1 commit"
	}
	return fmt.Sprintf("%d commits", n)
}
