package setup

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/yoimem/git-yoimem/internal/atomicfile"
	"github.com/yoimem/git-yoimem/internal/quote"
)

// MaxFileBytes bounds a settings file read: ~/.claude.json, Claude
// Code's state, grows with every project to a few MB; anything past this
// is not a settings file we should be parsing and editing (a 47 MB one
// took 736 MB of memory).
const MaxFileBytes = 16 << 20

// The problems a settings file itself can have; a *FileError wraps them,
// naming the file, so that a front end can say what to do about each.
var (
	ErrDanglingLink = errors.New("a symbolic link to a file that does not exist")
	ErrNotRegular   = errors.New("not a regular file")
	ErrReadOnly     = errors.New("read-only")
	ErrTooLarge     = errors.New("too large for a settings file")
)

// stateError is a problem said with the file as its subject: ".mcp.json
// is read-only ...", not ".mcp.json: ...".
type stateError struct {
	msg  string
	kind error
}

func (e *stateError) Error() string { return e.msg }
func (e *stateError) Unwrap() error { return e.kind }

func tooLarge(size int64) error {
	return &stateError{kind: ErrTooLarge, msg: "is " + quote.Thousands(size) + " bytes, over the limit of " + quote.Thousands(MaxFileBytes) + " for a settings file"}
}

var errReadOnly = &stateError{kind: ErrReadOnly, msg: "is read-only (its write permission is off: your lock on it), and git-yoimem does not write through it"}

// Action is what a plan does to one file.
type Action string

const (
	Create    Action = "create"    // the file is new
	Update    Action = "update"    // our entries added, changed or taken out
	Remove    Action = "remove"    // uninstall left nothing in a file install created: the file goes
	Unchanged Action = "unchanged" // nothing to do
)

// Change is what a plan does to one file: its content before and after.
type Change struct {
	File   File
	Action Action
	Old    []byte // nil when the file does not exist
	New    []byte // for Remove, the empty object that is left
	target string // the file written: Path, or what a symlink at Path points to
	link   bool   // Path is a symlink
	mode   fs.FileMode
	// Kept: uninstall left the file holding nothing, but it stays, as
	// install did not create it (or it is behind a link).
	Kept bool
	// ReadOnly: the file's owner may not write it, the user's lock on
	// it. A plan that would change it is refused (Check); the rename of
	// an atomic write would replace it regardless of its mode.
	ReadOnly bool
}

// Plan is an install or uninstall of one agent in one scope, computed
// before anything is written.
type Plan struct {
	Agent   string
	Scope   Scope
	Changes []Change
	created *created // the record of files install created, kept by Apply
}

// Changed tells whether applying the plan writes anything.
func (p *Plan) Changed() bool {
	for _, c := range p.Changes {
		if c.Action != Unchanged {
			return true
		}
	}
	return false
}

// FileError is a file a plan cannot read or merge: it names the file.
// Invalid content (not JSON, not an object, a server of ours' name that
// is not ours) is Invalid; the caller refuses, having written nothing.
type FileError struct {
	File    File
	Invalid bool
	Err     error
}

func (e *FileError) Error() string {
	var se *stateError
	if errors.As(e.Err, &se) {
		return e.File.Show + " " + e.Err.Error()
	}
	return e.File.Show + ": " + e.Err.Error()
}
func (e *FileError) Unwrap() error { return e.Err }

// PlanInstall reads every file of the agent's setup in scope sc and
// merges our entries into each. An error on any file (a *FileError)
// returns no plan: nothing is to be written. A scope under HOME needs
// HOME to be a directory that exists (ErrNoHome otherwise).
func PlanInstall(a Agent, sc Scope, loc Locations, o Options) (*Plan, error) {
	if _, err := a.Files(sc, loc); err != nil {
		return nil, err // no HOME at all, or no such scope
	}
	if err := homeExists(a, sc, loc); err != nil {
		return nil, err
	}
	return plan(a, sc, loc, func(f File, old []byte, exists bool) (Action, []byte, error) {
		merged, err := f.merge(old, o)
		if err != nil {
			return "", nil, err
		}
		switch {
		case !exists:
			return Create, merged, nil
		case bytes.Equal(merged, old):
			return Unchanged, old, nil
		}
		return Update, merged, nil
	})
}

// PlanUninstall reads every file of the agent's setup in scope sc and
// takes our entries out of each. A file left as the empty object an
// install starts a new file from holds nothing but what we had added:
// it is removed if install created it (loc.Created's record says so),
// and kept otherwise (Change.Kept).
func PlanUninstall(a Agent, sc Scope, loc Locations) (*Plan, error) {
	p, err := plan(a, sc, loc, func(f File, old []byte, exists bool) (Action, []byte, error) {
		if !exists {
			return Unchanged, nil, nil
		}
		out, err := f.unmerge(old)
		if err != nil {
			return "", nil, err
		}
		switch {
		case bytes.Equal(out, old):
			return Unchanged, old, nil
		case isEmptyObject(out):
			return Remove, out, nil
		}
		return Update, out, nil
	})
	if err != nil {
		return nil, err
	}
	for i, c := range p.Changes {
		if c.Action == Remove && !p.created.has(c.target) {
			p.Changes[i].Action, p.Changes[i].Kept = Update, true
		}
		if blank, ok := p.created.blankOf(c.target); ok && c.Old != nil && isEmptyObject(c.New) && c.Action != Unchanged {
			// the blank file install found gets its bytes back
			p.Changes[i].New, p.Changes[i].Kept = blank, true
			p.Changes[i].Action = Update
			if bytes.Equal(blank, c.Old) {
				p.Changes[i].Action = Unchanged
			}
		}
	}
	return p, nil
}

