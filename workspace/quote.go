package workspace

import (
	"context"
	"path/filepath"
	"strings"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
)

// PathQuoter prints names as git prints paths (see internal/quote). It
// asks git for core.quotePath only when a name has a non-ASCII byte, so
// that ordinary output costs no git process.
type PathQuoter struct {
	ctx      context.Context
	git      gitstore.Git
	asked    bool
	nonASCII bool
}

// PathQuoter quotes paths as the repository's git would.
func (w *Workspace) PathQuoter(ctx context.Context) *PathQuoter {
	return &PathQuoter{ctx: ctx, git: w.Repo.Git}
}

// Path quotes name when it has to be.
func (q *PathQuoter) Path(name string) string {
	if !quote.Needs(name, true) {
		return name
	}
	if !q.asked {
		q.asked, q.nonASCII = true, true
		out, err := q.git.Run(q.ctx, "config", "--type=bool", "--get", "core.quotePath")
		if err == nil && strings.TrimSpace(string(out)) == "false" {
			q.nonASCII = false
		}
	}
	return quote.Path(name, q.nonASCII)
}

// RelToDir shows abs relative to dir, with ../ for what lies above it, as
// git prints paths from a subdirectory. dir may reach the repository
// through a symbolic link; it is resolved when that gives a shorter path.
func RelToDir(dir, abs string) string {
	rel, err := filepath.Rel(dir, abs)
	if real, rerr := filepath.EvalSymlinks(dir); rerr == nil && real != dir {
		if r2, err2 := filepath.Rel(real, abs); err2 == nil && (err != nil || len(r2) < len(rel)) {
			rel, err = r2, nil
		}
	}
	if err != nil {
		return abs
	}
	return rel
}
