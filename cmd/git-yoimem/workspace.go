package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/yoimem/git-yoimem/config"
	"github.com/yoimem/git-yoimem/gitstore"
	"github.com/yoimem/git-yoimem/internal/quote"
	"github.com/yoimem/git-yoimem/lint"
	"github.com/yoimem/git-yoimem/record"
)

// workspace is a located repository, its workspace root and configuration.
type workspace struct {
	repo gitstore.Repo
	root string // holds .yoi/
	cfg  *config.Config
}

func (w *workspace) yoiDir() string { return filepath.Join(w.root, record.Dir) }

func gitFor(env Env, dir string) gitstore.Git {
	return gitstore.Git{Dir: dir, Env: environ(env)}
}

// locate finds the repository around env.Dir; it does not read config.
func locate(ctx context.Context, env Env, g *globalOptions) (*workspace, error) {
	repo, err := gitstore.Locate(ctx, gitFor(env, env.Dir))
	switch {
	case errors.Is(err, gitstore.ErrNotRepository):
		return nil, cannotRun(fmt.Errorf("%s is not in a git repository", env.Dir), "run 'git init' first, or cd into a repository")
	case errors.Is(err, gitstore.ErrNoWorkTree):
		return nil, cannotRun(fmt.Errorf("%s has no working tree (bare repository or inside .git)", env.Dir), "run git yoimem inside a working tree")
	case err != nil:
		return nil, cannotRun(err)
	}
	w := &workspace{repo: repo, root: repo.TopLevel}
	if g.workspace != "" {
		root := g.workspace
		if !filepath.IsAbs(root) {
			root = filepath.Join(env.Dir, root)
		}
		w.root = filepath.Clean(root)
		if !repo.Contains(w.root) {
			return nil, &exitError{code: exitCannotRun,
				err:   fmt.Errorf("--workspace %s: %s is not in the working tree of the repository at %s", quote.Short(g.workspace), quote.PathValue(w.root, false), quote.PathValue(repo.TopLevel, false)),
				hints: []string{"give a directory of this repository's working tree (the default is its top level), or cd into the repository that holds it"}}
		}
	}
	return w, nil
}

// openWorkspace locates the repository and loads the configuration,
// without running git when the repository is plain and we are at its top:
// hooks and agents call us every turn, and each git process costs
// milliseconds. Anything unusual goes to git (slowWorkspace).
func openWorkspace(ctx context.Context, env Env, g *globalOptions) (*workspace, error) {
	if g.workspace != "" || env.Getenv == nil {
		return slowWorkspace(ctx, env, g)
	}
	repo, ok := gitstore.Discover(env.Dir, env.Getenv, gitFor(env, env.Dir))
	if !ok {
		return slowWorkspace(ctx, env, g)
	}
	w := &workspace{repo: repo, root: repo.TopLevel}
	if err := w.configure(ctx, env, g); err != nil {
		return nil, err
	}
	return w, nil
}

// findWorkspace locates the repository and the workspace root and reads
// no configuration, for a command that may not need it (the pre-commit
// hook of a commit that stages nothing under .yoi/). w.cfg is nil until
// w.configure.
func findWorkspace(ctx context.Context, env Env, g *globalOptions) (*workspace, error) {
	if g.workspace == "" && env.Getenv != nil {
		if repo, ok := gitstore.Discover(env.Dir, env.Getenv, gitFor(env, env.Dir)); ok {
			return &workspace{repo: repo, root: repo.TopLevel}, nil
		}
	}
	return locate(ctx, env, g)
}

// configure loads w's configuration; git is asked for its yoimem.* keys
// only when its files may hold some.
func (w *workspace) configure(ctx context.Context, env Env, g *globalOptions) error {
	var gitEntries []config.Entry
	if env.Getenv == nil || config.MayHaveGitSettings(w.repo.GitDir, w.repo.CommonDir, env.Getenv) {
		var err error
		if gitEntries, err = config.FromGit(ctx, w.repo.Git.Run); err != nil {
			return cannotRun(err)
		}
	}
	cfg, err := resolveConfig(env, g, filepath.Join(w.root, record.Dir, record.ConfigPath), gitEntries)
	if err != nil {
		return err
	}
	w.cfg = cfg
	return nil
}

