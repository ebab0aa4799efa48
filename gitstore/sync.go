package gitstore

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// MergeFunc merges a file changed on both sides: base is the version
// both started from, ours the one being built on (the remote's), theirs
// the one being replayed — as git rebase names them. nil for a side that
// has no file. A conflict is reported, not an error.
type MergeFunc func(path string, base, ours, theirs []byte) (merged []byte, conflict bool, err error)

// IntegrateRequest brings a fetched remote memory tip into the local
// memory branch.
type IntegrateRequest struct {
	Theirs string // the remote's memory tip; "" when the remote has none
	// From names the remote's branch in messages, e.g. origin/yoimem/memory.
	From  string
	Merge MergeFunc
	// MaxRead bounds each blob read for a merge (0: DefaultMaxNote).
	MaxRead int64
	// Check, if set, judges the replayed tip before the branch moves to
	// it: the paths the replay changed from the remote's tip (changed and
	// deleted, from the top level). Problems it returns leave the branch
	// as it was, as conflicts.
	Check func(ctx context.Context, tip string, changed, deleted []string) ([]Conflict, error)
	// Who writes the reflog entry and, when the remote's branch was
	// merged into the base, the commit recording it.
	Who Signature
}

// Integration is how the local memory branch came to hold the remote's.
type Integration string

// Integrations.
const (
	NoRemoteBranch Integration = "no_remote_branch" // the remote has no memory branch
	UpToDate       Integration = "up_to_date"       // both are the same commit
	Ahead          Integration = "ahead"            // ours has theirs: nothing to bring in
	Created        Integration = "created"          // there was no local branch: it is theirs now
	FastForward    Integration = "fast_forward"     // ours was behind: it is theirs now
	Replayed       Integration = "replayed"         // ours diverged: our commits were replayed onto theirs
	Superseded     Integration = "superseded"       // theirs was squash- or rebase-merged into the base: a merge commit records it, our tree kept
	Conflicted     Integration = "conflict"         // ours diverged and a change could not be merged: nothing moved
)

// Rewritten is a local commit and its replayed copy.
type Rewritten struct {
	Old, New string
}

// Conflict is a change that could not be replayed.
type Conflict struct {
	Commit string // the local commit whose change it is ("" for a check of the result)
	Path   string // from the top level
	Reason string
}

// IntegrateResult says what Integrate did.
type IntegrateResult struct {
	Outcome       Integration
	Before, After string // the local tip before and after
	Replayed      []Rewritten
	// Merged are the paths both sides changed, merged by the MergeFunc;
	// Kept those one side deleted and the other changed: the changed
	// version was kept, so that nothing is lost.
	Merged, Kept []string
	Conflicts    []Conflict
}

// Integrate brings the remote's memory tip into the memory branch, under
// the memory-branch lock: a fast-forward when ours is behind; when both
// moved, our memory commits (those neither theirs nor the base has) are
// replayed onto theirs one by one, keeping their messages, authors and
// trailers, files changed on both sides going through req.Merge. Nothing
// of ours is dropped: a change that does not merge leaves the branch as
// it was and is reported (Conflicted). The branch moves by compare-and-
// swap, with a reflog entry that says why.
func (m *MemoryBranch) Integrate(ctx context.Context, req IntegrateRequest) (IntegrateResult, error) {
	if err := CheckBranchName(m.Branch); err != nil {
		return IntegrateResult{}, err
	}
	unlock, err := m.lock(ctx)
	if err != nil {
		return IntegrateResult{}, err
	}
	defer unlock()
	tip, err := m.Objects.RefHash(m.Ref())
	if err != nil {
		return IntegrateResult{}, err
	}
	res := IntegrateResult{Before: tip, After: tip}
	theirs := req.Theirs
	switch {
	case theirs == "":
		res.Outcome = NoRemoteBranch
		return res, nil
	case tip == theirs:
		res.Outcome = UpToDate
		return res, nil
	case tip == "":
		res.Outcome = Created
		return m.moveTo(ctx, res, theirs, "yoimem: sync: created from "+req.From, req.Who)
	}
	if in, err := m.isAncestor(ctx, theirs, tip); err != nil || in {
		res.Outcome = Ahead
		return res, err
	}
	if in, err := m.isAncestor(ctx, tip, theirs); err != nil || in {
		res.Outcome = FastForward
		if err != nil {
			return res, err
		}
		return m.moveTo(ctx, res, theirs, "yoimem: sync: fast-forward to "+req.From, req.Who)
	}
	return m.integrateDiverged(ctx, res, req)
}

