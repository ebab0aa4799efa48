package record

import (
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/yoimem/git-yoimem/internal/quote"
)

// Locks are the lock patterns of yoimem.consolidate.locked: records no
// automated run may change, listed in .yoi/config so that the lock travels
// with the repository (git trees keep no write bit). Each is a path or a
// path.Match pattern relative to .yoi/ ("knowledge/retry.md",
// "memory/decisions/db-*.md"); a pattern that matches a directory locks
// everything under it ("memory/requests"). Patterns are clean (CleanLock).
type Locks []string

// CleanLock validates one lock pattern as people type it and returns its
// clean form: surrounding space and a leading ".yoi/" or trailing "/"
// removed; then no absolute path, "..", empty or "." element, backslash,
// or malformed pattern, and one path or pattern a value (no space or
// comma inside: a list is one value per line, git config --add).
func CleanLock(p string) (string, error) {
	p = strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(p), Dir+"/"), "/")
	switch {
	case p == "":
		return "", errors.New("empty path")
	case strings.ContainsAny(p, ", \t\r\n"):
		return "", fmt.Errorf("%s: one path or pattern a value; list more with one line each (git config --add)", quote.Value(p))
	}
	if _, err := CleanRel(p); err != nil {
		return "", err
	}
	if _, err := path.Match(p, ""); err != nil {
		return "", fmt.Errorf("%s: bad pattern (path.Match syntax: * ? [a-z])", quote.Value(p))
	}
	return p, nil
}

// NewLocks cleans patterns; the first bad one is an error naming it.
func NewLocks(patterns []string) (Locks, error) {
	out := make(Locks, 0, len(patterns))
	for _, p := range patterns {
		c, err := CleanLock(p)
		if err != nil {
			return nil, fmt.Errorf("lock %s: %w", quote.Value(p), err)
		}
		out = append(out, c)
	}
	return out, nil
}

// Match reports whether a .yoi/-relative path is locked: a pattern matches
// it or one of the directories it is in.
func (l Locks) Match(rel string) bool {
	for _, p := range l {
		for q := rel; q != "." && q != "/" && q != ""; q = path.Dir(q) {
			if ok, _ := path.Match(p, q); ok {
				return true
			}
		}
	}
	return false
}

// Locked returns the records of snap no automated run may change: those
// the snapshot's source reports read-only (the owner's write bit, in a
// working-tree snapshot) and those locks match.
func Locked(snap Snapshot, locks Locks) map[string]bool {
	out := map[string]bool{}
	for _, e := range snap.Entries {
		if e.Mode != ModeRegular || Classify(e.Path).Area != AreaRecord {
			continue
		}
		if e.ReadOnly || locks.Match(e.Path) {
			out[e.Path] = true
		}
	}
	return out
}
