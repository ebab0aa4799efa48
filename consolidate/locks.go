package consolidate

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/record"
)

// LockedPaths are the records no run may change: those whose file in the
// working tree's .yoi/ under root is read-only (the owner's write bit:
// the user's lock, which git trees do not keep), and those the configured
// locks (yoimem.consolidate.locked: paths or path.Match patterns, as
// printed or .yoi/-relative) name or match, among the records of the
// working tree and of the base. It also returns the clean patterns, which
// lock paths that have no record yet.
func LockedPaths(root string, base record.Snapshot, configured []string) (map[string]bool, []string, error) {
	patterns := make([]string, 0, len(configured))
	for _, p := range configured {
		c, err := cleanLockPattern(p)
		if err != nil {
			return nil, nil, fmt.Errorf("locked path %s: %w", quote.Value(p), err)
		}
		patterns = append(patterns, c)
	}
	locked := map[string]bool{}
	for _, p := range patterns {
		if !strings.ContainsAny(p, `*?[\`) && record.Classify(p).Area == record.AreaRecord {
			locked[p] = true // a record that does not exist yet
		}
	}
	for _, e := range base.Entries {
		if e.Mode == record.ModeRegular && record.Classify(e.Path).Area == record.AreaRecord && matchLock(patterns, e.Path) {
			locked[e.Path] = true
		}
	}
	snap, err := gitstore.WorktreeSnapshotOf(root, 0, "memory", record.KnowledgeDir)
	if errors.Is(err, gitstore.ErrNoYoi) {
		return locked, patterns, nil
	}
	if err != nil {
		return nil, nil, err
	}
	for _, e := range snap.Entries {
		if e.Mode == record.ModeRegular && record.Classify(e.Path).Area == record.AreaRecord && (e.ReadOnly || matchLock(patterns, e.Path)) {
			locked[e.Path] = true
		}
	}
	return locked, patterns, nil
}

// cleanLockPattern is a configured lock as the session matches it:
// without surrounding space, a leading ".yoi/" or a trailing "/"; a clean
// relative path (no "..", no absolute path) in path.Match's syntax, one
// a value. The same rules as the configuration key's (record.CleanLock).
func cleanLockPattern(p string) (string, error) {
	p = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(p), record.Dir+"/"), "/")
	if strings.ContainsAny(p, ", \t\r\n") {
		return "", errors.New("one path or pattern a value")
	}
	if _, err := record.CleanRel(p); err != nil {
		return "", err
	}
	if _, err := path.Match(p, ""); err != nil {
		return "", errors.New("bad pattern (path.Match syntax: * ? [a-z])")
	}
	return p, nil
}

// matchLock reports whether a pattern matches rel or a directory it is in.
func matchLock(patterns []string, rel string) bool {
	for _, p := range patterns {
		for q := rel; q != "." && q != "/" && q != ""; q = path.Dir(q) {
			if ok, _ := path.Match(p, q); ok {
				return true
			}
		}
	}
	return false
}