// isBlank: an empty file, or white space only, which a merge reads as
// the empty object.
func isBlank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 && len(b) <= maxBlank }

// isEmptyObject: what a merge starts a missing file from, "{}\n", and
// the empty object in the file's own line ending; for a file that is
// not JSON (config.toml, AGENTS.md), nothing at all.
func isEmptyObject(b []byte) bool {
	s := string(b)
	return s == "{}\n" || s == "{}\r\n" || s == "{}" || s == ""
}

type step func(f File, old []byte, exists bool) (Action, []byte, error)

// keepLinks: a file behind a symbolic link is the user's (a dotfiles
// manager's); uninstall empties it rather than remove it.
func keepLinks(c Change) Change {
	if c.link && c.Action == Remove {
		c.Action, c.Kept = Update, true
	}
	return c
}

func plan(a Agent, sc Scope, loc Locations, do step) (*Plan, error) {
	files, err := a.Files(sc, loc)
	if err != nil {
		return nil, err
	}
	rec, err := loadCreated(loc.Created)
	if err != nil {
		return nil, err
	}
	rec.shared = loc.CreatedShared
	p := &Plan{Agent: a.Name, Scope: sc, created: rec}
	for _, f := range files {
		c, err := change(f, do)
		if err != nil {
			return nil, err
		}
		p.Changes = append(p.Changes, c)
	}
	return p, nil
}

func change(f File, do step) (Change, error) {
	c := Change{File: f, target: f.Path, mode: fs.FileMode(f.Perm)}
	if fi, err := os.Lstat(f.Path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// a dotfiles manager's link stays a link: its target is edited
		t, err := filepath.EvalSymlinks(f.Path)
		if err != nil {
			return Change{}, &FileError{File: f, Err: fmt.Errorf("%w (%v)", ErrDanglingLink, err)}
		}
		c.target, c.link = t, true
	}
	old, mode, exists, err := read(c.target)
	if err != nil {
		return Change{}, &FileError{File: f, Err: err}
	}
	if exists {
		c.Old, c.mode = old, mode
	}
	act, content, err := do(f, old, exists)
	if err != nil {
		return Change{}, &FileError{File: f, Invalid: true, Err: err}
	}
	c.Action, c.New = act, content
	c = keepLinks(c)
	c.ReadOnly = exists && c.mode&0o200 == 0
	return c, nil
}

// read reads a regular file, bounded; a missing file is !exists. It
// looks before it opens: opening a FIFO would block until a writer came.
func read(path string) ([]byte, fs.FileMode, bool, error) {
	if fi, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil, 0, false, nil
	} else if err != nil {
		return nil, 0, false, err
	} else if !fi.Mode().IsRegular() {
		return nil, 0, false, ErrNotRegular
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, false, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, false, ErrNotRegular
	}
	if fi.Size() > MaxFileBytes {
		return nil, 0, false, tooLarge(fi.Size())
	}
	b, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, 0, false, err
	}
	if len(b) > MaxFileBytes { // it grew since the stat
		return nil, 0, false, tooLarge(int64(len(b)))
	}
	return b, fi.Mode().Perm(), true, nil
}

// Check refuses a plan that would change a read-only file: a
// *FileError wrapping ErrReadOnly, for the first such file.
func (p *Plan) Check() error {
	for _, c := range p.Changes {
		if c.ReadOnly && c.Action != Unchanged {
			return &FileError{File: c.File, Err: errReadOnly}
		}
	}
	return nil
}

// Apply checks the plan (Check), then writes it: each changed file
// atomically with its mode kept (new files get the table's), creating
// directories as needed, and removes the files it removes (and the
// directory we would have created for one, when it is left empty). The
// record of created files (Locations.Created) gains the files it
// creates and loses those it removes. It stops at the first error,
// naming the file; files written before it stay written (each is whole)
// and recorded.
func (p *Plan) Apply() (rerr error) {
	if err := p.Check(); err != nil {
		return err
	}
	changed := false
	defer func() {
		// the files written so far are recorded even when one fails
		if changed {
			var re *RecordError
			if err := p.created.save(); err != nil && rerr == nil && !errors.As(err, &re) {
				rerr = &RecordError{Path: p.created.path, Err: err}
			} else if err != nil && rerr == nil {
				rerr = err
			}
		}
	}()
	for _, c := range p.Changes {
		if err := c.apply(); err != nil {
			return &FileError{File: c.File, Err: err}
		}
		switch {
		case c.Action == Create:
			changed = p.created.set(c.target, true) || changed
		case c.Action == Remove:
			changed = p.created.set(c.target, false) || changed
		case c.Action == Update && c.Old != nil && isBlank(c.Old) && !isBlank(c.New):
			changed = p.created.setBlank(c.target, c.Old) || changed // install into a blank file
		case c.Action == Update && c.Kept:
			changed = p.created.setBlank(c.target, nil) || changed // uninstall gave it back
		}
	}
	return nil
}

func (c Change) apply() error {
	switch c.Action {
	case Create, Update:
		if c.Action == Create {
			if err := os.MkdirAll(filepath.Dir(c.target), 0o755); err != nil {
				return err
			}
		}
		return atomicfile.Write(c.target, c.New, c.mode)
	case Remove:
		if err := os.Remove(c.target); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		if dir := filepath.Dir(c.File.Path); filepath.Base(dir) == ".claude" || filepath.Base(dir) == ".codex" {
			_ = os.Remove(dir) // only when empty; a directory left behind is harmless
		}
	}
	return nil
}
