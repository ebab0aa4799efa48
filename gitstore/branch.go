package gitstore

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/yoimem/git-yoimem/internal/lockfile"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
	"github.com/yoimem/git-yoimem/record"
)

// ErrLocked means another process holds the memory-branch lock.
var ErrLocked = errors.New("the memory branch is locked by another git-yoimem process")

// ErrNoBase means no base branch could be found for the memory branch.
var ErrNoBase = errors.New("no base branch")

// ErrNoChange means the change set leaves the tree as it is; nothing was
// committed.
var ErrNoChange = errors.New("nothing to commit: the memory is already as the change set would make it")

// Signature is who made a commit and when.
type Signature struct {
	Name, Email string
	When        time.Time
}

// MemoryBranch commits change sets to the memory branch without touching
// the working tree, the index or HEAD.
type MemoryBranch struct {
	Repo    Repo
	Objects *Objects
	Branch  string // short name, e.g. yoimem/memory
	Base    string // full ref of the base branch, e.g. refs/heads/main
	Prefix  string // .yoi/ relative to the top level, e.g. ".yoi"
	// LockTimeout bounds the wait for the cross-process lock (0: 30 s).
	LockTimeout time.Duration
	// MaxAttempts bounds compare-and-swap retries (0: 5).
	MaxAttempts int

	beforeSwap func(attempt int) // test seam: runs between building and swapping
}

// CommitRequest is one memory commit.
type CommitRequest struct {
	Changes *record.ChangeSet
	Message string
	Author  Signature
	// ExpectParent, when set, is the commit the change set was planned
	// on: a commit that would be written on another parent is refused
	// with a *ParentMovedError, nothing written.
	ExpectParent string
}

// CommitResult says what was committed.
type CommitResult struct {
	Commit   string // new tip
	Parent   string // its parent ("" for a root commit)
	Previous string // the branch tip before ("" when the branch was new)
	// Restarted says why the commit was built on the base tip and not on
	// Previous, which the base holds by a squash or rebase merge (so the
	// branch moved without a fast-forward); empty otherwise.
	Restarted string
	Attempts  int
}

// Ref is the memory branch's full ref name.
func (m *MemoryBranch) Ref() string { return "refs/heads/" + m.Branch }

// Commit writes the change set as one commit on the memory branch. The
// parent is the branch tip while it is not merged into the base, else the
// base tip; the tree is the parent's with only the paths on the change
// rewritten. The ref moves by compare-and-swap (git update-ref, which
// honours git's own ref locks and writes the reflog), under a lock that
// serializes git-yoimem writers; a swap lost to another writer is retried
// from the new tip.
func (m *MemoryBranch) Commit(ctx context.Context, req CommitRequest) (CommitResult, error) {
	if err := CheckBranchName(m.Branch); err != nil {
		return CommitResult{}, err
	}
	unlock, err := m.lock(ctx)
	if err != nil {
		return CommitResult{}, err
	}
	defer unlock()
	edits, err := m.Objects.editsFor(req.Changes, m.Prefix)
	if err != nil {
		return CommitResult{}, err
	}
	attempts := m.MaxAttempts
	if attempts <= 0 {
		attempts = 5
	}
	var lastErr error
	for i := 1; i <= attempts; i++ {
		res, err := m.try(ctx, req, edits, i)
		if err == nil || !errors.Is(err, errRefMoved) {
			res.Attempts = i
			return res, err
		}
		lastErr = err
		select { // another writer (git's lock, or a move): give it a moment
		case <-ctx.Done():
			return CommitResult{}, ctx.Err()
		case <-time.After(time.Duration(i*i) * 10 * time.Millisecond):
		}
	}
	return CommitResult{}, fmt.Errorf("%s kept moving during %d attempts: %w", m.Ref(), attempts, lastErr)
}

var errRefMoved = errors.New("ref moved")

