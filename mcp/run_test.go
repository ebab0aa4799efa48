package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestRunServer: a run's tools are offered with their schemas as given;
// a call's arguments reach the run as sent, its answer comes back as
// text, a refusal as a tool error, and an error that ends the run as an
// error of the call. Served over a connection, as the run serves its
// agent CLI's server.
func TestRunServer(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"}},"required":["path"],"additionalProperties":false}`)
	var got []string
	call := func(_ context.Context, name string, in json.RawMessage) (string, bool, error) {
		got = append(got, name+" "+string(in))
		switch name {
		case "memory_read":
			return "=== .yoi/memory/summary.md ===", false, nil
		case "memory_delete":
			return "refused drop: decisions are replaced, never deleted", true, nil
		}
		return "", false, errors.New("the memory cannot be read")
	}
	tools := []RunTool{{"memory_read", "Read", schema}, {"memory_delete", "Drop", schema}, {"report", "End", json.RawMessage(`{"type":"object"}`)}}
	srv := NewRunServer(tools, call, Options{Version: "test"})
	a, b := net.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- ServeConn(ctx, srv, a, 0, nil) }()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "test"}, nil).Connect(ctx, &sdk.IOTransport{Reader: b, Writer: b}, nil)
	if err != nil {
		t.Fatal(err)
	}
	lt, err := cs.ListTools(ctx, nil)
	if err != nil || len(lt.Tools) != 3 {
		t.Fatalf("tools %v %v", lt, err)
	}
	for _, tl := range lt.Tools {
		if tl.Name == "memory_read" {
			s, _ := json.Marshal(tl.InputSchema)
			if !strings.Contains(string(s), `"required":["path"]`) {
				t.Errorf("schema %s", s)
			}
		}
	}
	res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "memory_read", Arguments: map[string]any{"path": "memory/summary.md"}})
	if err != nil || res.IsError || res.Content[0].(*sdk.TextContent).Text != "=== .yoi/memory/summary.md ===" {
		t.Errorf("memory_read: %+v %v", res, err)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "memory_delete", Arguments: map[string]any{"path": "x"}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*sdk.TextContent).Text, "never deleted") {
		t.Errorf("memory_delete: %+v %v", res, err)
	}
	res, err = cs.CallTool(ctx, &sdk.CallToolParams{Name: "report", Arguments: map[string]any{"summary": "s"}})
	if err == nil && !res.IsError {
		t.Errorf("a call that ends the run answered %+v", res)
	}
	if len(got) != 3 || got[0] != `memory_read {"path":"memory/summary.md"}` {
		t.Errorf("calls %q", got)
	}
	cs.Close()
	cancel()
	<-done
}
