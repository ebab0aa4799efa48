package mcp

import (
	"context"
	"fmt"
	"io"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// recoverPanics answers a request whose handler panicked (a bug of ours)
// with an internal error, and notes the panic and its stack on log, so
// that one bad request does not end the session.
func recoverPanics(log io.Writer) sdk.Middleware {
	return func(next sdk.MethodHandler) sdk.MethodHandler {
		return func(ctx context.Context, method string, req sdk.Request) (res sdk.Result, err error) {
			defer func() {
				if p := recover(); p != nil {
					msg := fmt.Sprintf("internal error in %s: %v", method, p)
					if log != nil {
						fmt.Fprintf(log, "git-yoimem: mcp: %s\n%s", msg, debug.Stack())
					}
					res, err = nil, &jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: msg}
				}
			}()
			return next(ctx, method, req)
		}
	}
}
