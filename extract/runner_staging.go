package extract

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/yoimem/git-yoimem/internal/atomicfile"
	"github.com/yoimem/git-yoimem/record"
)

// writeStaging writes the staging file atomically and durably; its id.
func (r *Runner) writeStaging(run RunReport, label string, a Activity) (string, error) {
	u, err := uuid.NewV7()
	if err != nil {
		return "", fmt.Errorf("staging id: %w", err)
	}
	s := Staging{
		Version: StagingVersion, ID: u.String(), CreatedAt: r.Now().UTC().Truncate(time.Second),
		Source: Source{SessionID: r.Log.Session, Range: [2]int{run.From, run.To}},
		Agent:  string(r.Log.Format), Model: label, Activity: a,
	}
	b, err := s.Marshal()
	if err != nil {
		return "", err
	}
	dir, err := realDir(filepath.Dir(r.YoiDir), record.Dir+"/"+record.StagingDir)
	if err != nil {
		return "", err
	}
	removeStaleTemps(dir, r.Now())
	if err := atomicfile.Write(filepath.Join(dir, s.ID+".json"), b, 0o644); err != nil {
		return "", err
	}
	return s.ID, nil
}

// checkYoi: a run stages its answer in .yoi/, which must exist (and be a
// real directory) before the model is asked.
func (r *Runner) checkYoi() error {
	_, err := realDir(filepath.Dir(r.YoiDir), record.Dir)
	return err
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
		if !isTemp(name) || !e.Type().IsRegular() {
			continue
		}
		if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > time.Hour {
			os.Remove(filepath.Join(dir, name))
		}
	}
}

func isTemp(name string) bool { return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-") }

// realDir makes the directory rel below root (its first component, .yoi,
// must exist: record.ErrNoYoi otherwise), each component a real
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
			return "", fmt.Errorf("%s: %w", dir, record.ErrNoYoi)
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

// StagedFile is one staging entry waiting in the staging directory.
type StagedFile struct {
	ID   string // the file is <ID>.json
	Size int64
}

// ListStaging lists the staging entries waiting in dir, in ID (time)
// order: regular files <id>.json whose name does not begin with "." (an
// extract's temporary file is .<id>.json.tmp-…), not the consolidation
// lock nor anything else. These are what consolidation consumes, and what
// its trigger counts. A missing directory holds none.
func ListStaging(dir string) ([]StagedFile, error) {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("read %s: %w", dir, err)
	}
	var out []StagedFile
	for _, e := range entries {
		name := e.Name()
		id, ok := strings.CutSuffix(name, ".json")
		if !ok || id == "" || strings.HasPrefix(name, ".") || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if errors.Is(err, os.ErrNotExist) {
			continue // consumed meanwhile
		} else if err != nil {
			return nil, fmt.Errorf("read %s: %w", dir, err)
		}
		out = append(out, StagedFile{ID: id, Size: info.Size()})
	}
	slices.SortFunc(out, func(a, b StagedFile) int { return strings.Compare(a.ID, b.ID) })
	return out, nil
}

// StagingUsage counts the staging entries waiting in dir (ListStaging's)
// and their bytes: what
// a consolidation trigger compares with yoimem.consolidate.stagingFiles
// and .stagingBytes. A missing directory holds none.
func StagingUsage(dir string) (files int, bytes int64, err error) {
	list, err := ListStaging(dir)
	for _, f := range list {
		bytes += f.Size
	}
	return len(list), bytes, err
}