// slowWorkspace asks git where the repository is and what it configures;
// the two git calls run at once.
func slowWorkspace(ctx context.Context, env Env, g *globalOptions) (*workspace, error) {
	type gitConfig struct {
		entries []config.Entry
		err     error
	}
	fromGit := make(chan gitConfig, 1)
	go func() {
		entries, err := config.FromGit(ctx, gitFor(env, env.Dir).Run)
		fromGit <- gitConfig{entries, err}
	}()
	w, err := locate(ctx, env, g)
	gc := <-fromGit
	if err != nil {
		return nil, err
	}
	if gc.err != nil {
		return nil, cannotRun(gc.err)
	}
	cfg, err := resolveConfig(env, g, filepath.Join(w.root, record.Dir, record.ConfigPath), gc.entries)
	if err != nil {
		return nil, err
	}
	w.cfg = cfg
	return w, nil
}

// loadConfig resolves flag > git config > .yoi/config > default. file may
// be empty when there is no workspace.
func loadConfig(ctx context.Context, env Env, g *globalOptions, git gitstore.Git, file string) (*config.Config, error) {
	gitEntries, err := config.FromGit(ctx, git.Run)
	if err != nil {
		return nil, cannotRun(err)
	}
	return resolveConfig(env, g, file, gitEntries)
}

func resolveConfig(env Env, g *globalOptions, file string, gitEntries []config.Entry) (*config.Config, error) {
	var fileEntries []config.Entry
	if file != "" {
		f, err := os.Open(file)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, cannotRun(fmt.Errorf("read %s: %w", record.DisplayPath(record.ConfigPath), err))
		default:
			// named as every command prints it: from the workspace root
			fileEntries, err = config.ParseFile(f, record.DisplayPath(record.ConfigPath))
			f.Close()
			if err != nil {
				return nil, cannotRun(err)
			}
		}
	}
	var flags []config.Entry
	for _, s := range g.configFlags {
		e, err := config.ParseFlag(s)
		if err != nil {
			return nil, badConfigFlag(s, err)
		}
		flags = append(flags, e)
	}
	cfg, warnings, err := config.Resolve(fileEntries, gitEntries, flags)
	for _, w := range warnings {
		warnf(env.Stderr, "%s", w)
	}
	if err != nil {
		return nil, cannotRun(err, "fix the value, or remove it to use the default; 'git yoimem config' lists every key")
	}
	for _, key := range []string{config.KeyBranch, config.KeyBaseBranch} {
		v, _ := cfg.Get(key)
		if v.Raw == "" && key == config.KeyBaseBranch {
			continue // automatic
		}
		if err := gitstore.CheckBranchName(v.Raw); err != nil {
			return nil, cannotRun(fmt.Errorf("%s (%s): %w", key, v.Origin, err), "use a name git accepts as a branch (git check-ref-format --branch NAME)")
		}
	}
	return cfg, nil
}

// badConfigFlag is a -c that names no key: what was meant, or its shape.
func badConfigFlag(arg string, err error) error {
	name, value, _ := strings.Cut(arg, "=")
	if s := config.SuggestKeys(name); len(s) == 1 {
		return usageErrorHint("did you mean -c "+s[0]+"="+value+"?", "%v", err)
	}
	return usageErrorHint("write it as -c yoimem.<section>.<key>=VALUE; 'git yoimem config' lists every key", "%v", err)
}

// displayPath shows an absolute path relative to the working directory
// when it is below it.
func displayPath(env Env, p string) string {
	if rel, err := filepath.Rel(env.Dir, p); err == nil && filepath.IsLocal(rel) {
		return rel
	}
	return p
}

// lintOptions maps configuration onto the linter's options.
func lintOptions(cfg *config.Config) lint.Options {
	o := lint.DefaultOptions()
	o.MaxFileBytes = cfg.Int(config.KeyLintMaxFileBytes)
	o.Caps = map[record.Kind]int{
		record.KindSummary:   int(cfg.Int(config.KeyLintSummaryChars)),
		record.KindDecision:  int(cfg.Int(config.KeyLintDecisionChars)),
		record.KindRequest:   int(cfg.Int(config.KeyLintRequestChars)),
		record.KindKnowledge: int(cfg.Int(config.KeyLintKnowledgeChars)),
	}
	o.DescriptionChars = int(cfg.Int(config.KeyLintDescriptionChars))
	o.SourcesWarn = int(cfg.Int(config.KeyLintSourcesWarn))
	o.LowImportanceTokens = cfg.Int(config.KeyLintLowImportanceTokens)
	o.LossRatio = cfg.Float(config.KeyLintLossRatio)
	o.SimilarSlugs = cfg.Bool(config.KeyLintSimilarSlugs)
	o.ProtectFrequency = cfg.Float(config.KeyMetricsProtectFrequency)
	return o
}
