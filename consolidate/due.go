package consolidate

import "github.com/yoimem/git-yoimem/extract"

// Backlog is what waits in the staging directory.
type Backlog struct {
	Files int
	Bytes int64
	// Due: the count or the bytes reached its threshold (yoimem.consolidate
	// .stagingFiles / .stagingBytes).
	Due bool
}

// Due reports whether a run is due: whether the staging entries in dir
// (extract.ListStaging's: <id>.json regular files, not the lock,
// temporary files or anything else) reach files (count) or bytes (total
// size). A threshold of 0 or less never triggers; nothing staged is never
// due. A missing directory holds nothing.
func Due(dir string, files int, bytes int64) (Backlog, error) {
	n, size, err := extract.StagingUsage(dir)
	if err != nil {
		return Backlog{}, err
	}
	b := Backlog{Files: n, Bytes: size}
	b.Due = b.Files > 0 && (files > 0 && b.Files >= files || bytes > 0 && b.Bytes >= bytes)
	return b, nil
}

// stagingExt is the staging entries' extension; extract writes
// <uuidv7>.json.
const stagingExt = ".json"

// Names in the staging directory that are not entries.
const (
	// LockName is the consolidation lock: the holder and the consumed IDs.
	LockName = "consolidate.lock"
	// guardName is the flock held while the lock is inspected or changed.
	guardName = "consolidate.lock.guard"
)
