package doctor

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
)

// checkSync tells how the memory branch stands to the remote's, from the
// refs the last fetch or push left (no network): memory commits not
// pushed are memory the team does not have.
func checkSync(ctx context.Context, in Input, r *Report) error {
	cfg := in.W.Config
	branch := cfg.String(config.KeyBranch)
	base, err := gitstore.ResolveBase(ctx, in.W.Repo, cfg.String(config.KeyBaseBranch))
	if err != nil && !errors.Is(err, gitstore.ErrNoBase) {
		return err
	}
	remote, err := gitstore.ResolveRemote(ctx, in.W.Repo, cfg.String(config.KeyRemote), base)
	switch {
	case errors.Is(err, gitstore.ErrAmbiguousRemote):
		// Remotes, but none sync can choose: consolidation fetches nothing.
		r.problem("sync", err.Error(), "git config "+config.KeyRemote+" NAME (a remote of 'git remote')")
		return nil
	case errors.Is(err, gitstore.ErrNoRemote) && cfg.String(config.KeyRemote) == "":
		r.ok("sync", "no remote: the memory stays in this clone")
		return nil
	case errors.Is(err, gitstore.ErrNoRemote):
		r.problem("sync", err.Error(), "git config "+config.KeyRemote+" NAME (a remote of 'git remote'), or unset it")
		return nil
	case err != nil:
		return err
	}
	s := Sync{Remote: remote}
	objs, err := gitstore.OpenObjects(in.W.Repo)
	if err != nil {
		return err
	}
	t := gitstore.Tracking{Remote: remote, Branch: branch}
	local, err := objs.RefHash("refs/heads/" + branch)
	if err != nil {
		return err
	}
	tracked, err := objs.RefHash(t.BranchRef())
	if err != nil {
		return err
	}
	if tracked != "" {
		s.Tracked = strings.TrimPrefix(t.BranchRef(), "refs/remotes/")
	}
	switch {
	case local == "" && tracked == "":
		r.Sync = s
		r.ok("sync", "nothing to share yet: no memory branch here or, as last fetched, on "+remote)
		return nil
	case tracked == "":
		r.Sync = s
		r.problem("sync", branch+" was never pushed to "+remote+" (as last fetched)", "git yoimem push")
		return nil
	case local == "":
		r.Sync = s
		r.ok("sync", s.Tracked+" exists; the next consolidation (or git yoimem pull) brings it here")
		return nil
	}
	if s.Unpushed, s.Behind, err = leftRight(ctx, in.W.Repo, local, tracked); err != nil {
		return err
	}
	if s.Unpushed > 0 && base != "" {
		// A branch restarted from the base carries the base's commits:
		// those are not memory commits, and the base is pushed as usual.
		if s.Unpushed, err = countOnly(ctx, in.W.Repo, local, tracked, base); err != nil {
			return err
		}
	}
	r.Sync = s
	switch {
	case s.Unpushed > 0:
		r.problem("sync", fmt.Sprintf("%d memory commit%s on %s not pushed to %s: the team does not have them", s.Unpushed, plural(s.Unpushed, "", "s"), branch, remote), "git yoimem push")
	case s.Behind > 0:
		r.ok("sync", fmt.Sprintf("%s has %d commit%s this clone lacks (as last fetched); the next consolidation or git yoimem pull brings them", s.Tracked, s.Behind, plural(s.Behind, "", "s")))
	default:
		r.ok("sync", branch+" is in step with "+s.Tracked+" (as last fetched)")
	}
	return nil
}

// leftRight counts the commits only a has and only b has.
func leftRight(ctx context.Context, repo gitstore.Repo, a, b string) (onlyA, onlyB int, err error) {
	out, err := repo.Git.Run(ctx, "rev-list", "--left-right", "--count", a+"..."+b, "--")
	if err != nil {
		return 0, 0, fmt.Errorf("compare %s with %s: %w", a, b, err)
	}
	f := strings.Fields(string(out))
	if len(f) != 2 {
		return 0, 0, fmt.Errorf("compare %s with %s: unexpected git rev-list output %q", a, b, out)
	}
	if onlyA, err = strconv.Atoi(f[0]); err == nil {
		onlyB, err = strconv.Atoi(f[1])
	}
	return onlyA, onlyB, err
}

// countOnly counts the commits a has that none of the others has.
func countOnly(ctx context.Context, repo gitstore.Repo, a string, others ...string) (int, error) {
	args := []string{"rev-list", "--count", a}
	for _, o := range others {
		args = append(args, "^"+o)
	}
	out, err := repo.Git.Run(ctx, append(args, "--")...)
	if err != nil {
		return 0, fmt.Errorf("count the commits of %s not in %s: %w", a, strings.Join(others, ", "), err)
	}
	return strconv.Atoi(strings.TrimSpace(string(out)))
}
