package claudecode

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/yoimem/git-yoimem/internal/jsonedit"
)

// MCPServer is the name our server has in .mcp.json.
const MCPServer = "yoimem"

// mcpValue is our server entry: `git yoimem mcp`, with --write when the
// memory tools may write.
func mcpValue(args []string) []jsonedit.KV {
	a := make([]any, len(args))
	for i, s := range args {
		a[i] = s
	}
	return []jsonedit.KV{{K: "type", V: "stdio"}, {K: "command", V: "git"}, {K: "args", V: a}}
}

func mcpArgs(write bool) []string {
	if write {
		return []string{"yoimem", "mcp", "--write"}
	}
	return []string{"yoimem", "mcp"}
}

// ourMCP reads a server entry and tells whether it is ours, with its args.
func ourMCP(text []byte) ([]string, bool) {
	var s struct {
		Type    string   `json:"type"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	var keys map[string]json.RawMessage
	if json.Unmarshal(text, &keys) != nil || json.Unmarshal(text, &s) != nil {
		return nil, false
	}
	for k := range keys {
		if k != "type" && k != "command" && k != "args" {
			return nil, false
		}
	}
	if s.Type != "stdio" || s.Command != "git" ||
		!(slices.Equal(s.Args, mcpArgs(false)) || slices.Equal(s.Args, mcpArgs(true))) {
		return nil, false
	}
	return s.Args, true
}

// MergeMCP adds our MCP server (`git yoimem mcp`, with --write when
// write) to the content of a project's .mcp.json as mcpServers.yoimem,
// or switches the --write of the one there. The user's servers and
// layout keep their bytes; merging twice is merging once. A server named
// yoimem that is not ours is an error: it is the user's.
func MergeMCP(old []byte, write bool) ([]byte, error) {
	d, err := jsonedit.Open(old)
	if err != nil {
		return nil, err
	}
	root := d.Root()
	want := mcpValue(mcpArgs(write))
	_, servers := root.Member("mcpServers")
	if servers == nil {
		key := "mcpServers"
		d.Add(root, &key, []jsonedit.KV{{K: MCPServer, V: want}}, true)
		return d.B, nil
	}
	if servers.Kind != '{' {
		return nil, fmt.Errorf(`"mcpServers" is not a JSON object`)
	}
	_, y := servers.Member(MCPServer)
	if y == nil {
		key := MCPServer
		d.Add(servers, &key, want, false)
		return d.B, nil
	}
	args, ok := ourMCP(d.B[y.Start:y.End])
	if !ok {
		return nil, fmt.Errorf(`"mcpServers"."%s" is already a server that is not git-yoimem's (%s); rename it to install ours`, MCPServer, d.B[y.Start:y.End])
	}
	if slices.Equal(args, mcpArgs(write)) {
		return d.B, nil
	}
	var indent *string
	if in, first := jsonedit.LineIndent(d.B, y.Start); !first && slices.Contains(d.B[y.Start:y.End], '\n') {
		indent = &in
	}
	d.B = jsonedit.Splice(d.B, y.Start, y.End, d.Style.Render(want, indent))
	return d.B, nil
}

// UnmergeMCP takes our server out of .mcp.json content, and mcpServers
// with it when MergeMCP created it. Everything else keeps its bytes.
func UnmergeMCP(old []byte) ([]byte, error) {
	d, err := jsonedit.Open(old)
	if err != nil {
		return nil, err
	}
	root := d.Root()
	si, servers := root.Member("mcpServers")
	if servers == nil || servers.Kind != '{' {
		return old, nil
	}
	yi, y := servers.Member(MCPServer)
	if y == nil {
		return old, nil
	}
	args, ok := ourMCP(d.B[y.Start:y.End])
	if !ok {
		return old, nil
	}
	if len(servers.Items) == 1 && d.Created(root, si, "mcpServers", []jsonedit.KV{{K: MCPServer, V: mcpValue(args)}}) {
		d.Remove(root, si, true)
		return d.B, nil
	}
	d.Remove(servers, yi, false)
	return d.B, nil
}
