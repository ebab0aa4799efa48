package doctor

import (
	"context"

	"github.com/yoimem/git-yoimem/agent/setup"
)

// checkMCPApproval: Claude Code starts the server install writes into
// .mcp.json only once the user approves it (setup.ClaudeMCPApproval);
// checked when .mcp.json holds ours and HOME is known. A settings file it
// cannot read is the problem.
func checkMCPApproval(_ context.Context, in Input, r *Report) error {
	if in.Home == "" || !projectMCPRegistered(r.Agents) {
		return nil // without HOME, the user's approval cannot be read
	}
	const name = setup.ClaudeCode + " mcp"
	ap, err := setup.ClaudeMCPApproval(setup.Locations{Top: in.W.Repo.TopLevel, Home: in.Home})
	if err != nil {
		r.problem(name, "cannot tell whether Claude Code approves the server in .mcp.json: "+err.Error(), "fix the file (it must be JSON)")
		return nil
	}
	r.MCPApproval = &ap
	detail, fix := ap.Describe()
	if fix == "" {
		r.ok(name, detail)
	} else {
		r.problem(name, detail, fix)
	}
	return nil
}

// projectMCPRegistered tells whether Claude Code's project scope has our
// MCP server (.mcp.json), current or outdated.
func projectMCPRegistered(agents []AgentScope) bool {
	for _, as := range agents {
		if as.Agent != setup.ClaudeCode || as.Scope != string(setup.Project) {
			continue
		}
		for _, f := range as.Files {
			if f.Role == string(setup.MCP) && (f.State == string(setup.Current) || f.State == string(setup.Outdated)) {
				return true
			}
		}
	}
	return false
}
