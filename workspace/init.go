package workspace

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/internal/atomicfile"
	"github.com/yoimem/git-yoimem/record"
)

// stagingIgnore is the line of .yoi/.gitignore that keeps the staging
// directory (extract output and the consolidation lock) out of commits.
const stagingIgnore = "/memory/_staging/\n"

// Init creates the .yoi/ layout: memory/decisions/, memory/requests/,
// knowledge/, a starter summary (dated now), a commented .yoi/config of
// every setting with its default, and .yoi/.gitignore ignoring the
// staging directory. What exists is left as it is, so that running it
// again is safe; it returns what it created, from the workspace root
// (".yoi/knowledge/"). Nothing outside .yoi/ is written.
func (w *Workspace) Init(now time.Time) (created []string, err error) {
	yoi := w.YoiDir()
	if fi, err := os.Lstat(yoi); err == nil && !fi.IsDir() {
		return nil, fmt.Errorf("%s exists and is not a directory", w.Display(yoi))
	}
	for _, d := range []string{record.DecisionsDir, record.RequestsDir, record.KnowledgeDir} {
		p := filepath.Join(yoi, filepath.FromSlash(d))
		if _, err := os.Stat(p); err == nil {
			continue
		}
		if err := os.MkdirAll(p, 0o755); err != nil {
			return created, fmt.Errorf("create %s: %w", w.Display(p), err)
		}
		created = append(created, record.Dir+"/"+d+"/")
	}
	now = now.UTC()
	summary, err := record.Render(&record.Record{Kind: record.KindSummary, CreatedAt: now, UpdatedAt: now}, []byte("# Summary\n\nWhat every agent session should know about this project.\n"))
	if err != nil {
		return created, err
	}
	for _, f := range []struct {
		rel     string
		content []byte
	}{
		{record.ConfigPath, []byte(config.DefaultFileText())},
		{record.SummaryPath, summary},
	} {
		ok, err := createIfMissing(filepath.Join(yoi, filepath.FromSlash(f.rel)), f.content)
		if err != nil {
			return created, err
		}
		if ok {
			created = append(created, record.Dir+"/"+f.rel)
		}
	}
	changed, err := ensureIgnore(filepath.Join(yoi, ".gitignore"))
	if err != nil {
		return created, err
	}
	if changed {
		created = append(created, record.Dir+"/.gitignore")
	}
	return created, nil
}

// createIfMissing writes a new file atomically; an existing one is kept.
func createIfMissing(path string, content []byte) (bool, error) {
	if _, err := os.Lstat(path); err == nil {
		return false, nil
	} else if !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("stat %s: %w", path, err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	if err := atomicfile.Write(path, content, 0o644); err != nil {
		return false, err
	}
	return true, nil
}

// ensureIgnore makes .yoi/.gitignore ignore the staging directory, adding
// one line to an existing file rather than rewriting it.
func ensureIgnore(path string) (bool, error) {
	old, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return false, fmt.Errorf("read %s: %w", path, err)
	}
	for _, line := range bytes.Split(old, []byte("\n")) {
		l := string(bytes.TrimSpace(line))
		if l == "/memory/_staging/" || l == "memory/_staging/" || l == "/memory/_staging" {
			return false, nil
		}
	}
	content := append([]byte(nil), old...)
	if len(content) > 0 && content[len(content)-1] != '\n' {
		content = append(content, '\n')
	}
	if len(old) == 0 {
		content = append(content, "# extract output waiting for consolidation, and its lock: machine-local\n"...)
	}
	content = append(content, stagingIgnore...)
	if err := atomicfile.Write(path, content, 0o644); err != nil {
		return false, err
	}
	return true, nil
}
