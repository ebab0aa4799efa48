//go:build unix

package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestDemoPipeline is install.sh --demo's consolidation, quicker than the
// install test (which builds both binaries): on the sample repository
// with its lint errors fixed and committed, the tinyshop session is
// extracted and consolidated by the recorded model, then the second
// session extracted and consolidated by the rules engine, which resolves
// the decision the first run left open; all offline, from the recorded
// answers in testdata/sessions.
func TestDemoPipeline(t *testing.T) {
	r := newExtractRepo(t)
	fixSample(t, r)
	r.git("add", "-A")
	r.git("commit", "-q", "-m", "memory: fix the two lint findings")
	sessions, err := filepath.Abs(filepath.Join("..", "..", "testdata", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	at := func(name string) string { return filepath.Join(sessions, name) }

	out := r.mustRun("extract", "--log", at("tinyshop.claude-code.jsonl"), "--force", "--model", "replay:"+at("tinyshop.replay.json"))
	if !strings.Contains(out, "extracted entries 1-17: 2 decisions, 1 discussions, 2 attempts, 1 requests") {
		t.Fatalf("first extract:\n%s", out)
	}
	out = r.mustRun("consolidate", "--model", "replay:"+at("tinyshop.consolidate.replay.json"))
	for _, want := range []string{
		"    add .yoi/memory/decisions/inventory-reservation-retries.md: discussed, left open: needs an idempotency key\n",
		"    update .yoi/memory/summary.md: ",
		", engine llm (replay:tinyshop.consolidate.replay.json), 1 staging entry, categories: none\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the llm run does not print %q:\n%s", want, out)
		}
	}

	out = r.mustRun("extract", "--log", at("tinyshop-2.claude-code.jsonl"), "--force", "--model", "replay:"+at("tinyshop-2.replay.json"))
	if !strings.Contains(out, "extracted entries 1-12: 1 decisions, 0 discussions, 1 attempts, 1 requests") {
		t.Fatalf("second extract:\n%s", out)
	}
	out = r.mustRun("consolidate", "--engine", "rules")
	for _, want := range []string{
		"    update .yoi/memory/decisions/inventory-reservation-retries.md: from staging: 1 decision, 1 attempt that worked; now resolved; 1 source\n",
		"    add .yoi/memory/requests/log-the-attempt-number-on-every-retry.md: new request from staging: 1 request; 1 source\n",
		", engine rules, 1 staging entry, categories: none\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the rules run does not print %q:\n%s", want, out)
		}
	}
	decision := r.git("show", "yoimem/memory:.yoi/memory/decisions/inventory-reservation-retries.md")
	if !regexp.MustCompile(`(?m)^status: resolved\nsources:\n  - \{session_id: 5f0c2e1a-8d7b-4c3e-9a61-2b7d4e9f0c11, range: \[1, 17\]\}\n  - \{session_id: 7a3d9e42-1b6c-4f08-8e5a-c2d4f6a8b0e3, range: \[1, 12\]\}\n`).MatchString(decision) {
		t.Errorf("the decision is not resolved with both sessions' sources:\n%s", decision)
	}
	if log := r.mustRun("log"); len(regexp.MustCompile(`(?m)^commit [0-9a-f]{40}$`).FindAllString(log, -1)) != 2 {
		t.Errorf("git yoimem log shows another number of memory commits than 2:\n%s", log)
	}
	if st := r.git("status", "--porcelain", "--", ".yoi"); st != "" {
		t.Errorf("the working tree changed:\n%s", st)
	}
}
