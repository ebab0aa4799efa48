package githook

import (
	"context"
	"errors"
	"fmt"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
)

// Commit is one commit being checked by the pre-commit hook: the staged
// versions of the changed .yoi/ records are linted (references checked
// against the staged tree), and staged machine-local files (staging
// entries, the consolidation lock) refuse the commit. The index and the
// objects are read directly, never through git's index lock; git answers
// when the index is split or sparse, or anything else is out of the
// ordinary.
type Commit struct {
	Repo   gitstore.Repo
	Prefix string // .yoi/ relative to the top level, e.g. ".yoi"
	Index  string // the index file git uses for this commit (GIT_INDEX_FILE)
	// Lint gives the linter's options; it is called only when the commit
	// stages records, so that a bad configuration never blocks commits of
	// other files.
	Lint func() (lint.Options, error)
}

// CommitResult is what a commit stages that the hook refuses or reports.
type CommitResult struct {
	// Staging are machine-local files staged, from the top level: the
	// commit is refused whatever else it holds.
	Staging []string
	Report  lint.Report // the staged records' findings
}

// CannotLintError is a commit that stages .yoi/ records this build cannot
// read (a SHA-256 repository): they cannot be linted.
type CannotLintError struct {
	Prefix string
	Err    error
}

func (e *CannotLintError) Error() string {
	return fmt.Sprintf("cannot lint the staged %s/ records: %v", e.Prefix, e.Err)
}
func (e *CannotLintError) Unwrap() error { return e.Err }

// Check lints what the commit stages under .yoi/. A commit that stages
// nothing there costs no configuration and no lint. The index's checksum
// failing is gitstore.ErrIndexChecksum.
func (c *Commit) Check(ctx context.Context) (CommitResult, error) {
	objs, err := gitstore.OpenObjects(c.Repo)
	if errors.Is(err, gitstore.ErrSHA256) {
		return c.withoutObjects(ctx, err)
	} else if err != nil {
		return CommitResult{}, err
	}
	changed, deleted, stagedSnap, err := gitstore.StagedFast(objs, c.Index, c.Prefix)
	if errors.Is(err, gitstore.ErrIndexChecksum) {
		return CommitResult{}, err
	}
	if err != nil {
		if changed, deleted, err = c.stagedChanges(ctx); err != nil {
			return CommitResult{}, err
		}
	}
	if refused := StagingFiles(c.Prefix, changed); len(refused) > 0 {
		return CommitResult{Staging: refused}, nil
	}
	records := Lintable(changed)
	if len(records) == 0 && len(deleted) == 0 {
		return CommitResult{}, nil
	}
	lo, err := c.Lint()
	if err != nil {
		return CommitResult{}, err
	}
	var snap record.Snapshot
	if stagedSnap != nil {
		snap = stagedSnap(lo.MaxFileBytes)
	} else if snap, err = gitstore.IndexSnapshot(ctx, c.Repo, objs, c.Prefix, lo.MaxFileBytes); err != nil {
		return CommitResult{}, err
	}
	return CommitResult{Report: lint.Changed(snap, records, deleted, lo)}, nil
}

// withoutObjects serves repositories whose objects cannot be read here
// (SHA-256): commits that stage nothing under .yoi/ go through; the
// others are refused with the reason, since they cannot be linted.
func (c *Commit) withoutObjects(ctx context.Context, cause error) (CommitResult, error) {
	changed, deleted, err := c.stagedChanges(ctx)
	if err != nil {
		return CommitResult{}, err
	}
	if len(Lintable(changed)) == 0 && len(deleted) == 0 && len(StagingFiles(c.Prefix, changed)) == 0 {
		return CommitResult{}, nil
	}
	return CommitResult{}, &CannotLintError{Prefix: c.Prefix, Err: cause}
}

// stagedChanges asks git what the commit stages under .yoi/.
func (c *Commit) stagedChanges(ctx context.Context) (changed, deleted []string, err error) {
	return gitstore.StagedChanges(ctx, c.Repo, c.Prefix)
}

// StagingFiles returns the changed paths (.yoi/-relative) that must never
// be committed, from the top level.
func StagingFiles(prefix string, changed []string) []string {
	var out []string
	for _, p := range changed {
		if record.Classify(p).Area == record.AreaStaging {
			out = append(out, prefix+"/"+p)
		}
	}
	return out
}

// Lintable keeps the paths the linter has something to say about:
// records, anything the layout does not name, and (for credentials) every
// other committed file; staging files are refused apart.
func Lintable(paths []string) []string {
	var out []string
	for _, p := range paths {
		if record.Classify(p).Area != record.AreaStaging {
			out = append(out, p)
		}
	}
	return out
}

// PreCommit is the pre-commit hook's check of commit c: staged
// machine-local files (Result.Staging), else the linter's findings on the
// staged records (Result.Report). Errors: gitstore.ErrIndexChecksum for a
// damaged index, a *CannotLintError for records this build cannot read,
// and whatever c.Lint returns, as it is.
func PreCommit(ctx context.Context, c Commit) (Result, error) {
	res, err := c.Check(ctx)
	if err != nil {
		return Result{}, err
	}
	return Result{Prefix: c.Prefix, Staging: res.Staging, Report: res.Report}, nil
}
