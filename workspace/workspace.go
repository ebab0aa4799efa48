package workspace

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/record"
)

// Env is what opening and using a workspace takes from the process.
type Env struct {
	Dir string // the working directory
	// Getenv reads the environment; nil when it is not known, and then
	// git is asked everything (no fast path).
	Getenv func(string) string
	// Environ is the environment git runs with; nil: the process's.
	Environ func() []string
	Now     func() time.Time
	// Warn is told warnings meant for people (a config key it does not
	// know, a cache it cannot write); nil drops them.
	Warn func(msg string)
}

func (e Env) warn(format string, args ...any) {
	if e.Warn != nil {
		e.Warn(fmt.Sprintf(format, args...))
	}
}

func (e Env) environ() []string {
	if e.Environ == nil {
		return nil
	}
	return e.Environ()
}

// Git is git run in dir with env's environment.
func (e Env) Git(dir string) gitstore.Git {
	return gitstore.Git{Dir: dir, Env: e.environ()}
}

// Options are the command line's say in which workspace opens and how.
type Options struct {
	// Workspace is the root that holds .yoi/ (--workspace), relative to
	// Env.Dir; it must be in the repository's working tree. Empty: the
	// top level.
	Workspace string
	// Config are -c KEY=VALUE settings, winning over every other layer.
	Config []string
}

// Workspace is a located repository, its workspace root and its
// configuration.
type Workspace struct {
	Repo gitstore.Repo
	Root string // holds .yoi/
	// Config is the effective configuration; nil after Find until
	// Configure.
	Config *config.Config

	env  Env
	opts Options
}

// Locate finds the repository around env.Dir and the workspace root; it
// reads no configuration (Config is nil).
func Locate(ctx context.Context, env Env, opts Options) (*Workspace, error) {
	repo, err := gitstore.Locate(ctx, env.Git(env.Dir))
	switch {
	case errors.Is(err, gitstore.ErrNotRepository):
		return nil, &Error{Kind: NotRepository, Err: fmt.Errorf("%s is not in a git repository", env.Dir)}
	case errors.Is(err, gitstore.ErrNoWorkTree):
		return nil, &Error{Kind: NoWorkTree, Err: fmt.Errorf("%s has no working tree (bare repository or inside .git)", env.Dir)}
	case err != nil:
		return nil, err
	}
	w := &Workspace{Repo: repo, Root: repo.TopLevel, env: env, opts: opts}
	if opts.Workspace != "" {
		root := opts.Workspace
		if !filepath.IsAbs(root) {
			root = filepath.Join(env.Dir, root)
		}
		w.Root = filepath.Clean(root)
		if !repo.Contains(w.Root) {
			return nil, &Error{Kind: OutsideWorkTree,
				Err: fmt.Errorf("--workspace %s: %s is not in the working tree of the repository at %s", quote.Short(opts.Workspace), quote.PathValue(w.Root, false), quote.PathValue(repo.TopLevel, false))}
		}
	}
	return w, nil
}

// Open locates the repository and loads the configuration, without
// running git when the repository is plain and env.Dir is its top: hooks
// and agents call us every turn, and each git process costs
// milliseconds. Anything unusual goes to git.
func Open(ctx context.Context, env Env, opts Options) (*Workspace, error) {
	if opts.Workspace != "" || env.Getenv == nil {
		return openSlow(ctx, env, opts)
	}
	repo, ok := gitstore.Discover(env.Dir, env.Getenv, env.Git(env.Dir))
	if !ok {
		return openSlow(ctx, env, opts)
	}
	w := &Workspace{Repo: repo, Root: repo.TopLevel, env: env, opts: opts}
	if err := w.Configure(ctx); err != nil {
		return nil, err
	}
	return w, nil
}

// Find locates the repository and the workspace root and reads no
// configuration, for a command that may not need it (the pre-commit hook
// of a commit that stages nothing under .yoi/). Config is nil until
// Configure.
func Find(ctx context.Context, env Env, opts Options) (*Workspace, error) {
	if opts.Workspace == "" && env.Getenv != nil {
		if repo, ok := gitstore.Discover(env.Dir, env.Getenv, env.Git(env.Dir)); ok {
			return &Workspace{Repo: repo, Root: repo.TopLevel, env: env, opts: opts}, nil
		}
	}
	return Locate(ctx, env, opts)
}

