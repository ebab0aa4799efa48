package doctor

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/gitstore"
)

func checkStaging(_ context.Context, in Input, r *Report) error {
	cfg := in.W.Config
	b, err := consolidate.Due(in.W.StagingDir(), int(cfg.Int(config.KeyConsolidateStagingFiles)), cfg.Int(config.KeyConsolidateStagingBytes))
	if err != nil {
		return fmt.Errorf("read the staging directory: %w", err)
	}
	r.Staging = Staging{Files: b.Files, Bytes: b.Bytes, Due: b.Due}
	what := fmt.Sprintf("%d entr%s (%d bytes) waiting", b.Files, plural(b.Files, "y", "ies"), b.Bytes)
	switch {
	case b.Due:
		r.problem("staging", what+": consolidation is due", "git yoimem consolidate")
	case b.Files > 0:
		r.ok("staging", what+", not due yet ("+config.KeyConsolidateStagingFiles+", "+config.KeyConsolidateStagingBytes+")")
	default:
		r.ok("staging", "nothing waiting")
	}
	return nil
}

// checkMemoryBranch counts the memory commits the base branch does not
// have yet: memory that sessions do not see until it is merged.
func checkMemoryBranch(ctx context.Context, in Input, r *Report) error {
	mb := MemoryBranch{Branch: in.W.Config.String(config.KeyBranch)}
	ref := "refs/heads/" + mb.Branch
	_, err := gitstore.CommitOfRef(ctx, in.W.Repo, ref)
	switch {
	case errors.Is(err, gitstore.ErrNoRef):
		r.MemoryBranch = mb
		r.ok("memory branch", mb.Branch+" does not exist yet (the first consolidation creates it)")
		return nil
	case err != nil:
		return fmt.Errorf("read %s: %w", ref, err)
	}
	mb.Exists = true
	base, err := gitstore.ResolveBase(ctx, in.W.Repo, in.W.Config.String(config.KeyBaseBranch))
	switch {
	case errors.Is(err, gitstore.ErrNoBase):
		base = "HEAD"
	case err != nil:
		return err
	}
	mb.Base = strings.TrimPrefix(base, "refs/heads/")
	since, err := unmergedSince(ctx, in, base)
	if err != nil {
		return err
	}
	commits, _, err := gitstore.MemoryLog(ctx, in.W.Repo, since+".."+ref)
	if err != nil {
		return fmt.Errorf("read the memory commits of %s not in %s: %w", mb.Branch, mb.Base, err)
	}
	mb.Ahead = len(commits)
	r.MemoryBranch = mb
	if mb.Ahead > 0 {
		r.problem("memory branch", fmt.Sprintf("%d memory commit%s on %s not merged into %s: sessions do not see them yet", mb.Ahead, plural(mb.Ahead, "", "s"), mb.Branch, mb.Base),
			"git yoimem merge (or review them in a pull request: git yoimem log "+mb.Base+".."+mb.Branch+")")
		return nil
	}
	r.ok("memory branch", mb.Branch+" is merged into "+mb.Base)
	return nil
}

// checkUsage counts what the next consolidation moves into its commit.
// It reads without the consolidation lock: a count, not a move. A
// journal it cannot read is a problem to fix, not a failure to run.
func checkUsage(_ context.Context, in Input, r *Report) error {
	p, err := in.W.Metrics().Pending()
	if err != nil {
		// a damaged line is a finding, like lint's: the rest still runs
		r.problem("usage", "cannot read the usage journals: "+err.Error(),
			"repair or delete the damaged line (the journals are this machine's usage record, never committed)")
		return nil
	}
	r.Usage = Usage{Events: len(p.Events), Readings: len(p.Ticks)}
	if r.Usage.Events+r.Usage.Readings == 0 {
		r.ok("usage", "no usage events waiting")
		return nil
	}
	r.ok("usage", fmt.Sprintf("%d usage event%s and %d ledger reading%s wait for the next consolidation (git yoimem consolidate)",
		r.Usage.Events, plural(r.Usage.Events, "", "s"), r.Usage.Readings, plural(r.Usage.Readings, "", "s")))
	return nil
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// unmergedSince is where the memory commits the base lacks begin: the
// base, or past what a squash or rebase merge put there
// (gitstore.MemoryBranch.UnmergedSince).
func unmergedSince(ctx context.Context, in Input, base string) (string, error) {
	if base == "HEAD" {
		return base, nil
	}
	objs, err := gitstore.OpenObjects(in.W.Repo)
	if err != nil {
		return "", err
	}
	m := &gitstore.MemoryBranch{Repo: in.W.Repo, Objects: objs, Branch: in.W.Config.String(config.KeyBranch), Base: base}
	return m.UnmergedSince(ctx)
}
