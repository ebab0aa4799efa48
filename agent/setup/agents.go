package setup

import (
	"errors"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/sharedperm"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/yoimem/git-yoimem/agent"
	"github.com/yoimem/git-yoimem/agent/claudecode"
)

// ErrNoHome: the local or user scope's files are under HOME, which is
// not set.
var ErrNoHome = errors.New("HOME is not set to an absolute directory")

// ErrCodexHome: CODEX_HOME is set to a relative path.
var ErrCodexHome = errors.New("Codex's directory")

// Scope is where an agent's settings live.
type Scope string

// The scopes, as --scope names them.
const (
	// Project is the repository's shared, committed settings.
	Project Scope = "project"
	// Local is this repository on this machine only (git-ignored or
	// outside the repository).
	Local Scope = "local"
	// User is every repository of the user (under HOME).
	User Scope = "user"
)

// Scopes lists the scopes in the order they are checked and printed.
func Scopes() []Scope { return []Scope{Project, Local, User} }

// ParseScope reads a --scope value.
func ParseScope(s string) (Scope, error) {
	for _, sc := range Scopes() {
		if string(sc) == s {
			return sc, nil
		}
	}
	return "", fmt.Errorf("unknown scope %q (want project, local or user)", s)
}

// Locations are the directories the files of a scope are found from.
type Locations struct {
	Top  string // the repository's top level (absolute)
	Home string // the user's home directory (absolute); "" when unknown
	// CodexHome is CODEX_HOME, Codex's directory; "" is ~/.codex.
	CodexHome string
	// Created is this machine's record of the settings files install
	// created, which uninstall alone may remove (created.go): for the
	// project and local scopes <git-common-dir>/yoimem/agent/created.json,
	// for the user scope $XDG_CONFIG_HOME/git-yoimem/created.json. ""
	// keeps no record: uninstall then removes no file.
	Created string
	// CreatedShared is the repository's core.sharedRepository, for a
	// record kept in its git directory (nil: the umask's bits).
	CreatedShared sharedperm.Source
	// Context is the repository's always-on memory context, for a file
	// that holds it (Codex's AGENTS.md); nil when there is none to give.
	Context func() (agent.Context, error)
}

// Options say how our entries are written.
type Options struct {
	// Write registers the MCP server with --write (the memory tools may
	// write); read-only otherwise.
	Write bool
	// Command runs git-yoimem from the agent's hooks ("git yoimem" when
	// empty).
	Command string
	// Notify also sets Codex's notify command (for a Codex with hooks
	// off).
	Notify bool
}

// Role is what a file holds for us.
type Role string

const (
	Hooks    Role = "hooks"     // the agent's hooks running git yoimem hook <agent>
	MCP      Role = "mcp"       // the MCP server git yoimem mcp
	AgentsMD Role = "agents-md" // the always-on memory in AGENTS.md's block
)

// File is one file of an agent's setup in one scope and how our entries
// are merged into it and taken out of it.
type File struct {
	Path string // absolute
	Show string // as messages name it: .claude/settings.json, ~/.claude.json
	Role Role
	// Perm is the mode of a file created new.
	Perm uint32
	// Private: a file in the repository that must stay on this machine
	// (git-ignored), as the local scope's settings.
	Private bool

	merge   func(old []byte, o Options) ([]byte, error)
	unmerge func(old []byte) ([]byte, error)
	// current tells whether old holds our entries as merge writes them
	// for some Options (the --write choice is the user's).
	current func(old []byte) (bool, error)
	// notify tells whether old runs our notify command (Codex's
	// config.toml); nil for other files.
	notify func(old []byte) bool
}

// Agent is one agent git-yoimem integrates with: its name (as --agent
// and `git yoimem hook <agent>` spell it) and its files per scope.
type Agent struct {
	Name   string
	Title  string // as messages name it: Claude Code
	Scopes []Scope
	files  func(sc Scope, loc Locations) ([]File, error)
	// next is what the user must still do in the agent after an install
	// in scope sc (nil: nothing).
	next func(sc Scope, loc Locations, o Options) []string
}

// Next lists what the user must still do in the agent, after an install
// in scope sc with o, for our entries to take effect.
func (a Agent) Next(sc Scope, loc Locations, o Options) []string {
	if a.next == nil {
		return nil
	}
	return a.next(sc, loc, o)
}

