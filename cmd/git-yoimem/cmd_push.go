package main

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/urfave/cli/v2"
	"github.com/yoimem/git-yoimem/forge"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/memsync"
	"github.com/yoimem/git-yoimem/review"
	"github.com/yoimem/git-yoimem/workspace"
)

type pushOptions struct {
	format string
	pr     bool
}

func newPushCommand(env Env, g *globalOptions) *cli.Command {
	var opts pushOptions
	return &cli.Command{
		Name:      "push",
		Usage:     "share the memory branch and its notes through the remote",
		ArgsUsage: "[REMOTE]",
		UsageText: "git yoimem push [--pr] [--format text|json] [REMOTE]",
		Description: `Brings the remote's memory in first (as 'git yoimem pull'), then pushes
the memory branch (yoimem.branch) and the notes (refs/notes/yoimem) to
REMOTE (default: yoimem.remote, else the base branch's remote, else
origin), never forced. When another clone pushed in between, the push is
rejected by the remote; it then pulls again and pushes again, at most 5
times. Your hooks run as for any push (the pre-push hook checks the
memory commits).

When a record was changed on both sides at the same lines, nothing is
pushed (exit 1): resolve it with git (docs/sync.md). A push the remote
refuses (its hooks, a protected branch) or the pre-push hook refuses
exits 1 too; a remote that cannot be reached exits 2.

--pr then opens the pull request of the memory branch into the base
branch with 'git yoimem review' as its description, or replaces the
description of the one already open, through gh (GitHub) or glab
(GitLab); without the tool, logged in, for that host, it writes the
description to a file and prints the command to run (docs/pull-requests.md).

--format json prints the sync's report, with what the remote did with
each ref under "pushed" and, with --pr, "pull_request".`,
		Flags: []cli.Flag{formatFlag(&opts.format),
			&cli.BoolFlag{Name: "pr", Usage: "open or update the pull request with the review as its description", Destination: &opts.pr}},
		Action: func(c *cli.Context) error {
			if err := checkFormat(opts.format); err != nil {
				return err
			}
			if c.NArg() > 1 {
				return usageError("push takes at most one REMOTE")
			}
			return runPush(c.Context, env, g, opts, c.Args().First())
		},
	}
}

// pushJSON is push's report: the sync's, and the pull request's.
type pushJSON struct {
	memsync.Report
	PullRequest *forge.Result `json:"pull_request,omitempty"`
}

func runPush(ctx context.Context, env Env, g *globalOptions, opts pushOptions, remote string) error {
	w, o, err := openSync(ctx, env, g, "push", remote)
	if err != nil {
		return err
	}
	rep, err := memsync.Push(ctx, o)
	if errors.Is(err, memsync.ErrNothingToPush) {
		return cannotRun(err, "memory commits are written by consolidation ('git yoimem consolidate'); push after one")
	}
	if !opts.pr || err != nil || rep.Conflicted() {
		return finishSync(env, opts.format, rep, err)
	}
	pr, prErr := openPullRequest(ctx, env, w, o)
	if opts.format == "json" {
		if err := writeJSON(env, pushJSON{Report: rep, PullRequest: pr}); err != nil {
			return err
		}
	} else {
		printSync(env, rep)
		printPullRequest(env, pr)
	}
	return pullRequestError(prErr)
}

// prTimeout bounds the forge tool's runs.
const prTimeout = 2 * time.Minute

// openPullRequest opens or updates the memory branch's pull request with
// the review of base..memory branch as its description.
func openPullRequest(ctx context.Context, env Env, w *workspace.Workspace, o memsync.Options) (*forge.Result, error) {
	fetched, configured, err := gitstore.RemoteURLs(ctx, w.Repo, o.Remote)
	if err != nil {
		return nil, err
	}
	url := forge.PickURL([]string{fetched, configured}, env.Getenv)
	prefix, err := w.Prefix()
	if err != nil {
		return nil, err
	}
	rep, err := buildReview(ctx, w, prefix, o.Branch.Base+".."+o.Branch.Ref())
	if err != nil {
		return nil, fmt.Errorf("the review for the pull request: %w", err)
	}
	if len(rep.Commits) == 0 {
		return &forge.Result{Action: forge.Manual, Reason: "no memory commits to review: " + o.Branch.Branch + " has nothing the base branch lacks"}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, prTimeout)
	defer cancel()
	var environ []string
	if env.Environ != nil {
		environ = env.Environ()
	}
	res, err := forge.Open(ctx, forge.Request{
		Dir: w.Repo.TopLevel, RemoteURL: url, Head: o.Branch.Branch, Base: baseName(o.Branch.Base, o.Remote),
		Title: pullRequestTitle(len(rep.Commits)), Body: []byte(review.Markdown(rep)),
		BodyFile: filepath.Join(w.LocalDir(), "pr.md"), Env: environ,
	})
	if err != nil {
		return nil, err
	}
	return &res, nil
}

// baseName is the base branch's name on the remote: main for
// refs/heads/main and refs/remotes/origin/main.
func baseName(base, remote string) string {
	if rest, ok := strings.CutPrefix(base, "refs/remotes/"+remote+"/"); ok {
		return rest
	}
	return strings.TrimPrefix(base, "refs/heads/")
}

func pullRequestTitle(commits int) string {
	return "yoimem: memory for review (" + count(commits, "memory commit", "memory commits") + ")"
}

// printPullRequest tells what --pr did: the request's address on stdout
// (data), the rest on stderr.
func printPullRequest(env Env, pr *forge.Result) {
	if pr == nil {
		return
	}
	switch pr.Action {
	case forge.Created, forge.Updated:
		statusf(env.Stderr, "pull request %s", pr.Action)
		fmt.Fprintln(env.Stdout, pr.URL)
	case forge.Manual:
		statusf(env.Stderr, "did not open the pull request: %s", pr.Reason)
		if pr.BodyFile != "" {
			statusf(env.Stderr, "its description is in %s", pr.BodyFile)
		}
		if pr.Command != "" {
			statusf(env.Stderr, "open it with:\n  %s", pr.Command)
		} else if pr.WebURL != "" {
			statusf(env.Stderr, "open it on %s", pr.WebURL)
		}
	}
}

// pullRequestError maps what --pr failed on to an exit code: the push is
// done either way.
func pullRequestError(err error) error {
	var body *forge.BodyError
	var cliErr *forge.CLIError
	switch {
	case err == nil:
		return nil
	case errors.Is(err, context.Canceled):
		return err
	case errors.As(err, &body):
		return &exitError{code: exitFindings, err: err, hints: []string{"the memory branch was pushed; the review holds bytes no forge stores: 'git yoimem review' shows it"}}
	case errors.As(err, &cliErr):
		return cannotRun(err, "the memory branch was pushed; run 'git yoimem push --pr' again once the tool works, or open the pull request by hand")
	}
	return cannotRun(err, "the memory branch was pushed; the pull request was not opened")
}