func (m *MemoryBranch) try(ctx context.Context, req CommitRequest, edits []treeEdit, attempt int) (CommitResult, error) {
	tip, base, err := m.tips(ctx)
	if err != nil {
		return CommitResult{}, err
	}
	// Whether the tip is merged may take a git process; meanwhile build on
	// the tip, the usual parent, and build again on the base if it is.
	type choice struct {
		parent, restart string
		err             error
	}
	decided := make(chan choice, 1)
	go func() {
		p, why, err := m.parent(ctx, tip, base)
		decided <- choice{p, why, err}
	}()
	guess := tip
	if guess == "" {
		guess = base
	}
	tree, parentTree, buildErr := m.buildOn(guess, edits)
	ch := <-decided
	if ch.err != nil {
		return CommitResult{}, ch.err
	}
	parent := ch.parent
	if req.ExpectParent != "" && parent != req.ExpectParent {
		return CommitResult{}, &ParentMovedError{Ref: m.Ref(), Expected: req.ExpectParent, Parent: parent}
	}
	if parent != guess {
		tree, parentTree, buildErr = m.buildOn(parent, edits)
	}
	if buildErr != nil {
		return CommitResult{}, buildErr
	}
	if tree == parentTree {
		// Nothing to say: the parent (tip or base) already is this memory.
		return CommitResult{Commit: tip, Parent: parent, Previous: tip}, ErrNoChange
	}
	sig := object.Signature{Name: identity(req.Author.Name), Email: identity(req.Author.Email), When: req.Author.When}
	c := &object.Commit{Author: sig, Committer: sig, Message: req.Message, TreeHash: tree}
	if parent != "" {
		c.ParentHashes = []plumbing.Hash{plumbing.NewHash(parent)}
	}
	h, err := m.Objects.writeCommit(c)
	if err != nil {
		return CommitResult{}, err
	}
	if m.beforeSwap != nil {
		m.beforeSwap(attempt)
	}
	if err := m.swap(ctx, h.String(), tip, req.Message, ch.restart, req.Author); err != nil {
		return CommitResult{}, err
	}
	return CommitResult{Commit: h.String(), Parent: parent, Previous: tip, Restarted: ch.restart}, nil
}

// buildOn applies the edits to a commit's tree ("" : the empty tree) and
// returns the new tree and the parent's.
func (m *MemoryBranch) buildOn(parent string, edits []treeEdit) (tree, parentTree plumbing.Hash, err error) {
	if parent != "" {
		if parentTree, err = m.Objects.commitTree(plumbing.NewHash(parent)); err != nil {
			return plumbing.ZeroHash, plumbing.ZeroHash, err
		}
	}
	if tree, err = m.Objects.applyEdits(parentTree, edits); err != nil {
		return plumbing.ZeroHash, plumbing.ZeroHash, fmt.Errorf("build tree for %s: %w", m.Ref(), err)
	}
	if tree.IsZero() && !parentTree.IsZero() {
		if tree, err = m.Objects.writeTree(nil); err != nil {
			return plumbing.ZeroHash, plumbing.ZeroHash, err
		}
	}
	return tree, parentTree, nil
}

// tips reads the memory branch and base tips (refs are read directly:
// a git call here would cost more than the rest of a small commit).
func (m *MemoryBranch) tips(_ context.Context) (tip, base string, err error) {
	if tip, err = m.Objects.RefHash(m.Ref()); err != nil {
		return "", "", err
	}
	if m.Base == "" {
		return tip, "", nil
	}
	if base, err = m.Objects.RefHash(m.Base); err != nil {
		return "", "", err
	}
	if base == "" {
		return "", "", fmt.Errorf("base %s: %w (it does not exist)", m.Base, ErrNoBase)
	}
	return tip, base, nil
}

// parent: the memory tip while it is not merged into the base, else the
// base tip. restart is set when the tip is left behind though no ancestor
// of the base, because a squash or rebase merge put its changes there: it
// says why, for the reflog.
func (m *MemoryBranch) parent(ctx context.Context, tip, base string) (parent, restart string, err error) {
	a, err := m.ancestry(ctx, tip, base)
	switch {
	case err != nil:
		return "", "", err
	case a == tipInBase:
		return base, "", nil
	case a == tipAhead:
		return tip, "", nil
	}
	return m.afterDivergence(ctx, tip, base)
}

// ancestry is how the memory tip stands to the base tip.
type ancestry int

const (
	tipAhead    ancestry = iota // not merged, and the base has not moved past the fork point (or there is no base)
	tipInBase                   // an ancestor of the base (or there is no tip): merged
	tipDiverged                 // not an ancestor, and the base moved on: merged only if its changes are there
)

