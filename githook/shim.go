package githook

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/yoimem/git-yoimem/hooks"
)

// Marker starts the line after the shebang of every shim; a hook file whose
// second line starts with it was written by git-yoimem and may be replaced
// or removed. The line goes on with the shim's version ("v2"), bumped in
// the files of package hooks whenever their text changes, so that
// installed shims differ from the current ones and get upgraded.
const Marker = "# git-yoimem hook shim"

// PrevSuffix names a chained hook: Install with Options.Chain renames a
// foreign <name> to <name>+PrevSuffix and the shim runs it first. git
// ignores the file under that name.
const PrevSuffix = ".yoimem-prev"

// maxShimBytes bounds how much of a hook file is read to tell whether it
// is a shim; anything larger is not one.
const maxShimBytes = 64 << 10

// Names returns the hooks git-yoimem installs.
func Names() []string { return hooks.Names() }

// Shim returns the script installed as hook name: the file of the same
// name in package hooks (POSIX sh, a marker line, a PATH check for
// git-yoimem, the chained previous hook if any, then
// `exec git-yoimem hook <name> "$@"`, directly, not through git: a hook's
// time is the committer's).
func Shim(name string) string { return hooks.Script(name) }

// Action is what Install or Uninstall did to one hook.
type Action string

const (
	Installed Action = "installed" // no hook was there; the shim was written
	Upgraded  Action = "upgraded"  // an older or edited shim was replaced (or made executable again)
	Unchanged Action = "unchanged" // the current shim was already there
	Chained   Action = "chained"   // a foreign hook became <name>.yoimem-prev; the shim runs it first
	Removed   Action = "removed"   // the shim was deleted
	Restored  Action = "restored"  // <name>.yoimem-prev was moved back to <name>
	Kept      Action = "kept"      // Uninstall left a foreign hook alone
)

// ShimResult is what happened to one hook. Path is the hook's absolute path
// when dir was absolute.
type ShimResult struct {
	Hook   string
	Path   string
	Action Action
}

// Options change how Install treats foreign hooks.
type Options struct {
	// Chain keeps each foreign hook as <name>.yoimem-prev and has the shim
	// run it first, instead of refusing.
	Chain bool
	// Shared is the repository's core.sharedRepository when the hooks
	// directory is in its git directory: the shims, and a directory made
	// for them, get the bits git gives files there (nil: the umask's).
	Shared sharedperm.Source
}

// ErrForeignHook is matched (errors.Is) by a *ForeignHookError.
var ErrForeignHook = errors.New("a hook that git-yoimem did not write is in the way")

// ForeignHookError lists the hook files Install would have had to replace.
type ForeignHookError struct {
	Paths []string
}

func (e *ForeignHookError) Error() string {
	return ErrForeignHook.Error() + ": " + strings.Join(e.Paths, ", ")
}

// Is makes errors.Is(err, ErrForeignHook) true.
func (e *ForeignHookError) Is(target error) bool { return target == ErrForeignHook }

// ErrPrevExists is matched (errors.Is) by a *PrevExistsError.
var ErrPrevExists = errors.New("a chained hook is already kept under the name --chain needs")

// PrevExistsError lists the <name>.yoimem-prev files that stop Install
// with Options.Chain: each holds a hook git-yoimem did not write, which
// chaining would overwrite.
type PrevExistsError struct {
	Paths []string
}

func (e *PrevExistsError) Error() string {
	return ErrPrevExists.Error() + ": " + strings.Join(e.Paths, ", ")
}

// Is makes errors.Is(err, ErrPrevExists) true.
func (e *PrevExistsError) Is(target error) bool { return target == ErrPrevExists }

type state int

const (
	absent  state = iota
	ours          // a regular file whose second line starts with Marker
	foreign       // anything else: other scripts, symlinks, directories
)

type hookFile struct {
	state   state
	content []byte // when ours
	exec    bool   // when ours: executable by its owner
}

// inspect classifies the file at path without following symlinks.
func inspect(path string) (hookFile, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return hookFile{state: absent}, nil
	}
	if err != nil {
		return hookFile{}, fmt.Errorf("inspect hook: %w", err)
	}
	if !fi.Mode().IsRegular() || fi.Size() > maxShimBytes {
		return hookFile{state: foreign}, nil
	}
	f, err := os.Open(path)
	if err != nil {
		return hookFile{}, fmt.Errorf("inspect hook: %w", err)
	}
	defer f.Close()
	content, err := io.ReadAll(io.LimitReader(f, maxShimBytes+1))
	if err != nil {
		return hookFile{}, fmt.Errorf("inspect hook %s: %w", path, err)
	}
	if !isShim(content) {
		return hookFile{state: foreign}, nil
	}
	return hookFile{state: ours, content: content, exec: fi.Mode().Perm()&0o100 != 0}, nil
}

