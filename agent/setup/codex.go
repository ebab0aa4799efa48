package setup

import (
	"errors"
	"fmt"
	"path/filepath"

	"github.com/yoimem/git-yoimem/agent/codex"
)

// Codex is OpenAI Codex CLI's name.
const Codex = "codex"

// codexAgent is Codex: hooks in hooks.json, the MCP server (and, with
// Notify, notify) in config.toml, and in the project scope the
// always-on memory in AGENTS.md's block. The project scope's files are
// the repository's .codex/ and AGENTS.md at its top level; Codex reads a
// project's .codex/ only once the user trusts the project. The user
// scope's are $CODEX_HOME (~/.codex): Codex has no per-repository file
// outside the repository, so there is no local scope.
func codexAgent() Agent {
	return Agent{Name: Codex, Title: "Codex", Scopes: []Scope{Project, User}, files: codexFiles, next: codexNext}
}

func codexFiles(sc Scope, loc Locations) ([]File, error) {
	notifyHere := func(o Options) error {
		if o.Notify && sc != User {
			return ErrNotifyScope
		}
		return nil
	}
	hooks := File{Role: Hooks, Perm: 0o644,
		merge: func(old []byte, o Options) ([]byte, error) {
			return codex.MergeHooks(old, codex.HooksOptions{Command: o.Command})
		},
		unmerge: codex.UnmergeHooks,
		current: func(old []byte) (bool, error) {
			merged, err := codex.MergeHooks(old, codex.HooksOptions{})
			return err == nil && string(merged) == string(old), err
		},
	}
	config := File{Role: MCP, Perm: 0o644,
		merge: func(old []byte, o Options) ([]byte, error) {
			if err := notifyHere(o); err != nil {
				return nil, err
			}
			return codex.MergeConfig(old, codex.ConfigOptions{Write: o.Write, Notify: o.Notify})
		},
		unmerge: codex.UnmergeConfig,
		current: isCurrentConfig,
		notify:  codex.HasNotify,
	}
	if sc == Project {
		hooks.Path, hooks.Show = filepath.Join(loc.Top, ".codex", "hooks.json"), ".codex/hooks.json"
		config.Path, config.Show = filepath.Join(loc.Top, ".codex", "config.toml"), ".codex/config.toml"
		return []File{hooks, config, agentsMD(loc)}, nil
	}
	dir, show := loc.CodexHome, "$CODEX_HOME"
	if dir == "" {
		dir, show = filepath.Join(loc.Home, ".codex"), "~/.codex"
	}
	hooks.Path, hooks.Show = filepath.Join(dir, "hooks.json"), show+"/hooks.json"
	config.Path, config.Show, config.Perm = filepath.Join(dir, "config.toml"), show+"/config.toml", 0o600
	return []File{hooks, config}, nil
}

// isCurrentConfig: our server is there, read-only or with --write
// (notify is the user's choice: present or not, the file is current).
func isCurrentConfig(old []byte) (bool, error) {
	for _, w := range []bool{false, true} {
		merged, err := codex.MergeConfig(old, codex.ConfigOptions{Write: w})
		if err != nil {
			return false, err
		}
		if string(merged) == string(old) {
			return true, nil
		}
	}
	return false, nil
}

// ErrNotifyScope: --notify outside the user scope. Codex reads notify
// only from $CODEX_HOME/config.toml: in a project's .codex/config.toml,
// trusted or not, it is ignored (seen with Codex 0.171).
var ErrNotifyScope = errors.New("Codex reads notify only from the user's config.toml ($CODEX_HOME, ~/.codex), not a project's")

// ErrMemoryContext: the memory's always-on context, which AGENTS.md's
// block holds, could not be built (no .yoi/, a summary over the budget);
// the error wrapping it says why.
var ErrMemoryContext = errors.New("the memory context for AGENTS.md")

// errNoContext: an install of AGENTS.md with no memory to put in it.
var errNoContext = fmt.Errorf("%w: none given (is there a .yoi/?)", ErrMemoryContext)

// agentsMD is AGENTS.md at the repository's top level: our block holds
// the always-on context, fitted to Codex's default cap on the text it
// reads (project_doc_max_bytes). It is current when it holds the
// memory as it is now; without loc.Context, when it has a block.
func agentsMD(loc Locations) File {
	text := func(old []byte) (string, error) {
		if loc.Context == nil {
			return "", errNoContext
		}
		c, err := loc.Context()
		if err != nil {
			return "", fmt.Errorf("%w: %w", ErrMemoryContext, err)
		}
		return codex.FitAgentsMD(old, c, codex.ProjectDocMaxBytes)
	}
	return File{Path: filepath.Join(loc.Top, "AGENTS.md"), Show: "AGENTS.md", Role: AgentsMD, Perm: 0o644,
		merge: func(old []byte, _ Options) ([]byte, error) {
			t, err := text(old)
			if err != nil {
				return nil, err
			}
			return codex.MergeAgentsMD(old, t)
		},
		unmerge: codex.UnmergeAgentsMD,
		current: func(old []byte) (bool, error) {
			if loc.Context == nil {
				out, err := codex.UnmergeAgentsMD(old)
				return err == nil && len(out) != len(old), err
			}
			t, err := text(old)
			if err != nil {
				return false, err
			}
			merged, err := codex.MergeAgentsMD(old, t)
			return err == nil && string(merged) == string(old), err
		},
	}
}

// codexNext is what Codex needs before our entries work: it runs the
// hooks of a hooks.json only once they are reviewed, and reads a
// project's .codex/ only in a project the user trusts.
func codexNext(sc Scope, loc Locations, o Options) []string {
	var n []string
	if sc == Project {
		n = append(n, fmt.Sprintf("trust this project in Codex (it asks the first time codex runs here; or add [projects.%q] trust_level = \"trusted\" to ~/.codex/config.toml): Codex reads .codex/ only in trusted projects", loc.Top))
	}
	n = append(n, "in Codex, open /hooks and trust git-yoimem's hooks: Codex runs new or changed hooks only once reviewed")
	if o.Notify {
		n = append(n, "notify needs no review: it runs after each turn once Codex restarts")
	}
	return n
}
