package consolidate

import (
	"errors"
	"strings"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/record"
)

// LockedPaths are the records no run may change: those whose file in the
// working tree's .yoi/ under root is read-only (the owner's write bit:
// the user's lock, which git trees do not keep), and those the configured
// locks (yoimem.consolidate.locked: paths or path.Match patterns, as
// printed or .yoi/-relative) name or match, among the records of the
// working tree and of the base (record.Locked). It also returns the clean
// patterns, which lock paths that have no record yet.
func LockedPaths(root string, base record.Snapshot, configured []string) (map[string]bool, []string, error) {
	locks, err := record.NewLocks(configured)
	if err != nil {
		return nil, nil, err
	}
	locked := record.Locked(base, locks)
	for _, p := range locks {
		if !strings.ContainsAny(p, `*?[\`) && record.Classify(p).Area == record.AreaRecord {
			locked[p] = true // a record that does not exist yet
		}
	}
	snap, err := gitstore.WorktreeSnapshotOf(root, 0, "memory", record.KnowledgeDir)
	if errors.Is(err, gitstore.ErrNoYoi) {
		return locked, locks, nil
	}
	if err != nil {
		return nil, nil, err
	}
	for p := range record.Locked(snap, locks) {
		locked[p] = true
	}
	return locked, locks, nil
}

// matchLock reports whether a configured lock matches rel or a directory
// it is in (record.Locks.Match).
func matchLock(patterns []string, rel string) bool { return record.Locks(patterns).Match(rel) }