func (m *MemoryBranch) integrateDiverged(ctx context.Context, res IntegrateResult, req IntegrateRequest) (IntegrateResult, error) {
	tip, theirs := res.Before, req.Theirs
	base := ""
	if m.Base != "" {
		var err error
		if base, err = m.Objects.RefHash(m.Base); err != nil {
			return res, err
		}
	}
	if base != "" {
		mp, err := m.mergedUpTo(ctx, theirs, base)
		if err != nil {
			return res, fmt.Errorf("is %s merged into %s: %w", req.From, m.Base, err)
		}
		if mp.upTo == theirs {
			return m.supersede(ctx, res, req, base)
		}
	}
	ours, err := m.ownCommits(ctx, tip, theirs, base)
	if err != nil {
		return res, err
	}
	if len(ours) == 0 {
		// Everything of ours is in theirs or in the base already.
		res.Outcome = FastForward
		return m.moveTo(ctx, res, theirs, "yoimem: sync: took "+req.From+" (the local commits are in it or in "+m.Base+")", req.Who)
	}
	newTip, ok, err := m.replayOnto(ctx, &res, req, theirs, ours)
	if !ok {
		return res, err
	}
	res.Outcome = Replayed
	msg := fmt.Sprintf("yoimem: sync: replayed %d commit(s) onto %s (old tip %s)", len(ours), req.From, abbrev(tip))
	return m.moveTo(ctx, res, newTip, msg, req.Who)
}

// conflicted is a replay that does not move the branch: the copies it
// wrote are reached by nothing, so none is reported (the notes of our
// commits stay on them), nor what was merged into them.
func conflicted(res IntegrateResult, conflicts []Conflict) IntegrateResult {
	res = unreplayed(res)
	res.Outcome, res.Conflicts = Conflicted, conflicts
	return res
}

// replayOnto replays our commits onto onto and judges the result with
// req.Check. ok is false when it stopped: on a conflict or a problem
// (res is then conflicted), or on err (res unreplayed).
func (m *MemoryBranch) replayOnto(ctx context.Context, res *IntegrateResult, req IntegrateRequest, onto string, ours []string) (string, bool, error) {
	r := replayer{m: m, req: req, res: res}
	r.req.Theirs = onto
	newTip, err := r.replayAll(ctx, ours)
	switch {
	case err != nil:
		*res = unreplayed(*res)
		return "", false, err
	case len(res.Conflicts) > 0:
		*res = conflicted(*res, res.Conflicts)
		return "", false, nil
	case req.Check == nil:
		return newTip, true, nil
	}
	changed, deleted, err := m.pathsBetween(ctx, onto, newTip)
	if err != nil {
		*res = unreplayed(*res)
		return "", false, err
	}
	problems, err := req.Check(ctx, newTip, changed, deleted)
	if err != nil {
		*res = unreplayed(*res)
		return "", false, err
	}
	if len(problems) > 0 {
		*res = conflicted(*res, problems)
		return "", false, nil
	}
	return newTip, true, nil
}

// unreplayed is res with nothing done: the branch stays where it was,
// and no outcome, replayed commit or merged path claims otherwise.
func unreplayed(res IntegrateResult) IntegrateResult {
	res.Outcome, res.After = "", res.Before
	res.Replayed, res.Merged, res.Kept = nil, nil, nil
	return res
}

// supersede records theirs, which the base holds by a squash or rebase
// merge, as the second parent of a commit whose first parent is the base
// tip with our memory commits (those neither theirs nor the base has)
// replayed onto it: the remote's branch then fast-forwards to ours,
// nothing of it is brought back, and the records the base holds are the
// base's, not the older versions our commits were made on.
func (m *MemoryBranch) supersede(ctx context.Context, res IntegrateResult, req IntegrateRequest, base string) (IntegrateResult, error) {
	ours, err := m.ownCommits(ctx, res.Before, req.Theirs, base)
	if err != nil {
		return res, err
	}
	onto := base
	if len(ours) > 0 {
		newTip, ok, err := m.replayOnto(ctx, &res, req, base, ours)
		if !ok {
			return res, err
		}
		onto = newTip
		// A commit already on the base tip is its own copy: not rewritten.
		kept := res.Replayed[:0]
		for _, rw := range res.Replayed {
			if rw.Old != rw.New {
				kept = append(kept, rw)
			}
		}
		res.Replayed = kept
	}
	tree, err := m.Objects.commitTree(plumbing.NewHash(onto))
	if err != nil {
		return unreplayed(res), err
	}
	sig := object.Signature{Name: identity(req.Who.Name), Email: identity(req.Who.Email), When: req.Who.When}
	msg := fmt.Sprintf("yoimem: sync: %s is merged into %s\n\nIts changes reached %s by a squash or rebase merge; this commit records\nit as merged, so that the remote branch moves on without a force-push.\nThe tree is %s's with the local memory commits it lacked replayed onto it.\n", req.From, m.Base, m.Base, m.Base)
	c := &object.Commit{Author: sig, Committer: sig, Message: msg, TreeHash: tree,
		ParentHashes: []plumbing.Hash{plumbing.NewHash(onto), plumbing.NewHash(req.Theirs)}}
	h, err := m.Objects.writeCommit(c)
	if err != nil {
		return unreplayed(res), err
	}
	res.Outcome = Superseded
	return m.moveTo(ctx, res, h.String(), "yoimem: sync: "+req.From+" is merged into "+m.Base, req.Who)
}