// isShim reports whether content is a shebang line followed by a line that
// starts with Marker.
func isShim(content []byte) bool {
	first, rest, ok := bytes.Cut(content, []byte("\n"))
	if !ok || !bytes.HasPrefix(first, []byte("#!")) {
		return false
	}
	return bytes.HasPrefix(rest, []byte(Marker))
}

// Install writes the shims into dir, creating dir if needed. Hooks that are
// already current are left alone and older shims are replaced. If a hook
// git-yoimem did not write is in the way, Install writes nothing at all
// and returns a *ForeignHookError naming every such hook, unless
// opts.Chain is set: then each is renamed to <name>.yoimem-prev, which the
// shim runs first, unless that name already holds a hook git-yoimem did
// not write (a *PrevExistsError, again before anything is written).
// Every file is written atomically (a temporary file, then a rename).
func Install(dir string, opts Options) ([]ShimResult, error) {
	var results []ShimResult
	var foreignPaths, taken []string
	for _, name := range Names() {
		path := filepath.Join(dir, name)
		h, err := inspect(path)
		if err != nil {
			return nil, err
		}
		r := ShimResult{Hook: name, Path: path}
		switch h.state {
		case absent:
			r.Action = Installed
		case ours:
			if string(h.content) == Shim(name) && h.exec {
				r.Action = Unchanged
			} else {
				r.Action = Upgraded
			}
		case foreign:
			r.Action = Chained
			foreignPaths = append(foreignPaths, path)
			prev := path + PrevSuffix
			p, err := inspect(prev)
			if err != nil {
				return nil, err
			}
			if p.state == foreign {
				taken = append(taken, prev)
			}
		}
		results = append(results, r)
	}
	if len(foreignPaths) > 0 && !opts.Chain {
		return nil, &ForeignHookError{Paths: foreignPaths}
	}
	if len(taken) > 0 {
		return nil, &PrevExistsError{Paths: taken}
	}
	perm, err := opts.Shared.Get()
	if err != nil {
		return nil, err
	}
	if err := perm.Dirs(dir, 0o755); err != nil {
		return nil, fmt.Errorf("create hooks directory: %w", err)
	}
	for i, r := range results {
		var err error
		switch r.Action {
		case Installed, Upgraded:
			err = writeShim(r.Path, r.Hook, perm)
		case Chained:
			err = chain(r.Path, r.Hook, perm)
		}
		if err != nil {
			return results[:i], err
		}
	}
	return results, nil
}

func writeShim(path, name string, perm sharedperm.Perm) error {
	if err := perm.WriteFile(path, []byte(Shim(name)), 0o755, true); err != nil {
		return fmt.Errorf("install %s hook: %w", name, err)
	}
	return nil
}

// chain moves the foreign hook at path aside and writes the shim; if the
// shim cannot be written the hook is moved back.
func chain(path, name string, perm sharedperm.Perm) error {
	prev := path + PrevSuffix
	if err := os.Rename(path, prev); err != nil {
		return fmt.Errorf("chain %s hook: %w", name, err)
	}
	if err := writeShim(path, name, perm); err != nil {
		if rerr := os.Rename(prev, path); rerr != nil {
			return fmt.Errorf("%w; and moving it back failed: %v", err, rerr)
		}
		return err
	}
	return nil
}

// Uninstall removes the shims from dir and moves each chained
// <name>.yoimem-prev back to <name>. A hook git-yoimem did not write is
// never touched; it is reported as Kept (and its .yoimem-prev, if any,
// stays where it is). Running it again does nothing; a missing dir is not
// an error.
func Uninstall(dir string) ([]ShimResult, error) {
	var results []ShimResult
	for _, name := range Names() {
		path := filepath.Join(dir, name)
		prev := path + PrevSuffix
		h, err := inspect(path)
		if err != nil {
			return results, err
		}
		if h.state == foreign {
			results = append(results, ShimResult{Hook: name, Path: path, Action: Kept})
			continue
		}
		if h.state == ours {
			if err := os.Remove(path); err != nil {
				return results, fmt.Errorf("uninstall %s hook: %w", name, err)
			}
		}
		_, err = os.Lstat(prev)
		switch {
		case err == nil:
			if err := os.Rename(prev, path); err != nil {
				return results, fmt.Errorf("restore %s hook: %w", name, err)
			}
			results = append(results, ShimResult{Hook: name, Path: path, Action: Restored})
		case !errors.Is(err, fs.ErrNotExist):
			return results, fmt.Errorf("restore %s hook: %w", name, err)
		case h.state == ours:
			results = append(results, ShimResult{Hook: name, Path: path, Action: Removed})
		}
	}
	return results, nil
}
