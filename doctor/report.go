package doctor

import (
	"github.com/yoimem/git-yoimem/agent/setup"
	"github.com/yoimem/git-yoimem/gitstore"
)

// Report is what Run found. Checks are the verdicts, in order; the
// other fields are what each was decided from.
type Report struct {
	Checks   []Check      `json:"checks"`
	GitHooks GitHooks     `json:"git_hooks"`
	Agents   []AgentScope `json:"agents"`
	// MCPApproval is whether Claude Code starts the server in .mcp.json
	// (absent when .mcp.json does not hold ours).
	MCPApproval  *setup.MCPApproval `json:"mcp_approval,omitempty"`
	Models       []Model            `json:"models"`
	Helper       Helper             `json:"helper"`
	Staging      Staging            `json:"staging"`
	MemoryBranch MemoryBranch       `json:"memory_branch"`
	Sync         Sync               `json:"sync"`
	Usage        Usage              `json:"usage"`
	Sessions     []SessionRun       `json:"sessions"`
}

// Problems counts the checks that failed.
func (r Report) Problems() int {
	n := 0
	for _, c := range r.Checks {
		if !c.OK {
			n++
		}
	}
	return n
}

// Check is one verdict: what was checked, whether it is well, what was
// found and, for a problem, the command (or step) that fixes it.
type Check struct {
	Name   string `json:"check"`
	OK     bool   `json:"ok"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
}

// GitHooks are the pre-commit and pre-push hooks.
type GitHooks struct {
	Dir       string     `json:"dir"`                  // relative to the top level when below it
	ManagedBy string     `json:"managed_by,omitempty"` // husky, lefthook, pre-commit
	Hooks     []HookFile `json:"hooks"`
}

// HookFile is one git hook's state: absent, current, outdated (an older
// git-yoimem shim, or one not executable) or foreign (not ours).
type HookFile struct {
	Name  string `json:"name"`
	State string `json:"state"`
}

// AgentScope is an agent's setup in one scope.
type AgentScope struct {
	Agent string      `json:"agent"`
	Scope string      `json:"scope"`
	State string      `json:"state"` // absent, current, outdated, invalid
	Files []AgentFile `json:"files"`
	// Notify: the scope sets the agent's notify command to ours (Codex).
	Notify bool `json:"notify,omitempty"`
}

// AgentFile is one file of it.
type AgentFile struct {
	Path  string `json:"path"` // .claude/settings.json, ~/.claude.json
	Role  string `json:"role"` // hooks, mcp
	State string `json:"state"`
	Error string `json:"error,omitempty"`
}

// Model is the model of a job and whether what it needs to run is there.
type Model struct {
	Setting string `json:"setting"` // yoimem.extract.model
	Model   string `json:"model"`   // "" when not set
	// KeyVariable is the environment variable holding the API key of an
	// API model; KeySet whether it is set (its value is never read out).
	KeyVariable string `json:"key_variable,omitempty"`
	KeySet      bool   `json:"key_set"`
	// BaseURL: a base URL is configured, with which the key may be
	// unnecessary (a local server).
	BaseURL bool `json:"base_url"`
}

// Helper is git-yoimem-llm, which makes the API calls.
type Helper struct {
	Name   string `json:"name"`
	Path   string `json:"path,omitempty"`
	Found  bool   `json:"found"`
	Needed bool   `json:"needed"` // an API model is configured
}

// Staging is the extract output waiting for consolidation.
type Staging struct {
	Files int   `json:"files"`
	Bytes int64 `json:"bytes"`
	Due   bool  `json:"due"`
}

// MemoryBranch is the memory branch against the base branch.
type MemoryBranch struct {
	Branch string `json:"branch"`
	Base   string `json:"base,omitempty"`
	Exists bool   `json:"exists"`
	Ahead  int    `json:"ahead"` // memory commits the base does not have
}

// Sync is how the memory branch stands to its remote's, as of the last
// fetch (doctor does not fetch): Remote is "" when there is none.
type Sync struct {
	Remote   string `json:"remote,omitempty"`
	Tracked  string `json:"tracked,omitempty"` // e.g. origin/yoimem/memory; "" when never fetched or pushed
	Unpushed int    `json:"unpushed"`          // local memory commits the remote's branch lacks
	Behind   int    `json:"behind"`            // the remote's commits the local branch lacks
}

// Usage is this clone's usage events and ledger readings that no
// consolidation run has moved into a memory commit yet.
type Usage struct {
	Events   int `json:"events"`
	Readings int `json:"readings"`
}

// SessionRun is the last background extract and consolidation of one
// agent session, as the agent hook handler records it in its status file
// <git-common-dir>/yoimem/agent/runs/<agent>/<session-id>.json
// (agent/handler.Status). Paths are relative to the top level when below
// it; times are RFC 3339, FinishedAt empty while the run goes on (or when
// it stopped before its end).
type SessionRun struct {
	Agent         string    `json:"agent"`
	SessionID     string    `json:"session_id"`
	Event         string    `json:"event,omitempty"`
	Transcript    string    `json:"transcript,omitempty"`
	LogPath       string    `json:"log_path"`
	StartedAt     string    `json:"started_at"`
	FinishedAt    string    `json:"finished_at"`
	Extract       RunResult `json:"extract"`
	Consolidation RunResult `json:"consolidation"`
}

// RunResult is one step of a background run.
type RunResult struct {
	Result string `json:"result"`
	Staged int    `json:"staged,omitempty"`
	Commit string `json:"commit,omitempty"`
	// AutoMerge is what yoimem.autoMerge did after the consolidation.
	AutoMerge *gitstore.AutoMergeResult `json:"auto_merge,omitempty"`
	Error     string                    `json:"error,omitempty"`
}
