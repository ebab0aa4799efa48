package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/yoimem/git-yoimem/workspace"
)

// Input is what Run looks at: a configured workspace and the seams for
// the environment it is run in.
type Input struct {
	W *workspace.Workspace
	// Home is the user's home directory ("" when unknown: the local and
	// user scopes are not checked).
	Home string
	// Getenv reads the environment (API keys are checked for presence).
	Getenv func(string) string
	// Executable is this program's path: the helper is looked for beside
	// it first, as the bridge does ("" to skip).
	Executable string
	// Now is the time a background run that never finished is judged
	// by (nil: time.Now).
	Now func() time.Time
}

// Run makes every check. Only a failure to read what a check needs (git
// failing, a staging directory that cannot be listed) is an error; what
// is missing or out of date is a failed Check.
func Run(ctx context.Context, in Input) (Report, error) {
	var r Report
	for _, check := range []func(context.Context, Input, *Report) error{
		checkWorkspace, checkGitHooks, checkAgents, checkMCPApproval, checkModels, checkStaging, checkMemoryBranch, checkSync, checkUsage, checkSessions,
	} {
		if err := ctx.Err(); err != nil {
			return Report{}, err
		}
		if err := check(ctx, in, &r); err != nil {
			return Report{}, err
		}
	}
	if r.Agents == nil {
		r.Agents = []AgentScope{}
	}
	if r.Sessions == nil {
		r.Sessions = []SessionRun{}
	}
	return r, nil
}

// checkWorkspace: the records' directory is there.
func checkWorkspace(_ context.Context, in Input, r *Report) error {
	fi, err := os.Stat(in.W.YoiDir())
	switch {
	case err == nil && fi.IsDir():
		where := "at the top level"
		if in.W.Root != in.W.Repo.TopLevel {
			where = "in " + show(in.W.Repo.TopLevel, in.W.Root)
		}
		r.ok("memory", ".yoi/ "+where)
	case err == nil || errors.Is(err, fs.ErrNotExist):
		r.problem("memory", "no .yoi/ in this repository", "git yoimem init")
	default:
		return fmt.Errorf("inspect %s: %w", in.W.YoiDir(), err)
	}
	return nil
}

func (r *Report) ok(name, detail string) {
	r.Checks = append(r.Checks, Check{Name: name, OK: true, Detail: detail})
}

func (r *Report) problem(name, detail, fix string) {
	r.Checks = append(r.Checks, Check{Name: name, Detail: detail, Fix: fix})
}

// show is p relative to the top level when below it, slash-separated.
func show(top, p string) string {
	if rel, err := filepath.Rel(top, p); err == nil && filepath.IsLocal(rel) {
		return filepath.ToSlash(rel)
	}
	return p
}

// executable tells whether p is a regular file someone may run.
func executable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode().Perm()&0o111 != 0
}
