package mcp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A consolidation run's server (git yoimem mcp --run): the tools of the
// run's agent (consolidate/agent's, memory.ToolDefs with the loop's
// extensions and report) over the run's session, served inside the
// consolidation process on the connection of the server its agent CLI
// started. The tools and the calls come from the run: this package only
// carries them.

// RunTool is one tool of a run, as the run's agent offers it.
type RunTool struct {
	Name, Description string
	InputSchema       json.RawMessage // a JSON Schema object
}

// RunCall runs one tool call of a run: its answer, whether that is a
// tool error (a refusal the agent reads and acts on), or an error that
// ends the run.
type RunCall func(ctx context.Context, name string, input json.RawMessage) (text string, isError bool, err error)

// NewRunServer returns a server offering tools, each call run by call. A
// call's input reaches call as sent: the run decodes it strictly.
func NewRunServer(tools []RunTool, call RunCall, opts Options) *sdk.Server {
	s := sdk.NewServer(&sdk.Implementation{Name: "git-yoimem", Version: opts.Version}, nil)
	s.AddReceivingMiddleware(recoverPanics(opts.Log))
	for _, t := range tools {
		name := t.Name
		s.AddTool(&sdk.Tool{Name: name, Description: t.Description, InputSchema: t.InputSchema},
			func(ctx context.Context, req *sdk.CallToolRequest) (*sdk.CallToolResult, error) {
				// A call received is carried out, as the write tools' are:
				// its answer is how the agent knows what changed.
				text, isErr, err := call(context.WithoutCancel(ctx), name, req.Params.Arguments)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: text}}, IsError: isErr}, nil
			})
	}
	return s
}

// ServeConn serves s over rw (newline-delimited JSON-RPC, as on stdio)
// until the peer hangs up or ctx ends.
func ServeConn(ctx context.Context, s *sdk.Server, rw io.ReadWriteCloser, maxMessageBytes int, log io.Writer) error {
	t := &Transport{In: rw, Out: rw, MaxMessageBytes: maxMessageBytes, Log: log}
	go func() {
		<-ctx.Done()
		rw.Close()
	}()
	err := s.Run(ctx, t)
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}