// CheckedOutError is a memory branch that sync would move while a
// worktree has it checked out: its files and index would no longer be
// the branch's, and a commit there would undo what sync brought in.
type CheckedOutError struct {
	Branch, Worktree string
}

func (e *CheckedOutError) Error() string {
	return fmt.Sprintf("%s is checked out in %s; sync does not move a branch under a worktree", e.Branch, e.Worktree)
}

// moveTo swaps the branch from res.Before to newTip, unless a worktree
// has it checked out (*CheckedOutError; nothing moves). When it does not
// move, the result says nothing was done.
func (m *MemoryBranch) moveTo(ctx context.Context, res IntegrateResult, newTip, reflog string, who Signature) (IntegrateResult, error) {
	if res.Before != "" {
		wt, err := checkedOutIn(ctx, m.Repo, m.Ref())
		if err != nil {
			return unreplayed(res), err
		}
		if wt != "" {
			return unreplayed(res), &CheckedOutError{Branch: m.Branch, Worktree: wt}
		}
	}
	if err := swapRef(ctx, m.Repo, m.Objects, m.Ref(), newTip, res.Before, reflog, who); err != nil {
		if errors.Is(err, errRefMoved) {
			err = fmt.Errorf("%s moved during the sync (another writer outside git-yoimem); run it again: %w", m.Ref(), err)
		}
		return unreplayed(res), err
	}
	res.After = newTip
	return res, nil
}

// isAncestor: is a an ancestor of b (or b itself)?
func (m *MemoryBranch) isAncestor(ctx context.Context, a, b string) (bool, error) {
	return isAncestorIn(ctx, m.Repo, m.Objects, a, b)
}

// ownCommits are the local commits to replay, oldest first: those neither
// theirs nor the base has, merges left out (as git rebase does: their
// other parents are in theirs or the base).
func (m *MemoryBranch) ownCommits(ctx context.Context, tip, theirs, base string) ([]string, error) {
	args := []string{"rev-list", "--reverse", "--topo-order", "--no-merges", tip, "^" + theirs}
	if base != "" {
		args = append(args, "^"+base)
	}
	out, err := m.Repo.Git.Run(ctx, append(args, "--")...)
	if err != nil {
		return nil, fmt.Errorf("the commits of %s not in %s: %w", m.Ref(), abbrev(theirs), err)
	}
	return strings.Fields(string(out)), nil
}

// pathsBetween lists the paths that differ between two commits.
func (m *MemoryBranch) pathsBetween(ctx context.Context, from, to string) (changed, deleted []string, err error) {
	diff, err := m.changedPaths(ctx, from, to)
	if err != nil {
		return nil, nil, err
	}
	for p, e := range diff {
		if e.hash.IsZero() {
			deleted = append(deleted, p)
		} else {
			changed = append(changed, p)
		}
	}
	sort.Strings(changed)
	sort.Strings(deleted)
	return changed, deleted, nil
}

// checkedOutIn names the worktree that has ref checked out ("" : none).
func checkedOutIn(ctx context.Context, r Repo, ref string) (string, error) {
	out, err := r.Git.Run(ctx, "worktree", "list", "--porcelain", "-z")
	if err != nil {
		return "", fmt.Errorf("list the worktrees: %w", err)
	}
	wt := ""
	for _, field := range strings.Split(string(out), "\x00") {
		switch {
		case strings.HasPrefix(field, "worktree "):
			wt = strings.TrimPrefix(field, "worktree ")
		case field == "branch "+ref:
			return wt, nil
		}
	}
	return "", nil
}
