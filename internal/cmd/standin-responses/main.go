// Command standin-responses serves scripted turns as a local stand-in for
// the OpenAI Responses API (internal/standin), for recording what a real
// agent CLI writes (testdata/agents/codex/record.sh):
//
//	go run ./internal/cmd/standin-responses TURNS.json DIR
//
// TURNS.json is a JSON array of standin.ResponsesTurn. The base URL is
// written to DIR/url once the server listens; on SIGINT or SIGTERM the
// requests received are written to DIR/request-NN.txt (method and path on
// the first line, then the body) and the command exits.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"github.com/yoimem/git-yoimem/internal/standin"
)

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: standin-responses TURNS.json DIR")
		os.Exit(2)
	}
	if err := run(os.Args[1], os.Args[2]); err != nil {
		fmt.Fprintln(os.Stderr, "standin-responses:", err)
		os.Exit(1)
	}
}

func run(turnsFile, dir string) error {
	b, err := os.ReadFile(turnsFile)
	if err != nil {
		return err
	}
	var turns []standin.ResponsesTurn
	if err := json.Unmarshal(b, &turns); err != nil {
		return fmt.Errorf("%s: %w", turnsFile, err)
	}
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	s, err := standin.StartResponses(turns...)
	if err != nil {
		return err
	}
	defer s.Close()
	if err := os.WriteFile(filepath.Join(dir, "url"), []byte(s.URL+"\n"), 0o644); err != nil {
		return err
	}
	<-stop
	for i, r := range s.Requests() {
		text := append([]byte(r.Method+" "+r.Path+"\n"), r.Body...)
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("request-%02d.txt", i+1)), text, 0o644); err != nil {
			return err
		}
	}
	if n := s.Left(); n > 0 {
		return fmt.Errorf("%d scripted turns were not asked for", n)
	}
	return nil
}
