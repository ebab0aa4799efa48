package gitstore

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/yoimem/git-yoimem/record"
)

// IndexSnapshot lists .yoi/ as staged in the index that git uses in this
// environment (GIT_INDEX_FILE included: under `git commit -a` and partial
// commits, hooks see a temporary index) and reads the staged blobs. It
// never takes the index lock. prefix is the .yoi/ directory relative to the
// top level ("" + ".yoi" normally).
func IndexSnapshot(ctx context.Context, r Repo, objs *Objects, prefix string, maxRead int64) (record.Snapshot, error) {
	out, err := r.Git.Run(ctx, "--no-optional-locks", "ls-files", "--stage", "-z", "--", prefix+"/")
	if err != nil {
		return record.Snapshot{}, fmt.Errorf("list staged %s/: %w", prefix, err)
	}
	// <mode> <blob> <stage>\t<path>; unmerged stages are skipped: git
	// refuses to commit them anyway.
	return listing(out, "git ls-files", 3, prefix, objs, maxRead, func(f []string, rel string) (record.Entry, string, bool) {
		return record.Entry{Path: rel, Mode: modeOf(f[0]), Size: -1}, f[1], f[2] == "0"
	})
}

// RevisionSnapshot lists .yoi/ in a commit (any revision git can name).
func RevisionSnapshot(ctx context.Context, r Repo, objs *Objects, rev, prefix string, maxRead int64) (record.Snapshot, error) {
	out, err := r.Git.Run(ctx, "ls-tree", "-r", "-z", "-l", "--full-tree", rev, "--", prefix+"/")
	if err != nil {
		return record.Snapshot{}, fmt.Errorf("list %s/ at %s: %w", prefix, rev, err)
	}
	// <mode> <type> <object> <size>\t<path>; size is "-" for submodules.
	return listing(out, "git ls-tree", 4, prefix, objs, maxRead, func(f []string, rel string) (record.Entry, string, bool) {
		size, _ := strconv.ParseInt(f[3], 10, 64)
		return record.Entry{Path: rel, Mode: modeOf(f[0]), Size: size}, f[2], true
	})
}

// listing reads NUL-separated "<fields>\t<path>" records under prefix/
// into a snapshot; entry turns one record into an entry and its blob.
func listing(out []byte, tool string, nfields int, prefix string, objs *Objects, maxRead int64,
	entry func(fields []string, rel string) (record.Entry, string, bool)) (record.Snapshot, error) {
	var entries []record.Entry
	blobs := map[string]string{}
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		meta, p, ok := bytes.Cut(rec, []byte{'\t'})
		f := strings.Fields(string(meta))
		if !ok || len(f) != nfields {
			return record.Snapshot{}, fmt.Errorf("%s: unexpected line %q", tool, rec)
		}
		rel, ok := strings.CutPrefix(string(p), prefix+"/")
		if !ok {
			continue
		}
		e, blob, keep := entry(f, rel)
		if !keep {
			continue
		}
		if e.Mode == record.ModeRegular || e.Mode == record.ModeSymlink {
			blobs[rel] = blob
		}
		entries = append(entries, e)
	}
	return blobSnapshot(entries, blobs, objs, maxRead), nil
}

func modeOf(m string) record.Mode {
	switch m {
	case "100644", "100755":
		return record.ModeRegular
	case "120000":
		return record.ModeSymlink
	}
	return record.ModeOther // 160000: a submodule
}

// blobSnapshot reads symlink targets now (they are tiny and the linter
// reports them) and file content on demand.
func blobSnapshot(entries []record.Entry, blobs map[string]string, objs *Objects, maxRead int64) record.Snapshot {
	for i, e := range entries {
		if e.Mode == record.ModeSymlink {
			if b, err := objs.ReadBlob(blobs[e.Path], 4096); err == nil {
				entries[i].Target = string(b)
			}
		}
	}
	snap := record.Snapshot{Entries: withDirs(entries)}
	snap.Sort()
	snap.Read = func(p string) ([]byte, error) {
		h, ok := blobs[p]
		if !ok {
			return nil, fmt.Errorf("read %s: %w", p, record.ErrNotExist)
		}
		b, err := objs.ReadBlob(h, maxRead)
		return b, withPath(err, p)
	}
	return snap
}

// withDirs adds the directory entries a tree listing leaves implicit, so
// that a directory named like a record (knowledge/x.md/y) is reported.
func withDirs(entries []record.Entry) []record.Entry {
	seen := map[string]bool{}
	out := entries
	for _, e := range entries {
		for d := path.Dir(e.Path); d != "." && !seen[d]; d = path.Dir(d) {
			seen[d] = true
			out = append(out, record.Entry{Path: d, Mode: record.ModeDir})
		}
	}
	return out
}
