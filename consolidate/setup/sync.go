package setup

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/consolidate"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/memsync"
	"github.com/yoimem/git-yoimem/workspace"
)

// Sync wires a sync of the workspace's memory branch with remote (empty:
// yoimem.remote, else the base branch's remote, else origin). No remote
// is an error wrapping gitstore.ErrNoRemote. now stamps the reflog.
func Sync(ctx context.Context, w *workspace.Workspace, branch *gitstore.MemoryBranch, remote string, now func() time.Time) (memsync.Options, error) {
	from := "REMOTE" // the command's argument
	if remote == "" {
		from, remote = config.KeyRemote, w.Config.String(config.KeyRemote)
	}
	name, err := gitstore.ResolveRemote(ctx, w.Repo, remote, branch.Base)
	if err != nil {
		if remote != "" {
			err = fmt.Errorf("%s %w", from, err)
		}
		return memsync.Options{}, err
	}
	if now == nil {
		now = time.Now
	}
	return memsync.Options{
		Branch:  branch,
		Notes:   &gitstore.Notes{Repo: w.Repo, Objects: branch.Objects, Ref: consolidate.NotesRef},
		Remote:  name,
		Lint:    w.LintOptions(),
		MaxRead: w.Config.Int(config.KeyLintMaxFileBytes),
		Who:     gitstore.Signature{Name: "git-yoimem", Email: "git-yoimem@localhost", When: now()},
	}, nil
}

// syncTimeout bounds the sync a consolidation starts with: an unreachable
// remote delays the run by at most this much, then the run goes on.
const syncTimeout = 2 * time.Minute

// RunSync is the sync a consolidation run starts with (Runner.Sync):
// with yoimem.sync on and a remote to sync with, the remote's memory is
// pulled in; nil when either is missing. Nobody may be there to answer a
// credential prompt (a hook's or an agent's run): its git commands ask
// none (gitstore.Unattended), and a remote that wants one fails the sync.
func RunSync(w *workspace.Workspace, branch *gitstore.MemoryBranch, now func() time.Time) func(context.Context) (*memsync.Report, error) {
	if !w.Config.Bool(config.KeySync) {
		return nil
	}
	return func(ctx context.Context) (*memsync.Report, error) {
		ctx, cancel := context.WithTimeout(ctx, syncTimeout)
		defer cancel()
		unattended := *branch
		unattended.Repo.Git.Env = gitstore.Unattended(branch.Repo.Git.Env)
		o, err := Sync(ctx, w, &unattended, "", now)
		if err != nil {
			if w.Config.String(config.KeyRemote) == "" && errors.Is(err, gitstore.ErrNoRemote) && !errors.Is(err, gitstore.ErrAmbiguousRemote) {
				return nil, nil // no remote, none configured: a one-clone repository
			}
			return nil, err
		}
		rep, err := memsync.Pull(ctx, o)
		return &rep, err
	}
}