// Configure loads the configuration; git is asked for its yoimem.* keys
// only when its files may hold some.
func (w *Workspace) Configure(ctx context.Context) error {
	var gitEntries []config.Entry
	if w.env.Getenv == nil || config.MayHaveGitSettings(w.Repo.GitDir, w.Repo.CommonDir, w.env.Getenv) {
		var err error
		if gitEntries, err = config.FromGit(ctx, w.Repo.Git.Run); err != nil {
			return err
		}
	}
	cfg, err := resolve(w.env, w.opts, w.ConfigFile(), gitEntries)
	if err != nil {
		return err
	}
	w.Config = cfg
	return nil
}

// openSlow asks git where the repository is and what it configures; the
// two git calls run at once.
func openSlow(ctx context.Context, env Env, opts Options) (*Workspace, error) {
	type gitConfig struct {
		entries []config.Entry
		err     error
	}
	fromGit := make(chan gitConfig, 1)
	go func() {
		entries, err := config.FromGit(ctx, env.Git(env.Dir).Run)
		fromGit <- gitConfig{entries, err}
	}()
	w, err := Locate(ctx, env, opts)
	gc := <-fromGit
	if err != nil {
		return nil, err
	}
	if gc.err != nil {
		return nil, gc.err
	}
	if w.Config, err = resolve(env, opts, w.ConfigFile(), gc.entries); err != nil {
		return nil, err
	}
	return w, nil
}

// LoadConfig resolves the configuration with git's settings read through
// git, and file (.yoi/config; empty when there is no workspace).
func LoadConfig(ctx context.Context, env Env, opts Options, git gitstore.Git, file string) (*config.Config, error) {
	gitEntries, err := config.FromGit(ctx, git.Run)
	if err != nil {
		return nil, err
	}
	return resolve(env, opts, file, gitEntries)
}

// ConfigFile is the committed .yoi/config.
func (w *Workspace) ConfigFile() string {
	return filepath.Join(w.Root, record.Dir, record.ConfigPath)
}

// resolve is flag > git config > .yoi/config > default; warnings go to
// env.Warn.
func resolve(env Env, opts Options, file string, gitEntries []config.Entry) (*config.Config, error) {
	fileEntries, err := readConfigFile(file)
	if err != nil {
		return nil, &Error{Kind: BadConfigFile, Err: err}
	}
	var flags []config.Entry
	for _, s := range opts.Config {
		e, err := config.ParseFlag(s)
		if err != nil {
			return nil, &Error{Kind: BadConfigFlag, Arg: s, Err: err}
		}
		flags = append(flags, e)
	}
	cfg, warnings, err := config.Resolve(fileEntries, gitEntries, flags)
	for _, w := range warnings {
		env.warn("%s", w)
	}
	if err != nil {
		return nil, &Error{Kind: BadConfigValue, Err: err}
	}
	for _, key := range []string{config.KeyBranch, config.KeyBaseBranch} {
		v, _ := cfg.Get(key)
		if v.Raw == "" && key == config.KeyBaseBranch {
			continue // automatic
		}
		if err := gitstore.CheckBranchName(v.Raw); err != nil {
			return nil, &Error{Kind: BadBranch, Err: fmt.Errorf("%s (%s): %w", key, v.Origin, err)}
		}
	}
	return cfg, nil
}

// readConfigFile reads .yoi/config; a missing file has no entries.
func readConfigFile(file string) ([]config.Entry, error) {
	if file == "" {
		return nil, nil
	}
	f, err := os.Open(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, nil
	case err != nil:
		return nil, fmt.Errorf("read %s: %w", record.DisplayPath(record.ConfigPath), err)
	}
	defer f.Close()
	// named as every command prints it: from the workspace root
	return config.ParseFile(f, record.DisplayPath(record.ConfigPath))
}
