package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yoimem/git-yoimem/internal/fixture"
)

// TestMCPOverStdio drives the built binary (this test binary run as
// git-yoimem, as testscript does) over stdio with the SDK's client.
func TestMCPOverStdio(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	dir, home := sampleRepo(t)
	bin := filepath.Join(t.TempDir(), "git-yoimem")
	if err := os.Symlink(os.Args[0], bin); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "mcp")
	cmd.Dir, cmd.Env = dir, fixture.Env(home)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools.Tools {
		names = append(names, tool.Name)
	}
	if strings.Join(names, " ") != "knowledge_search memory_read memory_search" {
		t.Fatalf("tools over stdio: %v", names)
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "knowledge_search", Arguments: map[string]any{"query": "wal"}})
	if err != nil || res.IsError {
		t.Fatalf("knowledge_search: %v %+v", err, res)
	}
	text := res.Content[0].(*sdk.TextContent).Text
	if !strings.Contains(text, `"slug":"sqlite-pragmas"`) {
		t.Fatalf("result: %s", text)
	}
}
