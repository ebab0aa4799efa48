package setup

import (
	"encoding/json"
	"errors"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
)

// An uninstall that leaves a file holding nothing removes it only if
// install created it: the user's own "{}" (or empty AGENTS.md) was there
// before us and stays, byte for byte. What install created is known only
// from a record this machine keeps (Locations.Created), a JSON file
// listing the absolute paths of the files install created:
//
//	{"created": ["/home/me/repo/.mcp.json"], "blank": {"/home/me/repo/.claude/settings.json": ""}}
//
// Without a record (another clone, where the files came with a commit),
// such a file is kept and said so. A file install found blank (empty,
// or white space only) gets its bytes back from "blank": merged, it had
// become "{}" and our entries.

// RecordError is a record of created files that cannot be read.
type RecordError struct {
	Path string
	Err  error
}

func (e *RecordError) Error() string {
	return "the record of the files install created, " + e.Path + ": " + e.Err.Error()
}
func (e *RecordError) Unwrap() error { return e.Err }

// created is the record of the files install created.
type created struct {
	path  string // the record; "" keeps none
	files []string
	blank map[string]string // a file install found blank: its bytes
	edits []func(*created)  // what Apply changed, replayed by save on the record as it is then
	// shared is the repository's core.sharedRepository, for a record in
	// its git directory.
	shared sharedperm.Source
}

type createdJSON struct {
	Created []string          `json:"created,omitempty"`
	Blank   map[string]string `json:"blank,omitempty"`
}

// maxBlank bounds the bytes of a blank file the record keeps.
const maxBlank = 4096

// loadCreated reads the record at path; a missing one lists nothing.
func loadCreated(path string) (*created, error) {
	c := &created{path: path}
	if path == "" {
		return c, nil
	}
	b, _, exists, err := read(path)
	if err != nil || !exists {
		if err != nil {
			err = &RecordError{Path: path, Err: err}
		}
		return c, err
	}
	var j createdJSON
	if err := json.Unmarshal(b, &j); err != nil {
		return c, &RecordError{Path: path, Err: err}
	}
	c.files, c.blank = j.Created, j.Blank
	return c, nil
}

// setBlank records (b non-nil) or forgets (nil) the blank content file
// had before install; it tells whether the record changed.
func (c *created) setBlank(file string, b []byte) bool {
	if c == nil {
		return false
	}
	c.edits = append(c.edits, func(r *created) { r.setBlank(file, b) })
	old, had := c.blank[file]
	switch {
	case b == nil && had:
		delete(c.blank, file)
	case b != nil && (!had || old != string(b)):
		if c.blank == nil {
			c.blank = map[string]string{}
		}
		c.blank[file] = string(b)
	default:
		return false
	}
	return true
}

// blankOf is the content file had before install when it was blank.
func (c *created) blankOf(file string) ([]byte, bool) {
	if c == nil {
		return nil, false
	}
	b, ok := c.blank[file]
	return []byte(b), ok
}

func (c *created) has(file string) bool { return c != nil && slices.Contains(c.files, file) }

// set adds or takes out file; it tells whether the list changed.
func (c *created) set(file string, on bool) bool {
	if c == nil {
		return false
	}
	c.edits = append(c.edits, func(r *created) { r.set(file, on) })
	i := slices.Index(c.files, file)
	switch {
	case on && i < 0:
		c.files = append(c.files, file)
		slices.Sort(c.files)
	case !on && i >= 0:
		c.files = slices.Delete(c.files, i, i+1)
	default:
		return false
	}
	return true
}

// save writes the record (removes it when it lists nothing): it reads
// the record again and makes this plan's changes to it, so that the
// plans of one command (--agent all), planned from the same record,
// each keep the others' entries.
func (c *created) save() error {
	if c == nil || c.path == "" || len(c.edits) == 0 {
		return nil
	}
	cur, err := loadCreated(c.path)
	if err != nil {
		return err
	}
	cur.shared = c.shared
	for _, e := range c.edits {
		e(cur)
	}
	c.edits = nil
	return cur.write()
}

func (c *created) write() error {
	if len(c.files) == 0 && len(c.blank) == 0 {
		if err := os.Remove(c.path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		return nil
	}
	b, err := json.MarshalIndent(createdJSON{Created: c.files, Blank: c.blank}, "", "  ")
	if err != nil {
		return err
	}
	perm, err := c.shared.Get()
	if err != nil {
		return err
	}
	if err := perm.Dirs(filepath.Dir(c.path), 0o755); err != nil {
		return err
	}
	return perm.WriteFile(c.path, append(b, '\n'), 0o644, true)
}
