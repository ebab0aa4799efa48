package gitstore

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
)

// errNotFilesBackend means the refs are not plain files (reftable, or
// something odd about the ref): git update-ref must do the swap.
var errNotFilesBackend = errors.New("refs are not plain files here")

// swapRefFile moves a branch with git's own lock-file protocol for the
// files ref backend, saving the git process a memory commit would
// otherwise wait for: create <ref>.lock exclusively (git's writers fail on
// it, as we fail on theirs), check the current value (loose, else packed)
// is old ("" = must not exist), write the new value, append the reflog
// line, rename the lock over the ref. errRefMoved reports a lost race.
// Directories, the lock (the ref to be) and the reflog get git's bits
// under core.sharedRepository (perm), as git's own would.
func swapRefFile(commonDir string, perm sharedperm.Perm, ref, newHash, old, reflogMsg string, who Signature) error {
	if format, err := repoExtension(commonDir, "refstorage"); err != nil || (format != "" && format != "files") {
		return errNotFilesBackend
	}
	path := filepath.Join(commonDir, filepath.FromSlash(ref))
	if err := perm.MkdirAll(filepath.Dir(path)); err != nil {
		return fmt.Errorf("create %s: %w", filepath.Dir(path), err)
	}
	lock := path + ".lock"
	f, err := os.OpenFile(lock, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o666)
	if errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("%w: %s is locked by another git process", errRefMoved, ref)
	}
	if err != nil {
		return fmt.Errorf("lock %s: %w", ref, err)
	}
	committed := false
	defer func() {
		if !committed {
			f.Close()
			os.Remove(lock)
		}
	}()
	if err := perm.AdjustFile(f); err != nil {
		return fmt.Errorf("lock %s: %w", ref, err)
	}
	cur, err := currentRef(commonDir, path, ref)
	if err != nil {
		return err
	}
	if cur != old {
		return fmt.Errorf("%w: %s is at %q, expected %q", errRefMoved, ref, cur, old)
	}
	if _, err := f.WriteString(newHash + "\n"); err != nil {
		return fmt.Errorf("write %s: %w", lock, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", lock, err)
	}
	if err := appendReflog(commonDir, perm, ref, old, newHash, reflogMsg, who); err != nil {
		return err
	}
	if err := os.Rename(lock, path); err != nil {
		return fmt.Errorf("move %s: %w", ref, err)
	}
	committed = true
	return nil
}

// currentRef is the ref's value: the loose file, else packed-refs, else "".
func currentRef(commonDir, path, ref string) (string, error) {
	b, err := os.ReadFile(path)
	switch {
	case err != nil && errors.Is(err, syscall.EISDIR):
		return "", errNotFilesBackend // a directory in the way: git knows what to do
	case err == nil:
		v := strings.TrimSpace(string(b))
		if len(v) != 40 || strings.HasPrefix(v, "ref:") {
			return "", errNotFilesBackend // a symbolic or odd ref: leave it to git
		}
		return v, nil
	case !errors.Is(err, fs.ErrNotExist):
		return "", fmt.Errorf("read %s: %w", ref, err)
	}
	pf, err := os.Open(filepath.Join(commonDir, "packed-refs"))
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read packed-refs: %w", err)
	}
	defer pf.Close()
	sc := bufio.NewScanner(pf)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	found := ""
	for sc.Scan() {
		hash, name, ok := strings.Cut(sc.Text(), " ")
		if !ok || len(hash) != 40 {
			continue
		}
		switch {
		case name == ref:
			found = hash
		case strings.HasPrefix(ref, name+"/") || strings.HasPrefix(name, ref+"/"):
			// refs/heads/yoimem next to refs/heads/yoimem/memory: a
			// conflict git reports itself.
			return "", errNotFilesBackend
		}
	}
	return found, sc.Err()
}

// appendReflog adds git's reflog line: old new identity time zone TAB msg.
// Like git, it gives the reflog the shared bits on every write.
func appendReflog(commonDir string, perm sharedperm.Perm, ref, old, newHash, msg string, who Signature) error {
	if old == "" {
		old = plumbing.ZeroHash.String()
	}
	path := filepath.Join(commonDir, "logs", filepath.FromSlash(ref))
	if err := perm.MkdirAll(filepath.Dir(path)); err != nil {
		return fmt.Errorf("create reflog of %s: %w", ref, err)
	}
	when := who.When
	if when.IsZero() {
		when = time.Now()
	}
	line := fmt.Sprintf("%s %s %s <%s> %d %s\t%s\n", old, newHash, oneLine(who.Name), oneLine(who.Email), when.Unix(), when.Format("-0700"), oneLine(msg))
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return fmt.Errorf("reflog of %s: %w", ref, err)
	}
	if err := perm.AdjustFile(f); err != nil {
		f.Close()
		return fmt.Errorf("reflog of %s: %w", ref, err)
	}
	if _, err := f.WriteString(line); err != nil {
		f.Close()
		return fmt.Errorf("reflog of %s: %w", ref, err)
	}
	return f.Close()
}

// oneLine folds white space, so that a name or message fits on a reflog
// line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
