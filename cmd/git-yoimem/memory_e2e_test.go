//go:build unix

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// End-to-end tests of the memory tools that need real processes: several
// editors at once (Ctrl-C while a command reads standard input is in
// interrupt_linux_test.go). They run the test binary as git-yoimem, as
// testscript does.

const edited = "knowledge/r.md"

const editedRecord = `---
kind: rule
description: Edited by many at once
model_invokation: false
user_invocable: true
created_at: 2026-01-05T09:30:00Z
updated_at: 2026-01-05T09:30:00Z
last_sources: []
---
Lines:
END
`

// memoryRepo is the sample repository with knowledge/r.md to edit.
func memoryRepo(t *testing.T) *extractRepo {
	t.Helper()
	r := newExtractRepo(t)
	r.write(filepath.Join(".yoi", edited), editedRecord)
	return r
}

// TestMemoryEditConcurrentProcesses: editors in separate processes, each
// adding its lines one edit at a time. Every edit either exits 0 and is
// in the record, or exits non-zero and is not: none is lost.
func TestMemoryEditConcurrentProcesses(t *testing.T) {
	r := memoryRepo(t)
	const editors, edits = 3, 15
	type result struct {
		line string
		code int
		err  string
	}
	results := make(chan result, editors*edits)
	var wg sync.WaitGroup
	for i := 0; i < editors; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := 0; j < edits; j++ {
				line := fmt.Sprintf("w%d-%d", i, j)
				_, stderr, code := r.run("memory", "edit", edited, "--old", "END\n", "--new", line+"\nEND\n")
				results <- result{line, code, stderr}
			}
		}()
	}
	wg.Wait()
	close(results)
	content := r.read(filepath.Join(".yoi", edited))
	kept := 0
	for res := range results {
		in := strings.Contains(content, "\n"+res.line+"\n")
		switch {
		case res.code == 0 && !in:
			t.Errorf("%s: exit 0, but the edit is lost", res.line)
		case res.code != 0 && in:
			t.Errorf("%s: exit %d, but the edit is in the record", res.line, res.code)
		case res.code != 0:
			t.Logf("%s refused (exit %d): %s", res.line, res.code, res.err)
		default:
			kept++
		}
	}
	// With the writers' lock, none needs to be refused.
	if kept != editors*edits {
		t.Errorf("%d of %d edits kept", kept, editors*edits)
	}
}

// TestMCPConcurrentEdits: one server, many memory_edit calls in flight at
// once (the SDK runs calls concurrently); every one is kept.
func TestMCPConcurrentEdits(t *testing.T) {
	r := memoryRepo(t)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cs, err := sdk.NewClient(&sdk.Implementation{Name: "e2e"}, nil).Connect(ctx, &sdk.CommandTransport{Command: r.command("mcp", "--write")}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	const calls = 200
	var wg sync.WaitGroup
	errs := make(chan error, calls)
	for i := 0; i < calls; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := cs.CallTool(ctx, &sdk.CallToolParams{Name: "memory_edit", Arguments: map[string]any{
				"path": edited, "old": "END\n", "new": fmt.Sprintf("c%d\nEND\n", i)}})
			if err == nil && res.IsError {
				err = fmt.Errorf("c%d: tool error: %v", i, res.Content[0].(*sdk.TextContent).Text)
			}
			errs <- err
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}
	content := r.read(filepath.Join(".yoi", edited))
	lost := 0
	for i := 0; i < calls; i++ {
		if !strings.Contains(content, fmt.Sprintf("\nc%d\n", i)) {
			lost++
		}
	}
	if lost > 0 {
		t.Errorf("%d of %d edits lost", lost, calls)
	}
}

// TestMemoryWriteNoYoiFirst: without .yoi/, memory write says so at once,
// before waiting on an input that is still open.
func TestMemoryWriteNoYoiFirst(t *testing.T) {
	r := newExtractRepo(t)
	if err := os.RemoveAll(r.path(".yoi")); err != nil {
		t.Fatal(err)
	}
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer pw.Close()
	cmd := r.command("memory", "write", "knowledge/x.md")
	var stderr strings.Builder
	cmd.Stdin, cmd.Stderr = pr, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pr.Close()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatal("still waiting on its input after 30s")
	}
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(stderr.String(), "no .yoi/ in") {
		t.Fatalf("exit %v, stderr:\n%s\nwant exit 2 and 'no .yoi/ in'", err, stderr.String())
	}
}
