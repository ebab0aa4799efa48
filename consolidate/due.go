package consolidate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"
	"strings"
)

// Backlog is what waits in the staging directory.
type Backlog struct {
	Files int
	Bytes int64
	// Due: the count or the bytes reached its threshold (yoimem.consolidate
	// .stagingFiles / .stagingBytes).
	Due bool
}

// Due reports whether a run is due: whether the staging entries in dir
// reach files (count) or bytes (total size). A threshold of 0 or less
// never triggers; nothing staged is never due. Only staging entries
// count (<id>.json regular files): not the lock, temporary files or
// anything else. A missing directory holds nothing.
func Due(dir string, files int, bytes int64) (Backlog, error) {
	list, err := listStaging(dir)
	if err != nil {
		return Backlog{}, err
	}
	b := Backlog{Files: len(list)}
	for _, e := range list {
		b.Bytes += e.size
	}
	b.Due = b.Files > 0 && (files > 0 && b.Files >= files || bytes > 0 && b.Bytes >= bytes)
	return b, nil
}

// stagedFile is one staging entry on disk.
type stagedFile struct {
	id   string
	size int64
}

// stagingExt is the staging entries' extension; extract writes
// <uuidv7>.json.
const stagingExt = ".json"

// listStaging lists the staging entries of dir in ID (time) order: regular
// files named <id>.json, not hidden (an extract's temporary file is
// .<id>.json.tmp-…).
func listStaging(dir string) ([]stagedFile, error) {
	des, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("list the staging directory %s: %w", dir, err)
	}
	var out []stagedFile
	for _, de := range des {
		name := de.Name()
		id, ok := strings.CutSuffix(name, stagingExt)
		if !ok || id == "" || strings.HasPrefix(name, ".") || !de.Type().IsRegular() {
			continue
		}
		info, err := de.Info()
		if errors.Is(err, fs.ErrNotExist) {
			continue // consumed by a run that just finished
		}
		if err != nil {
			return nil, fmt.Errorf("read the staging directory %s: %w", dir, err)
		}
		out = append(out, stagedFile{id: id, size: info.Size()})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].id < out[j].id })
	return out, nil
}

// Names in the staging directory that are not entries.
const (
	// LockName is the consolidation lock: the holder and the consumed IDs.
	LockName = "consolidate.lock"
	// guardName is the flock held while the lock is inspected or changed.
	guardName = "consolidate.lock.guard"
)
