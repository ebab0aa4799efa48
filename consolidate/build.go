package consolidate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/record"
)

// EntryProblem is a consumed staging entry that could not be read: it is
// reported, left in place and not consumed.
type EntryProblem struct {
	ID  string
	Err error
}

func (p EntryProblem) Error() string {
	return fmt.Sprintf("%s: %v", stagingPath(p.ID), p.Err)
}

// stagingPath is how a staging entry's file is printed.
func stagingPath(id string) string {
	return record.DisplayPath(record.StagingDir + "/" + id + stagingExt)
}

// DefaultMaxStagingBytes bounds the size of one staging entry a run reads
// (extract writes a few kilobytes): a larger file is reported with its
// size, never read in part.
const DefaultMaxStagingBytes = 16 << 20

// ReadEntries reads the staging entries ids of dir, each at most maxBytes
// (0: DefaultMaxStagingBytes), in ID (time) order, each once. An entry
// that is missing, not a regular file, too large, does not parse or names
// another ID is a problem, not an entry.
func ReadEntries(dir string, ids []string, maxBytes int64) ([]extract.Staging, []EntryProblem) {
	if maxBytes <= 0 {
		maxBytes = DefaultMaxStagingBytes
	}
	ids = slices.Clone(ids)
	slices.Sort(ids)
	ids = slices.Compact(ids)
	var entries []extract.Staging
	var problems []EntryProblem
	for _, id := range ids {
		e, err := readEntry(dir, id, maxBytes)
		if err != nil {
			problems = append(problems, EntryProblem{ID: id, Err: err})
			continue
		}
		entries = append(entries, e)
	}
	return entries, problems
}

func readEntry(dir, id string, maxBytes int64) (extract.Staging, error) {
	if !validID(id) {
		return extract.Staging{}, fmt.Errorf("%s is not a staging entry ID", quote.Value(id))
	}
	b, err := readRegular(filepath.Join(dir, id+stagingExt), maxBytes)
	if err != nil {
		return extract.Staging{}, err
	}
	name := stagingPath(id)
	s, err := extract.ParseStaging(name, b)
	if err != nil { // ParseStaging names the file; the problem does that
		return extract.Staging{}, errors.New(strings.TrimPrefix(err.Error(), name+": "))
	}
	if s.ID != id {
		return extract.Staging{}, fmt.Errorf("its content names entry %s", quote.Value(s.ID))
	}
	return s, nil
}

// validID: an ID names a file in the staging directory, nothing else.
func validID(id string) bool {
	return id != "" && !strings.ContainsAny(id, "/\\\x00") && !strings.HasPrefix(id, ".")
}

// readRegular reads a regular file (not through a symlink) of at most
// maxBytes.
func readRegular(path string, maxBytes int64) ([]byte, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, errors.New("no such file")
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errors.New("not a regular file")
	}
	if fi.Size() > maxBytes {
		return nil, tooLarge(fi.Size(), maxBytes)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxBytes+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > maxBytes { // grew since the Lstat
		return nil, tooLarge(int64(len(b)), maxBytes)
	}
	return b, nil
}

func tooLarge(size, limit int64) error {
	return fmt.Errorf("%s bytes, over the limit of %s bytes for one staging entry", quote.Thousands(size), quote.Thousands(limit))
}

// BaseSnapshot is the base of a run: the commit the memory commit will be
// written on (the unmerged memory tip, else the base branch tip) and a
// snapshot of its .yoi/, whose blobs over maxRead are errors with their
// size. Never the working tree.
func BaseSnapshot(ctx context.Context, m *gitstore.MemoryBranch, maxRead int64) (string, record.Snapshot, error) {
	parent, err := m.Parent(ctx)
	if err != nil {
		return "", record.Snapshot{}, err
	}
	if parent == "" {
		return "", record.MapSnapshot(nil), nil
	}
	snap, err := gitstore.RevisionSnapshot(ctx, m.Repo, m.Objects, parent, m.Prefix, maxRead)
	if err != nil {
		return "", record.Snapshot{}, err
	}
	return parent, snap, nil
}
