//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExtractDryRunIsTheRequest: --dry-run prints exactly what a run
// sends: the text a command: model reads on stdin, byte for byte, and
// with --json the request the model helper gets (system prompt, the
// message with its <session-log> markers, the schema).
func TestExtractDryRunIsTheRequest(t *testing.T) {
	r := newExtractRepo(t)
	dry, stderr, code := r.run("extract", "--log", "session.jsonl", "--dry-run")
	if code != 0 {
		t.Fatalf("dry run: exit %d\n%s", code, stderr)
	}
	for _, want := range []string{"System:\nYou read a part of a coding agent's session", "\nUser:\nSession " + ccSession + ", log entries 1 to 32.", "\n<session-log>\nuser: add a --json flag to the list command\n", "\n</session-log>\n", "Reply with only a JSON object matching this JSON schema:\n{"} {
		if !strings.Contains(dry, want) {
			t.Errorf("the dry run lacks %q:\n%s", want, dry)
		}
	}
	if !strings.Contains(stderr, "entries 1-32 of session "+ccSession+": 16 shown, 15 left out") {
		t.Errorf("stderr: %s", stderr)
	}
	dryJSON, stderr, code := r.run("extract", "--log", "session.jsonl", "--dry-run", "--json")
	if code != 0 {
		t.Fatalf("dry run --json: exit %d\n%s", code, stderr)
	}

	// the same entries through a command: model, which records its stdin
	r.write("answer.json", goodActivity)
	model := `command:sh -c "cat > received.txt && cat answer.json"`
	r.mustRun("extract", "--log", "session.jsonl", "--force", "--model", model)
	if got := r.read("received.txt"); got != dry {
		t.Errorf("the dry run is not what the model received:\n--- dry run\n%s\n--- received\n%s", dry, got)
	}
	// nothing after the pointer: nothing to send
	if stdout, stderr, code := r.run("extract", "--log", "session.jsonl", "--dry-run"); code != 0 || stdout != "" || !strings.Contains(stderr, "no new entries after the pointer (entry 32)") {
		t.Errorf("dry run at the end: exit %d\n%s%s", code, stdout, stderr)
	}

	// and through the model helper (a stand-in that records its stdin)
	r2 := newExtractRepo(t, "ANTHROPIC_API_KEY=sk-ant-test-0123456789")
	bin := t.TempDir()
	helper := "#!/bin/sh\ncat > " + r2.path("bridge.json") + "\necho '{\"response\": {\"json\": " + goodActivity + ", \"usage\": {\"input_tokens\": 1, \"output_tokens\": 1}}}'\n"
	if err := os.WriteFile(filepath.Join(bin, "git-yoimem-llm"), []byte(helper), 0o755); err != nil {
		t.Fatal(err)
	}
	r2.withPath(bin)
	dryJSON2, _, code := r2.run("extract", "--log", "session.jsonl", "--dry-run", "--json")
	if code != 0 || dryJSON2 != dryJSON {
		t.Fatalf("dry runs of the same log differ (exit %d)", code)
	}
	r2.mustRun("-c", "yoimem.extract.model=anthropic:claude-haiku-4-5", "extract", "--log", "session.jsonl", "--force")
	var call struct {
		Request json.RawMessage `json:"request"`
	}
	if err := json.Unmarshal([]byte(r2.read("bridge.json")), &call); err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	if err := json.Compact(&compact, []byte(dryJSON)); err != nil {
		t.Fatalf("dry run --json is not JSON: %v\n%s", err, dryJSON)
	}
	if !bytes.Equal(compact.Bytes(), call.Request) {
		t.Errorf("dry run --json is not the request the helper got:\n--- dry run\n%s\n--- helper\n%s", compact.Bytes(), call.Request)
	}
}

// TestExtractReportsStateBefore: the report's first line is the state the
// run found, then what it did, then where the pointer is now; JSON keeps
// both states.
func TestExtractReportsStateBefore(t *testing.T) {
	r := newExtractRepo(t)
	model := r.replay("good.json", `{"json": `+goodActivity+`}`)
	stdout := r.mustRun("-c", "yoimem.extract.tokenThreshold=100000", "extract", "--log", "session.jsonl", "--model", model)
	lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
	if len(lines) != 3 ||
		lines[0] != "session "+ccSession+" (claude-code): 162073 input tokens in 6 calls since the pointer (entry 0); threshold 100000: due" ||
		!strings.HasPrefix(lines[1], "extracted entries 1-32: 1 decisions, 0 discussions, 1 attempts, 1 requests -> .yoi/memory/_staging/") ||
		lines[2] != "now: 0 input tokens in 0 calls since the pointer (entry 32); not due" {
		t.Errorf("report:\n%s", stdout)
	}

	r = newExtractRepo(t)
	model = r.replay("good.json", `{"json": `+goodActivity+`}`)
	stdout = r.mustRun("-c", "yoimem.extract.tokenThreshold=100000", "extract", "--log", "session.jsonl", "--model", model, "--json")
	var rep struct {
		Pointer int   `json:"pointer"`
		Tokens  int64 `json:"tokens_since_pointer"`
		Due     bool  `json:"due"`
		Runs    []struct {
			Staging string `json:"staging"`
		} `json:"runs"`
		After *struct {
			Pointer int   `json:"pointer"`
			Tokens  int64 `json:"tokens_since_pointer"`
			Calls   int   `json:"calls_since_pointer"`
			Due     bool  `json:"due"`
		} `json:"after"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Pointer != 0 || rep.Tokens != 162073 || !rep.Due || len(rep.Runs) != 1 || !strings.HasPrefix(rep.Runs[0].Staging, ".yoi/memory/_staging/") ||
		rep.After == nil || rep.After.Pointer != 32 || rep.After.Tokens != 0 || rep.After.Due {
		t.Errorf("report:\n%s", stdout)
	}
}
