// Package sharedperm gives the files and directories git-yoimem writes
// inside a git directory the permission bits git gives its own there,
// under the repository's core.sharedRepository: git creates a file or
// directory with the umask applying (objects 0444, refs, lock files and
// reflogs 0666, directories 0777), then widens or sets its bits
// (path.c, calc_shared_perm and adjust_shared_perm). A Perm is the
// setting read (Parse); Umask, the default, changes nothing.
package sharedperm

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
)

// Perm is core.sharedRepository as git holds it: 0 for umask, a positive
// value for the bits added (Group, Everybody), a negative one for the
// exact mode -Perm of a file (an octal value).
type Perm int

const (
	// Umask leaves the bits the umask gives (umask, false, 0, unset).
	Umask Perm = 0
	// Group adds group read and write (group, true, 1).
	Group Perm = 0o660
	// Everybody also lets everybody read (all, world, everybody, 2).
	Everybody Perm = 0o664
)

// Key is the setting's name, for messages.
const Key = "core.sharedRepository"

// Parse reads a core.sharedRepository value as git does (setup.c,
// git_config_perm); noValue is a key written without "=" (true). An
// octal mode that leaves the owner without read and write, or a value
// that is neither a name, a number nor a boolean, is an error, as git
// refuses it.
func Parse(value string, noValue bool) (Perm, error) {
	if noValue {
		return Group, nil
	}
	switch value {
	case "umask":
		return Umask, nil
	case "group":
		return Group, nil
	case "all", "world", "everybody":
		return Everybody, nil
	}
	i, ok := octal(value)
	if !ok {
		b, err := parseBool(value)
		if err != nil {
			return Umask, fmt.Errorf("%s: %q is not a valid value (umask, group, all, a boolean or an octal mode such as 0640): %w", Key, value, err)
		}
		if b {
			return Group, nil
		}
		return Umask, nil
	}
	switch i {
	case 0:
		return Umask, nil
	case 1:
		return Group, nil
	case 2:
		return Everybody, nil
	}
	if i&0o600 != 0o600 {
		return Umask, fmt.Errorf("%s: the mode 0%03o is refused: the owner of files must always have read and write permissions", Key, i)
	}
	// Others can never get write; the x bits are set per file (mode).
	return Perm(-(i & 0o666)), nil
}

// Shared reports whether p changes anything (it is not Umask).
func (p Perm) Shared() bool { return p != Umask }

// special are the mode bits chmod sets besides the permissions.
const special = fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// mode is git's adjusted mode of a file or directory whose mode is old
// (calc_shared_perm, then adjust_shared_perm's rules for directories);
// dirSetgid is whether directories that grant group access get setgid.
func (p Perm) mode(old fs.FileMode, dirSetgid bool) fs.FileMode {
	if p == Umask {
		return old
	}
	tweak := fs.FileMode(p)
	if p < 0 {
		tweak = fs.FileMode(-p)
	}
	if old&0o200 == 0 {
		tweak &^= 0o222
	}
	if old&0o100 != 0 {
		tweak |= (tweak & 0o444) >> 2 // read bits copied to execute bits
	}
	m := old | tweak
	if p < 0 {
		m = old&^0o777 | tweak
	}
	if old.IsDir() {
		m |= (m & 0o444) >> 2
		// setgid matters only if the group gets more than others.
		if dirSetgid && m&0o060 != 0 {
			m |= fs.ModeSetgid
		}
	}
	return m
}

// Adjust gives the file or directory at path git's shared bits.
func (p Perm) Adjust(path string) error {
	if p == Umask {
		return nil
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("%s of %s: %w", Key, path, err)
	}
	return p.chmod(fi.Mode(), func(m fs.FileMode) error { return os.Chmod(path, m) }, path)
}

// AdjustFile is Adjust on an open file (no lookup of its path).
func (p Perm) AdjustFile(f *os.File) error {
	if p == Umask {
		return nil
	}
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("%s of %s: %w", Key, f.Name(), err)
	}
	return p.chmod(fi.Mode(), f.Chmod, f.Name())
}

func (p Perm) chmod(old fs.FileMode, chmod func(fs.FileMode) error, name string) error {
	m := p.mode(old, dirSetgid())
	if (old^m)&(fs.ModePerm|special) == 0 {
		return nil
	}
	if err := chmod(m & (fs.ModePerm | special)); err != nil {
		return fmt.Errorf("%s of %s: %w", Key, name, err)
	}
	return nil
}

// Mkdir creates the directory path as git does (0777, the umask
// applying) and adjusts it; one that exists is left as it is.
func (p Perm) Mkdir(path string) error {
	err := os.Mkdir(path, 0o777)
	switch {
	case errors.Is(err, fs.ErrExist):
		return nil
	case err != nil:
		return err
	}
	return p.Adjust(path)
}

// MkdirAll creates path and the missing directories above it, each as
// Mkdir does (git's safe_create_leading_directories).
func (p Perm) MkdirAll(path string) error {
	if fi, err := os.Stat(path); err == nil {
		if fi.IsDir() {
			return nil
		}
		return &fs.PathError{Op: "mkdir", Path: path, Err: fs.ErrExist}
	}
	if parent := filepath.Dir(path); parent != path {
		if err := p.MkdirAll(parent); err != nil {
			return err
		}
	}
	return p.Mkdir(path)
}

// dirSetgid tells whether git sets setgid on shared directories here:
// everywhere but the systems whose directories give new files their
// group anyway (git's DIR_HAS_BSD_GROUP_SEMANTICS).
func dirSetgid() bool {
	switch runtime.GOOS {
	case "freebsd", "openbsd":
		return false
	}
	return true
}
