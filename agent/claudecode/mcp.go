package claudecode

import (
	"encoding/json"
	"fmt"
	"slices"
)

// MCPServer is the name our server has in .mcp.json.
const MCPServer = "yoimem"

// mcpValue is our server entry: `git yoimem mcp`, with --write when the
// memory tools may write.
func mcpValue(args []string) []kv {
	a := make([]any, len(args))
	for i, s := range args {
		a[i] = s
	}
	return []kv{{"type", "stdio"}, {"command", "git"}, {"args", a}}
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
	d, err := open(old)
	if err != nil {
		return nil, err
	}
	root := d.root()
	want := mcpValue(mcpArgs(write))
	_, servers := root.member("mcpServers")
	if servers == nil {
		key := "mcpServers"
		d.add(root, &key, []kv{{MCPServer, want}}, true)
		return d.b, nil
	}
	if servers.kind != '{' {
		return nil, fmt.Errorf(`"mcpServers" is not a JSON object`)
	}
	_, y := servers.member(MCPServer)
	if y == nil {
		key := MCPServer
		d.add(servers, &key, want, false)
		return d.b, nil
	}
	args, ok := ourMCP(d.b[y.start:y.end])
	if !ok {
		return nil, fmt.Errorf(`"mcpServers"."%s" is already a server that is not git-yoimem's (%s); rename it to install ours`, MCPServer, d.b[y.start:y.end])
	}
	if slices.Equal(args, mcpArgs(write)) {
		return d.b, nil
	}
	var indent *string
	if in, first := lineIndent(d.b, y.start); !first && slices.Contains(d.b[y.start:y.end], '\n') {
		indent = &in
	}
	d.b = splice(d.b, y.start, y.end, d.st.render(want, indent))
	return d.b, nil
}

// UnmergeMCP takes our server out of .mcp.json content, and mcpServers
// with it when MergeMCP created it. Everything else keeps its bytes.
func UnmergeMCP(old []byte) ([]byte, error) {
	d, err := open(old)
	if err != nil {
		return nil, err
	}
	root := d.root()
	si, servers := root.member("mcpServers")
	if servers == nil || servers.kind != '{' {
		return old, nil
	}
	yi, y := servers.member(MCPServer)
	if y == nil {
		return old, nil
	}
	args, ok := ourMCP(d.b[y.start:y.end])
	if !ok {
		return old, nil
	}
	if len(servers.items) == 1 && d.created(root, si, "mcpServers", []kv{{MCPServer, mcpValue(args)}}) {
		d.remove(root, si, true)
		return d.b, nil
	}
	d.remove(servers, yi, false)
	return d.b, nil
}
