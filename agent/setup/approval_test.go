package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestClaudeMCPApproval: where Claude Code (2.1.332, checked with the
// real CLI's `claude mcp list`) takes the approval of the project's
// server in .mcp.json from: the user's settings always; the project's
// and local settings and the project's entry in ~/.claude.json only once
// the workspace is trusted; a rejection wins; otherwise it is pending.
func TestClaudeMCPApproval(t *testing.T) {
	trusted := `{"projects": {"/work/repo": {"hasTrustDialogAccepted": true}}}`
	for _, tc := range []struct {
		name  string
		files map[string]string // under a fake root: home/… and repo/…
		state string
		by    string
	}{
		{"nothing", nil, MCPPending, ""},
		{"user enables all", map[string]string{"home/.claude/settings.json": `{"enableAllProjectMcpServers": true}`}, MCPApproved, "~/.claude/settings.json"},
		{"user lists ours", map[string]string{"home/.claude/settings.json": `{"enabledMcpjsonServers": ["other", "yoimem"]}`}, MCPApproved, "~/.claude/settings.json"},
		{"user lists another", map[string]string{"home/.claude/settings.json": `{"enabledMcpjsonServers": ["other"]}`}, MCPPending, ""},
		{"project settings, untrusted", map[string]string{"repo/.claude/settings.json": `{"enabledMcpjsonServers": ["yoimem"]}`}, MCPPending, ""},
		{"project settings, trusted", map[string]string{"repo/.claude/settings.json": `{"enabledMcpjsonServers": ["yoimem"]}`, "home/.claude.json": trusted}, MCPApproved, ".claude/settings.json"},
		{"local settings, untrusted", map[string]string{"repo/.claude/settings.local.json": `{"enableAllProjectMcpServers": true}`}, MCPPending, ""},
		{"local settings, trusted", map[string]string{"repo/.claude/settings.local.json": `{"enableAllProjectMcpServers": true}`, "home/.claude.json": trusted}, MCPApproved, ".claude/settings.local.json"},
		{"approved in ~/.claude.json", map[string]string{"home/.claude.json": `{"projects": {"/work/repo": {"hasTrustDialogAccepted": true, "enabledMcpjsonServers": ["yoimem"]}}}`}, MCPApproved, "~/.claude.json"},
		{"untrusted entry in ~/.claude.json", map[string]string{"home/.claude.json": `{"projects": {"/work/repo": {"enabledMcpjsonServers": ["yoimem"]}}}`}, MCPPending, ""},
		{"another project approved", map[string]string{"home/.claude.json": `{"projects": {"/work/other": {"hasTrustDialogAccepted": true, "enabledMcpjsonServers": ["yoimem"]}}}`}, MCPPending, ""},
		{"rejected", map[string]string{"home/.claude/settings.json": `{"enableAllProjectMcpServers": true}`, "home/.claude.json": `{"projects": {"/work/repo": {"disabledMcpjsonServers": ["yoimem"]}}}`}, MCPRejected, "~/.claude.json"},
		{"blank settings files, as install reads them: nothing", map[string]string{"repo/.claude/settings.local.json": "", "home/.claude/settings.json": "\n", "home/.claude.json": " "}, MCPPending, ""},
		{"rejected in user settings", map[string]string{"home/.claude/settings.json": `{"disabledMcpjsonServers": ["yoimem"], "enableAllProjectMcpServers": true}`}, MCPRejected, "~/.claude/settings.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			for name, content := range tc.files {
				p := filepath.Join(root, filepath.FromSlash(name))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				// ~/.claude.json keys projects by the real top level
				content = strings.ReplaceAll(content, `"/work/repo"`, `"`+filepath.Join(root, "repo")+`"`)
				if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := ClaudeMCPApproval(Locations{Top: filepath.Join(root, "repo"), Home: filepath.Join(root, "home")})
			if err != nil {
				t.Fatal(err)
			}
			if got.State != tc.state || got.By != tc.by {
				t.Errorf("approval %+v; want %s by %q", got, tc.state, tc.by)
			}
		})
	}
	// a settings file that is not JSON is an error naming it
	root := t.TempDir()
	p := filepath.Join(root, "home", ".claude", "settings.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte("{oops"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ClaudeMCPApproval(Locations{Top: filepath.Join(root, "repo"), Home: filepath.Join(root, "home")}); err == nil || !strings.Contains(err.Error(), "~/.claude/settings.json") {
		t.Errorf("err = %v; want one naming ~/.claude/settings.json", err)
	}
}
