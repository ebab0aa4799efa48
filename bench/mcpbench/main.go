// Command mcpbench measures knowledge_search round trips on a running
// `git yoimem mcp` server: it starts the server once in a repository,
// connects as an MCP client over stdio, and times calls.
//
// Usage:
//
//	mcpbench [-n 200] [-warmup 5] [-C DIR] [-bin git-yoimem] WORD...
//
// Each call searches for the next WORD in turn. Output is one line:
//
//	median_ms=0.812 p90_ms=1.020 min_ms=0.700 calls=200 hits=20
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "mcpbench:", err)
		os.Exit(1)
	}
}

func run() error {
	n := flag.Int("n", 200, "measured calls")
	warmup := flag.Int("warmup", 5, "unmeasured calls first")
	dir := flag.String("C", ".", "repository to serve")
	bin := flag.String("bin", "git-yoimem", "the git-yoimem binary")
	flag.Parse()
	words := flag.Args()
	if len(words) == 0 {
		return errors.New("give at least one WORD to search for")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.Command(*bin, "mcp")
	cmd.Dir = *dir
	cmd.Stderr = os.Stderr
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "mcpbench"}, nil).Connect(ctx, &sdk.CommandTransport{Command: cmd}, nil)
	if err != nil {
		return fmt.Errorf("start %s mcp: %w", *bin, err)
	}
	defer cs.Close()
	var times []time.Duration
	hits := 0
	for i := range *warmup + *n {
		start := time.Now()
		res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "knowledge_search", Arguments: map[string]any{"query": words[i%len(words)]}})
		took := time.Since(start)
		if err != nil {
			return fmt.Errorf("call %d: %w", i, err)
		}
		if res.IsError {
			return fmt.Errorf("call %d: tool error %v", i, res.Content)
		}
		if i >= *warmup {
			times = append(times, took)
		}
		if m, ok := res.StructuredContent.(map[string]any); ok {
			if h, ok := m["hits"].([]any); ok {
				hits = len(h)
			}
		}
	}
	slices.Sort(times)
	ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
	fmt.Printf("median_ms=%.3f p90_ms=%.3f min_ms=%.3f calls=%d hits=%d\n", ms(times[len(times)/2]), ms(times[len(times)*9/10]), ms(times[0]), len(times), hits)
	return nil
}
