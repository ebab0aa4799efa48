package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/yoimem/git-yoimem/extract"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/atomicfile"
	"github.com/yoimem/git-yoimem/record"
)

// writeStaging writes the staging file atomically and durably.
func (x *extractor) writeStaging(run extractRun, a extract.Activity) (string, error) {
	u, err := uuid.NewV7()
	if err != nil {
		return "", fmt.Errorf("staging id: %w", err)
	}
	s := extract.Staging{
		Version: extract.StagingVersion, ID: u.String(), CreatedAt: x.env.Now().UTC().Truncate(time.Second),
		Source: extract.Source{SessionID: x.log.session, Range: [2]int{run.From, run.To}},
		Agent:  string(x.log.format), Model: x.modelLabel, Activity: a,
	}
	b, err := s.Marshal()
	if err != nil {
		return "", err
	}
	dir, err := realDir(x.w.Root, record.Dir+"/"+record.StagingDir)
	if err != nil {
		return "", err
	}
	removeStaleTemps(dir, x.env.Now())
	if err := atomicfile.Write(filepath.Join(dir, s.ID+".json"), b, 0o644); err != nil {
		return "", err
	}
	return s.ID, nil
}

// removeStaleTemps removes temporary files a killed run left in the
// staging directory (".<id>.json.tmp-…": never a staging file, which
// consolidation reads only as <id>.json). Only old ones: another
// session's run may be writing one right now.
func removeStaleTemps(dir string, now time.Time) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, ".") || !strings.Contains(name, ".tmp-") || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > time.Hour {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

// realDir makes the directory rel below root (its first component, .yoi,
// must exist: gitstore.ErrNoYoi otherwise), each component a real
// directory: a symlink anywhere on the way (.yoi/memory pointing outside,
// say) is refused, so nothing is written outside .yoi/.
func realDir(root, rel string) (string, error) {
	dir := root
	for i, part := range strings.Split(rel, "/") {
		dir = filepath.Join(dir, part)
		fi, err := os.Lstat(dir)
		if errors.Is(err, os.ErrNotExist) && i > 0 { // .yoi/ itself must exist
			if err = os.Mkdir(dir, 0o755); err == nil || errors.Is(err, os.ErrExist) {
				fi, err = os.Lstat(dir)
			}
		}
		switch {
		case errors.Is(err, os.ErrNotExist):
			return "", gitstore.ErrNoYoi
		case err != nil:
			return "", err
		case fi.Mode()&os.ModeSymlink != 0:
			return "", fmt.Errorf("%s is a symlink; staging files are written only inside .yoi/", dir)
		case !fi.IsDir():
			return "", fmt.Errorf("%s is not a directory", dir)
		}
	}
	return dir, nil
}