// Files lists the files of the agent's setup in a scope. User scope
// needs loc.Home.
func (a Agent) Files(sc Scope, loc Locations) ([]File, error) {
	if !slices.Contains(a.Scopes, sc) {
		return nil, fmt.Errorf("%s has no %s scope", a.Name, sc)
	}
	if sc == User && a.Name == Codex && loc.CodexHome != "" {
		if !filepath.IsAbs(loc.CodexHome) {
			return nil, fmt.Errorf("%w: CODEX_HOME %q is not an absolute directory", ErrCodexHome, loc.CodexHome)
		}
	} else if sc == User || needsHome(a, sc) {
		if loc.Home == "" || !filepath.IsAbs(loc.Home) {
			return nil, fmt.Errorf("%w: the %s scope's files are under it", ErrNoHome, sc)
		}
	}
	return a.files(sc, loc)
}

func needsHome(a Agent, sc Scope) bool { return a.Name == ClaudeCode && sc == Local }

// homeExists: an install under HOME needs it to be a directory already;
// one that names none is a mistake, and install makes no home directory.
func homeExists(a Agent, sc Scope, loc Locations) error {
	if sc != User && !needsHome(a, sc) {
		return nil
	}
	fi, err := os.Stat(loc.Home)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%w: %s does not exist", ErrNoHome, loc.Home)
	case err != nil:
		return fmt.Errorf("%w: %v", ErrNoHome, err)
	case !fi.IsDir():
		return fmt.Errorf("%w: %s is not a directory", ErrNoHome, loc.Home)
	}
	return nil
}

// Agents lists the agents git-yoimem can install into, in the order
// --agent all installs them.
func Agents() []Agent {
	return []Agent{claudeCode(), codexAgent()}
}

// Names lists the agents' names.
func Names() []string {
	var n []string
	for _, a := range Agents() {
		n = append(n, a.Name)
	}
	return n
}

// Lookup finds an agent by name.
func Lookup(name string) (Agent, error) {
	for _, a := range Agents() {
		if a.Name == name {
			return a, nil
		}
	}
	return Agent{}, fmt.Errorf("unknown agent %q (want %s, or all)", name, strings.Join(Names(), ", "))
}

// ClaudeCode is Claude Code's name.
const ClaudeCode = "claude-code"

// claudeCode is Claude Code: hooks in the scope's settings file; the MCP
// server where Claude Code reads that scope's servers: .mcp.json at the
// top (project), ~/.claude.json under projects["<top>"] (local) or at its
// top level (user).
func claudeCode() Agent {
	return Agent{Name: ClaudeCode, Title: "Claude Code", Scopes: Scopes(), files: claudeFiles}
}

func claudeFiles(sc Scope, loc Locations) ([]File, error) {
	settings := func(path, show string) File {
		return File{Path: path, Show: show, Role: Hooks, Perm: 0o644,
			merge: func(old []byte, o Options) ([]byte, error) {
				return claudecode.MergeSettings(old, claudecode.SettingsOptions{Command: o.Command})
			},
			unmerge: claudecode.UnmergeSettings,
			current: func(old []byte) (bool, error) { return isCurrentSettings(old) },
		}
	}
	mcp := File{Role: MCP, Perm: 0o644,
		merge:   func(old []byte, o Options) ([]byte, error) { return claudecode.MergeMCP(old, o.Write) },
		unmerge: claudecode.UnmergeMCP,
		current: isCurrentMCP,
	}
	switch sc {
	case Project:
		mcp.Path, mcp.Show = filepath.Join(loc.Top, ".mcp.json"), ".mcp.json"
		return []File{settings(filepath.Join(loc.Top, ".claude", "settings.json"), ".claude/settings.json"), mcp}, nil
	case Local:
		local := settings(filepath.Join(loc.Top, ".claude", "settings.local.json"), ".claude/settings.local.json")
		local.Private = true
		mcp = inProject(mcp, loc.Top)
		mcp.Path, mcp.Show, mcp.Perm = filepath.Join(loc.Home, ".claude.json"), "~/.claude.json", 0o600
		return []File{local, mcp}, nil
	default:
		mcp.Path, mcp.Show, mcp.Perm = filepath.Join(loc.Home, ".claude.json"), "~/.claude.json", 0o600
		return []File{settings(filepath.Join(loc.Home, ".claude", "settings.json"), "~/.claude/settings.json"), mcp}, nil
	}
}

// isCurrentSettings: merging adds nothing and our hooks are there.
func isCurrentSettings(old []byte) (bool, error) {
	merged, err := claudecode.MergeSettings(old, claudecode.SettingsOptions{})
	if err != nil {
		return false, err
	}
	return string(merged) == string(old), nil
}

// isCurrentMCP: our server is there, read-only or with --write.
func isCurrentMCP(old []byte) (bool, error) {
	for _, w := range []bool{false, true} {
		merged, err := claudecode.MergeMCP(old, w)
		if err != nil {
			return false, err
		}
		if string(merged) == string(old) {
			return true, nil
		}
	}
	return false, nil
}
