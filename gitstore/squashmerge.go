package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
)

// squashScanLimit bounds how many base commits since the fork point are
// searched for the memory branch's changes: a squash or rebase merge
// older than that is not recognised, and the memory tip stays the parent
// (safe: nothing is lost, the branch is only not refreshed from the base).
const squashScanLimit = 1000

// yoiEntry is a path's blob and mode in a tree; a zero hash is no file.
type yoiEntry struct {
	hash plumbing.Hash
	mode filemode.FileMode
}

// forkPoint is the merge base of the memory tip and the base ("" when
// they have no history in common).
func (m *MemoryBranch) forkPoint(ctx context.Context, tip, base string) (string, error) {
	out, err := m.Repo.Git.Run(ctx, "merge-base", tip, base)
	var ge *Error
	switch {
	case errors.As(err, &ge) && ge.ExitCode == 1:
		return "", nil
	case err != nil:
		return "", fmt.Errorf("fork point of %s and %s: %w", m.Ref(), m.Base, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// squashMerged reports whether every change commit `upTo` of the memory
// branch made since the fork point (net) is in one of the base commits
// (baseSince): each changed path has there upTo's blob and mode, or is
// absent where upTo deleted it. For the tip that is a squash merge or a
// rebase merge (cherry-picks) of the whole branch, whose tip is then no
// ancestor of the base. It names the base commit found ("" when none).
func (m *MemoryBranch) squashMerged(ctx context.Context, fork, upTo string, commits []string) (string, error) {
	changed, err := m.changedPaths(ctx, fork, upTo)
	if err != nil || len(changed) == 0 {
		return "", err
	}
	for _, c := range commits {
		ok, err := m.holds(plumbing.NewHash(c), changed)
		if err != nil || ok {
			return c, err
		}
	}
	return "", nil
}

// baseSince lists the base commits since the fork point that may hold
// the memory branch's changes, newest first: those that changed .yoi/
// when the branch changed nothing else (a later commit holding a .yoi/
// state has it from one of them), else all; at most squashScanLimit.
func (m *MemoryBranch) baseSince(ctx context.Context, fork, tip, base string) ([]string, error) {
	changed, err := m.changedPaths(ctx, fork, tip)
	if err != nil {
		return nil, err
	}
	args := []string{"rev-list", "--max-count=" + strconv.Itoa(squashScanLimit), base, "^" + fork, "--"}
	if m.within(changed) {
		args = append(args, m.Prefix)
	}
	out, err := m.Repo.Git.Run(ctx, args...)
	if err != nil {
		return nil, fmt.Errorf("commits of %s since %s: %w", m.Base, fork, err)
	}
	return strings.Fields(string(out)), nil
}

// within reports whether every path is below the .yoi/ directory.
func (m *MemoryBranch) within(paths map[string]yoiEntry) bool {
	if m.Prefix == "" {
		return false
	}
	for p := range paths {
		if !strings.HasPrefix(p, m.Prefix+"/") {
			return false
		}
	}
	return true
}

// changedPaths is git diff-tree from one commit to another: each changed
// path (from the top level, anywhere, so that a commit made by hand on
// the memory branch is never counted as merged unless it is) with its
// blob and mode in `to`.
func (m *MemoryBranch) changedPaths(ctx context.Context, from, to string) (map[string]yoiEntry, error) {
	out, err := m.Repo.Git.Run(ctx, "diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", from, to, "--")
	if err != nil {
		return nil, fmt.Errorf("%s changes from %s to %s: %w", m.Ref(), from, to, err)
	}
	changed := map[string]yoiEntry{}
	fields := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	for i := 0; i+1 < len(fields); i += 2 {
		// ":old-mode new-mode old-hash new-hash status", then the path
		meta := strings.Fields(string(fields[i]))
		if len(meta) != 5 {
			return nil, fmt.Errorf("%s changes from %s to %s: unexpected git diff-tree line %q", m.Ref(), from, to, fields[i])
		}
		mode, err := strconv.ParseUint(meta[1], 8, 32)
		if err != nil || !plumbing.IsHash(meta[3]) {
			return nil, fmt.Errorf("%s changes from %s to %s: unexpected git diff-tree line %q", m.Ref(), from, to, fields[i])
		}
		e := yoiEntry{hash: plumbing.NewHash(meta[3]), mode: canonMode(filemode.FileMode(mode))}
		if e.hash.IsZero() {
			e.mode = 0
		}
		changed[string(fields[i+1])] = e
	}
	return changed, nil
}

// holds reports whether commit c's tree has every path as given.
func (m *MemoryBranch) holds(c plumbing.Hash, want map[string]yoiEntry) (bool, error) {
	root, err := m.Objects.commitTree(c)
	if err != nil {
		return false, err
	}
	for p, w := range want {
		got, err := m.Objects.entryAt(root, p)
		if err != nil {
			return false, fmt.Errorf("%s in commit %s: %w", p, c, err)
		}
		if got != w {
			return false, nil
		}
	}
	return true, nil
}

// entryAt finds the blob (or submodule, or link) at a slash path below a
// root tree; the zero entry when there is none.
func (o *Objects) entryAt(root plumbing.Hash, p string) (yoiEntry, error) {
	dir, name := path.Split(p)
	h := root
	if dir != "" {
		var err error
		if h, err = o.lookupTree(root, strings.TrimSuffix(dir, "/")); err != nil || h.IsZero() {
			return yoiEntry{}, err
		}
	}
	var found yoiEntry
	err := o.treeFiles(h, func(n string, mode filemode.FileMode, eh plumbing.Hash) error {
		if n == name && mode != filemode.Dir {
			found = yoiEntry{hash: eh, mode: mode}
		}
		return nil
	})
	return found, err
}