// ancestry tells whether the memory tip is an ancestor of the base.
func (m *MemoryBranch) ancestry(ctx context.Context, tip, base string) (ancestry, error) {
	switch {
	case tip == "":
		return tipInBase, nil
	case base == "" || tip == base:
		return tipAhead, nil
	}
	// Usually decided by a short walk back from the base over commits no
	// older than the tip (less a day of skew); past 8 commits git answers (its
	// commit-graph beats a longer walk). A
	// clock skewed by more than a day can make a merged tip look unmerged:
	// the commit then builds on the tip, which is already in the base, so
	// the branch stays correct, only not refreshed from the base.
	// The base not having moved past what the memory was built on (the
	// base is an ancestor of the tip) settles it without git: the tip is
	// not merged. That walk covers only memory commits.
	if found, _, err := m.Objects.reaches(plumbing.NewHash(tip), plumbing.NewHash(base), 32); err == nil && found {
		return tipAhead, nil
	}
	if found, decided, err := m.Objects.reaches(plumbing.NewHash(base), plumbing.NewHash(tip), 8); err == nil && decided {
		if found {
			return tipInBase, nil
		}
		return tipDiverged, nil
	}
	_, err := m.Repo.Git.Run(ctx, "merge-base", "--is-ancestor", tip, base)
	var ge *Error
	switch {
	case err == nil:
		return tipInBase, nil // merged: start again from the base
	case errors.As(err, &ge) && ge.ExitCode == 1:
		return tipDiverged, nil
	}
	return tipAhead, fmt.Errorf("is %s merged into %s: %w", m.Ref(), m.Base, err)
}

// abbrev shortens a commit hash for a message.
func abbrev(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}

// swap moves the branch from old (empty: must not exist) to new; the
// reflog line is the commit subject, and why the branch restarted from
// the base when it did (a move that is no fast-forward).
func (m *MemoryBranch) swap(ctx context.Context, newHash, old, msg, restart string, who Signature) error {
	subject, _, _ := strings.Cut(msg, "\n")
	line := "yoimem: " + strings.TrimPrefix(subject, "yoimem: ")
	if restart != "" {
		line += " (" + restart + ")"
	}
	return swapRef(ctx, m.Repo, m.Objects, m.Ref(), newHash, old, line, who)
}

// swapRef moves ref from old (empty: must not exist) to new: with git's
// lock-file protocol on the files backend, else with git update-ref. A
// ref that moved meanwhile is errRefMoved.
func swapRef(ctx context.Context, r Repo, objs *Objects, ref, newHash, old, reflogMsg string, who Signature) error {
	perm, err := objs.sharedPerm()
	if err != nil {
		return fmt.Errorf("move %s: %w", ref, err)
	}
	err = swapRefFile(r.CommonDir, perm, ref, newHash, old, reflogMsg, who)
	if !errors.Is(err, errNotFilesBackend) {
		return err
	}
	if old == "" {
		old = plumbing.ZeroHash.String()
	}
	_, err = r.Git.Run(ctx, "update-ref", "--create-reflog", "-m", reflogMsg, ref, newHash, old)
	if err == nil {
		return nil
	}
	now, rerr := objs.RefHash(ref)
	if rerr == nil && now != strings.TrimPrefix(old, plumbing.ZeroHash.String()) {
		return fmt.Errorf("%w: %v", errRefMoved, err)
	}
	return fmt.Errorf("move %s to %s: %w", ref, newHash, err)
}

// lock takes the cross-process writer lock in the common git directory
// (not a *.lock name git uses). It is an flock (internal/lockfile),
// released by the kernel when the holder dies, so a crash leaves no stale
// lock.
func (m *MemoryBranch) lock(ctx context.Context) (func(), error) {
	perm, err := m.Objects.sharedPerm()
	if err != nil {
		return nil, fmt.Errorf("lock %s: %w", m.Ref(), err)
	}
	l := lockfile.New(filepath.Join(m.Repo.CommonDir, "yoimem", "memory-branch.flock"), lockfile.Shared(sharedperm.Fixed(perm)))
	timeout := m.LockTimeout
	if timeout <= 0 {
		timeout = 30 * time.Second
	}
	err = l.Acquire(ctx, timeout)
	switch {
	case errors.Is(err, lockfile.ErrHeld):
		return nil, fmt.Errorf("%s: %w (waited %s)", l.Path(), ErrLocked, timeout)
	case err != nil:
		return nil, err
	}
	return func() { _ = l.Unlock() }, nil
}

