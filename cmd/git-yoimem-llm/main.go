// Command git-yoimem-llm makes git-yoimem's Anthropic and OpenAI API
// calls. It exists to keep the official SDKs out of git-yoimem: linking
// them quadruples the binary and costs every start (each commit's hook,
// each agent turn) milliseconds of package initialization and megabytes
// of memory, even when no model is called. git-yoimem runs this helper
// only for a model call (package llm's bridge), so only those calls pay.
//
//	git-yoimem-llm call [--max-input-bytes=N]
//
// reads one JSON object on stdin (at most N bytes; git-yoimem gives the
// size of what it writes),
//
//	{"model": "anthropic:<model>" | "openai:<model>",
//	 "options": {"base_url": "...", "timeout_ms": 300000, "max_retries": 2},
//	 "request": <llm.Request>}
//
// makes the call (validation and the repair attempt included), and prints
// {"response": <llm.Response>} or, when the call failed,
// {"response": <what it returned>, "error": {"provider", "status", "kind",
// "message"}}, exiting 0 either way. Every response body it reads and the
// answer it prints are bounded by the call's max_reply (kind too_large
// past it). API keys (ANTHROPIC_API_KEY,
// OPENAI_API_KEY) and *_BASE_URL come from the environment only. Input
// that is not such an object exits 2 with a message on stderr.
package main

import (
	"context"
	"fmt"
	"github.com/yoimem/git-yoimem/internal/buildinfo"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/yoimem/git-yoimem/llm/apis"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	code := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr, os.Getenv)
	stop()
	os.Exit(code)
}

const usage = `usage: git-yoimem-llm call [--max-input-bytes=N]
       git-yoimem-llm --version

git-yoimem runs this helper for its Anthropic and OpenAI model calls: one
call as JSON on stdin, the answer as JSON on stdout. Keys come from the
environment (ANTHROPIC_API_KEY, OPENAI_API_KEY).
`

// run is the program; args exclude the program name.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	if len(args) >= 1 && args[0] == "call" {
		return apis.ServeCall(ctx, args[1:], stdin, stdout, stderr, getenv)
	}
	if len(args) == 1 {
		switch args[0] {
		case "--version", "-version", "version":
			fmt.Fprintln(stdout, "git-yoimem-llm", version())
			return 0
		case "--help", "-help", "-h", "help":
			io.WriteString(stdout, usage)
			return 0
		}
	}
	io.WriteString(stderr, usage)
	return 2
}

func version() string { return buildinfo.Version() }
