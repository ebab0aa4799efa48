package gitstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/gcfg"
	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
)

// This file reads core.sharedRepository, which decides the permission
// bits of the objects, refs, reflogs and locks written into the git
// directory without git (internal/sharedperm applies them). It is read
// from the configuration files git reads, without running git; git is
// asked only when a file cannot be read for certain (an includeIf, a
// syntax the parser refuses) or the command line (git -c, through
// GIT_CONFIG_PARAMETERS or GIT_CONFIG_COUNT) may set it.

// maxIncludeDepth is git's bound on nested include.path files.
const maxIncludeDepth = 10

// errAskGit means the files alone cannot say what git would read.
var errAskGit = errors.New("ask git")

// SharedPerm is core.sharedRepository as git reads it in r, for what is
// written into its git directory (internal/sharedperm applies it). It is
// read anew on every call: callers keep it for as long as they write.
func SharedPerm(r Repo) (sharedperm.Perm, error) { return readSharedPerm(r) }

// SharedIn is the setting for files written in dir: SharedPerm when dir
// is in r's common git directory (git adjusts only what is there, not a
// core.hooksPath in the working tree), else the umask's.
func SharedIn(r Repo, dir string) sharedperm.Source {
	if !within(resolveExisting(filepath.Clean(dir)), r.CommonDir) {
		return sharedperm.Fixed(sharedperm.Umask)
	}
	return func() (sharedperm.Perm, error) { return SharedPerm(r) }
}

// readSharedPerm is core.sharedRepository as git reads it in r: every
// scope, the last setting winning. An invalid value is an error naming
// the setting, as git refuses it.
func readSharedPerm(r Repo) (sharedperm.Perm, error) {
	getenv := r.getenv
	if commandLineMay(getenv) {
		return sharedPermFromGit(r)
	}
	files := config.GitFiles(r.GitDir, r.CommonDir, getenv)
	var s sharedSetting
	for i, f := range files {
		if i == len(files)-1 && !s.worktreeConfig {
			break // config.worktree counts only under extensions.worktreeConfig
		}
		s.local = i == len(files)-2 // the repository's own config
		if err := s.read(f, getenv("HOME"), 0); errors.Is(err, errAskGit) {
			return sharedPermFromGit(r)
		} else if err != nil {
			return sharedperm.Umask, err
		}
	}
	if !s.set {
		return sharedperm.Umask, nil
	}
	p, err := sharedperm.Parse(s.value, s.noValue)
	if err != nil {
		return p, fmt.Errorf("%s: %w", s.origin, err)
	}
	return p, nil
}

// getenv reads the environment git runs with in r (its Env, or the
// process's).
func (r Repo) getenv(key string) string {
	if r.Git.Env == nil {
		return os.Getenv(key)
	}
	v := ""
	for _, kv := range r.Git.Env {
		if rest, ok := strings.CutPrefix(kv, key+"="); ok {
			v = rest // the last one wins, as in exec
		}
	}
	return v
}

// commandLineMay tells whether git's command-line configuration may set
// core.sharedRepository: naming it, or including a file.
func commandLineMay(getenv func(string) string) bool {
	may := func(s string) bool {
		low := strings.ToLower(s)
		return strings.Contains(low, "sharedrepository") || strings.Contains(low, "include")
	}
	if may(getenv("GIT_CONFIG_PARAMETERS")) {
		return true
	}
	n, _ := strconv.Atoi(getenv("GIT_CONFIG_COUNT"))
	for i := 0; i < n; i++ {
		if may(getenv("GIT_CONFIG_KEY_" + strconv.Itoa(i))) {
			return true
		}
	}
	return false
}

// sharedSetting is the last core.sharedRepository of the files read.
type sharedSetting struct {
	set, noValue   bool
	value          string
	origin         string // the file that set it
	local          bool   // reading the repository's config
	worktreeConfig bool   // its extensions.worktreeConfig, for config.worktree
}

// read adds the settings of the config file at path (a missing one has
// none) and of the files it includes with include.path.
func (s *sharedSetting) read(path, home string, depth int) (err error) {
	if path == "/dev/null" {
		return nil
	}
	b, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return errAskGit
	}
	defer func() {
		if recover() != nil { // gcfg panics on some malformed values
			err = errAskGit
		}
	}()
	low := bytes.ToLower(b)
	if !bytes.Contains(low, []byte("sharedrepository")) && !bytes.Contains(low, []byte("include")) && !bytes.Contains(low, []byte("worktreeconfig")) {
		return nil // nothing here can matter: no need to parse it
	}
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf")) // git skips a UTF-8 BOM
	err = gcfg.ReadWithCallback(bytes.NewReader(b), func(section, subsection, key, value string, blank bool) error {
		switch {
		case strings.EqualFold(section, "includeIf"):
			return errAskGit // conditions (gitdir:, onbranch:, hasconfig:) are git's
		case key == "":
		case strings.EqualFold(section, "include") && subsection == "" && strings.EqualFold(key, "path"):
			if blank {
				return errAskGit
			}
			// An included file's settings come where it is included.
			return s.include(path, value, home, depth)
		case subsection != "":
		case strings.EqualFold(section, "core") && strings.EqualFold(key, "sharedRepository"):
			s.set, s.value, s.noValue, s.origin = true, value, blank, path
		case s.local && strings.EqualFold(section, "extensions") && strings.EqualFold(key, "worktreeConfig"):
			s.worktreeConfig = !configFalse(value, blank)
		}
		return nil
	})
	if err != nil && !errors.Is(err, errAskGit) {
		return errAskGit // a syntax gcfg refuses: git knows
	}
	return err
}

// include reads the file an include.path in the file from names.
func (s *sharedSetting) include(from, name, home string, depth int) error {
	if depth >= maxIncludeDepth {
		return errAskGit // git refuses it; let git say so
	}
	switch {
	case name == "~" || strings.HasPrefix(name, "~/"):
		if home == "" {
			return errAskGit
		}
		name = filepath.Join(home, name[1:])
	case strings.HasPrefix(name, "~"):
		return errAskGit // ~user
	case !filepath.IsAbs(name):
		name = filepath.Join(filepath.Dir(from), name)
	}
	return s.read(name, home, depth+1)
}

// sharedPermFromGit asks git: git config -z --get-regexp, whose records
// tell a key without a value (true) from an empty one.
func sharedPermFromGit(r Repo) (sharedperm.Perm, error) {
	out, err := r.Git.Run(context.Background(), "config", "-z", "--get-regexp", `^core\.sharedrepository$`)
	var ge *Error
	if errors.As(err, &ge) && ge.ExitCode == 1 && len(out) == 0 {
		return sharedperm.Umask, nil // not set
	}
	if err != nil {
		return sharedperm.Umask, fmt.Errorf("read %s: %w", sharedperm.Key, err)
	}
	recs := bytes.Split(bytes.TrimSuffix(out, []byte{0}), []byte{0})
	_, value, hasValue := strings.Cut(string(recs[len(recs)-1]), "\n")
	return sharedperm.Parse(value, !hasValue)
}