// ResolveBase finds the base branch: the configured name (a local branch,
// else origin's), else origin/HEAD's branch, else init.defaultBranch, else
// main or master. It returns a full ref name.
func ResolveBase(ctx context.Context, r Repo, configured string) (string, error) {
	return ResolveBaseIn(ctx, r, nil, configured)
}

// ResolveBaseIn is ResolveBase reading refs through objs when it is set
// (no git process per ref looked at); git answers what objs cannot (a
// ref backend it does not read), and init.defaultBranch is asked only
// when origin/HEAD names no branch that exists.
func ResolveBaseIn(ctx context.Context, r Repo, objs *Objects, configured string) (string, error) {
	if format, err := repoExtension(r.CommonDir, "refstorage"); err != nil || (format != "" && format != "files") {
		objs = nil // reftable: only git reads those refs
	}
	exists := func(ref string) bool {
		if objs != nil {
			if h, err := objs.RefHash(ref); err == nil {
				return h != ""
			}
		}
		_, err := r.Git.Run(ctx, "show-ref", "--verify", "--quiet", ref)
		return err == nil
	}
	pick := func(name string) string {
		switch {
		case name == "":
			return ""
		case strings.HasPrefix(name, "refs/") && exists(name):
			return name
		case exists("refs/heads/" + name):
			return "refs/heads/" + name
		case exists("refs/remotes/origin/" + name):
			return "refs/remotes/origin/" + name
		case exists("refs/remotes/" + name): // "origin/main"
			return "refs/remotes/" + name
		}
		return ""
	}
	if configured != "" {
		if ref := pick(configured); ref != "" {
			return ref, nil
		}
		return "", fmt.Errorf("yoimem.baseBranch %q: %w (no such local or origin branch)", configured, ErrNoBase)
	}
	if out, err := r.Git.Run(ctx, "symbolic-ref", "-q", "refs/remotes/origin/HEAD"); err == nil {
		if ref := pick(strings.TrimPrefix(strings.TrimSpace(string(out)), "refs/remotes/origin/")); ref != "" {
			return ref, nil
		}
	}
	if out, err := r.Git.Run(ctx, "config", "init.defaultBranch"); err == nil {
		if ref := pick(strings.TrimSpace(string(out))); ref != "" {
			return ref, nil
		}
	}
	for _, name := range []string{"main", "master"} {
		if ref := pick(name); ref != "" {
			return ref, nil
		}
	}
	return "", fmt.Errorf("%w: no origin/HEAD, init.defaultBranch, main or master branch", ErrNoBase)
}

// identity drops what would break a commit header or reflog line: angle
// brackets and line breaks (git's strbuf_addstr_without_crud does the same).
func identity(s string) string {
	s = strings.Map(func(r rune) rune {
		switch r {
		case '<', '>', '\n', '\r', 0:
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// CheckBranchName applies git's refname rules (check-ref-format) to a
// branch name: the memory branch comes from configuration, and a name git
// does not accept would be a ref git cannot see, whose commits gc deletes.
func CheckBranchName(name string) error {
	bad := func(why string) error { return fmt.Errorf("branch name %s: %s", quote.Value(name), why) }
	switch {
	case name == "" || name == "@":
		return bad("empty or @")
	case strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") || strings.HasSuffix(name, "."):
		return bad("starts or ends with / or ends with .")
	case strings.Contains(name, "..") || strings.Contains(name, "@{") || strings.Contains(name, "//"):
		return bad("contains .., @{ or //")
	case strings.HasPrefix(name, "-"):
		return bad("starts with -")
	}
	for _, r := range name {
		if r < 0x20 || r == 0x7f || strings.ContainsRune(" ~^:?*[\\", r) {
			return bad(fmt.Sprintf("contains %q", r))
		}
	}
	for _, comp := range strings.Split(name, "/") {
		if strings.HasPrefix(comp, ".") || strings.HasSuffix(comp, ".lock") {
			return bad("a component starts with . or ends with .lock")
		}
	}
	return nil
}
