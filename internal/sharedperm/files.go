package sharedperm

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/yoimem/git-yoimem/internal/atomicfile"
)

// Source gives the setting when a file is to be created: writers that
// mostly find their files there read the configuration only then.
type Source func() (Perm, error)

// Fixed is a Source of p.
func Fixed(p Perm) Source { return func() (Perm, error) { return p, nil } }

// Get is the setting, Umask for a nil Source.
func (s Source) Get() (Perm, error) {
	if s == nil {
		return Umask, nil
	}
	return s()
}

// WriteFile replaces the file at path with content atomically
// (internal/atomicfile; durably or not). Unshared, it gets mode, as
// atomicfile gives it; shared, it is born with mode under the umask, as
// git creates its files, and gets the shared bits.
func (p Perm) WriteFile(path string, content []byte, mode fs.FileMode, durable bool) error {
	if !p.Shared() {
		if durable {
			return atomicfile.Write(path, content, mode)
		}
		return atomicfile.Replace(path, content, mode)
	}
	return atomicfile.WriteCreated(path, content, durable, func(dir, pattern string) (*os.File, error) {
		return p.CreateTemp(dir, pattern, mode)
	})
}

// CreateTemp creates a new file in dir named by pattern (a "*" replaced
// by a random string, as os.CreateTemp does) with mode under the umask,
// and gives it the shared bits.
func (p Perm) CreateTemp(dir, pattern string, mode fs.FileMode) (*os.File, error) {
	prefix, suffix, _ := strings.Cut(pattern, "*")
	for try := 0; ; try++ {
		name := filepath.Join(dir, prefix+strconv.FormatUint(rand.Uint64(), 36)+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, mode)
		if errors.Is(err, fs.ErrExist) && try < 100 {
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := p.AdjustFile(f); err != nil {
			f.Close()
			os.Remove(name)
			return nil, err
		}
		return f, nil
	}
}

// Dirs makes path and its missing parents for git-yoimem's own state in
// the git directory: with mode when unshared (the umask applying, as
// before the setting was honoured), as MkdirAll does when shared.
func (p Perm) Dirs(path string, mode fs.FileMode) error {
	if !p.Shared() {
		return os.MkdirAll(path, mode)
	}
	return p.MkdirAll(path)
}

// OpenAppend opens the file at path for appending. One that exists is
// opened as it is, without reading the setting; a missing one is created
// with mode (the umask applying), its missing directories as Dirs makes
// them, and both get the shared bits.
func OpenAppend(path string, mode fs.FileMode, shared Source) (*os.File, error) {
	for try := 0; ; try++ {
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
		if !errors.Is(err, fs.ErrNotExist) || try == 3 {
			return f, err
		}
		perm, err := shared.Get()
		if err != nil {
			return nil, err
		}
		if err := perm.Dirs(filepath.Dir(path), 0o755); err != nil {
			return nil, fmt.Errorf("create %s: %w", filepath.Dir(path), err)
		}
		f, err = os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE|os.O_EXCL, mode)
		if errors.Is(err, fs.ErrExist) {
			continue // another writer created it meanwhile
		}
		if err != nil {
			return nil, err
		}
		if err := perm.AdjustFile(f); err != nil {
			f.Close()
			return nil, err
		}
		return f, nil
	}
}
