package setup

import (
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/yoimem/git-yoimem/agent/claudecode"
)

// Approval states of the project's MCP server in Claude Code.
const (
	MCPApproved = "approved"
	MCPPending  = "pending"  // Claude Code lists it "Pending approval" and starts nothing
	MCPRejected = "rejected" // the user turned it down
)

// MCPApproval is whether Claude Code starts the server install writes
// into .mcp.json (project scope). Claude Code starts a project's server
// only once the user approves it, and never on the project's word
// alone: By is the file that approves or rejects it, as shown ("" while
// pending).
type MCPApproval struct {
	State string `json:"state"`
	By    string `json:"by,omitempty"`
}

// approvalKeys are what a settings file (or the project's entry in
// ~/.claude.json) says about the project's MCP servers.
type approvalKeys struct {
	EnableAll bool     `json:"enableAllProjectMcpServers"`
	Enabled   []string `json:"enabledMcpjsonServers"`
	Disabled  []string `json:"disabledMcpjsonServers"`
	Trusted   bool     `json:"hasTrustDialogAccepted"` // ~/.claude.json's project entry only
}

func (k approvalKeys) approves(name string) bool {
	return k.EnableAll || slices.Contains(k.Enabled, name)
}

// ClaudeMCPApproval reads where Claude Code (checked with 2.1.332's
// `claude mcp list`) takes the approval of the project's server from: a
// rejection (disabledMcpjsonServers) in the user's settings or the
// project's entry in ~/.claude.json wins; the user's settings
// (~/.claude/settings.json: enableAllProjectMcpServers, or
// enabledMcpjsonServers naming it) approve it anywhere; the local and
// project settings and the project's entry in ~/.claude.json (where an
// interactive approval goes) count only once the user has trusted the
// folder (hasTrustDialogAccepted). Without loc.Home only the project's
// files are read. It writes nothing; a file that is not JSON is an error
// naming it.
func ClaudeMCPApproval(loc Locations) (MCPApproval, error) {
	type source struct {
		show, path string
		project    bool // the project's entry of ~/.claude.json
	}
	var user, state source
	if loc.Home != "" {
		user = source{"~/.claude/settings.json", filepath.Join(loc.Home, ".claude", "settings.json"), false}
		state = source{"~/.claude.json", filepath.Join(loc.Home, ".claude.json"), true}
	}
	sources := []source{user, state,
		{".claude/settings.local.json", filepath.Join(loc.Top, ".claude", "settings.local.json"), false},
		{".claude/settings.json", filepath.Join(loc.Top, ".claude", "settings.json"), false}}
	keys := make([]approvalKeys, len(sources))
	for i, s := range sources {
		if s.path == "" {
			continue
		}
		k, err := readApprovalKeys(s.path, s.project, loc.Top)
		var se *stateError
		if errors.As(err, &se) {
			return MCPApproval{}, fmt.Errorf("%s %w", s.show, err)
		} else if err != nil {
			return MCPApproval{}, fmt.Errorf("%s: %w", s.show, err)
		}
		keys[i] = k
	}
	name := claudecode.MCPServer
	for i := range 2 {
		if slices.Contains(keys[i].Disabled, name) {
			return MCPApproval{State: MCPRejected, By: sources[i].show}, nil
		}
	}
	if keys[0].approves(name) {
		return MCPApproval{State: MCPApproved, By: sources[0].show}, nil
	}
	if keys[1].Trusted {
		for _, i := range []int{1, 2, 3} {
			if keys[i].approves(name) {
				return MCPApproval{State: MCPApproved, By: sources[i].show}, nil
			}
		}
	}
	return MCPApproval{State: MCPPending}, nil
}

// readApprovalKeys reads a settings file's keys, or with project those
// of top's entry under "projects" in ~/.claude.json. No file: none.
func readApprovalKeys(path string, project bool, top string) (approvalKeys, error) {
	var k approvalKeys
	b, _, exists, err := read(path) // bounded, and never blocked on a FIFO
	if err != nil || !exists || isBlank(b) {
		return k, err // a blank file is the empty object, as install reads it
	}
	if !project {
		return k, decodeKeys(b, &k)
	}
	var st struct {
		Projects map[string]json.RawMessage `json:"projects"`
	}
	if err := decodeKeys(b, &st); err != nil {
		return k, err
	}
	if raw, ok := st.Projects[filepath.ToSlash(top)]; ok {
		return k, decodeKeys(raw, &k)
	}
	return k, nil
}

// decodeKeys reads JSON; a key of another type than Claude Code's is
// read as absent, as a file Claude Code reads with other keys of ours
// unknown.
func decodeKeys(b []byte, v any) error {
	err := json.Unmarshal(b, v)
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		return nil
	}
	return err
}

// ApprovalStep is how to approve the project's server.
const ApprovalStep = `run ` + "`claude`" + ` here and accept it, or add "enabledMcpjsonServers": ["yoimem"] to ~/.claude/settings.json`

// Describe says what the approval means for the server in .mcp.json and,
// unless it is approved, what to do.
func (a MCPApproval) Describe() (detail, fix string) {
	server := `the server "` + claudecode.MCPServer + `" in .mcp.json`
	switch a.State {
	case MCPApproved:
		return server + " is approved in " + a.By, ""
	case MCPRejected:
		return server + " is turned down in " + a.By + " (disabledMcpjsonServers): Claude Code does not start it",
			`remove "` + claudecode.MCPServer + `" from disabledMcpjsonServers in ` + a.By
	}
	return server + " waits for your approval: Claude Code does not start it yet", ApprovalStep
}
