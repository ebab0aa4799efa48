package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestAbsentWord runs bench/lib.sh's bench_absent_word, the word every rg
// baseline searches for: it must skip a candidate the corpus holds, take
// the next, and stop the script when BENCH_ABSENT_WORD occurs in the
// corpus. (It lives here because gencorpus writes what it searches.)
func TestAbsentWord(t *testing.T) {
	if _, err := exec.LookPath("rg"); err != nil {
		t.Skip("ripgrep (rg) is not on PATH")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not on PATH")
	}
	lib, err := filepath.Abs("../lib.sh")
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, ".yoi", "knowledge"), 0o755); err != nil {
		t.Fatal(err)
	}
	// The first candidate, in another case: rg -i must see it.
	if err := os.WriteFile(filepath.Join(repo, ".yoi", "knowledge", "a.md"), []byte("---\nkind: x\n---\nZQXJVKW here\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, word   string
		ok           bool
		stdout, logs string
	}{
		{name: "generated", ok: true, stdout: "qwzxjkv", logs: "'zqxjvkw' occurs in the corpus"},
		{name: "named and absent", word: "nowhereword", ok: true, stdout: "nowhereword"},
		{name: "named and present", word: "here", ok: false, logs: "set BENCH_ABSENT_WORD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command("bash", "-c", `set -euo pipefail; source "$1"; BENCH_REPO=$2; bench_absent_word; printf '%s' "$BENCH_ABSENT"`, "bash", lib, repo)
			cmd.Env = append(os.Environ(), "BENCH_ABSENT_WORD="+tc.word)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if (err == nil) != tc.ok {
				t.Fatalf("err = %v, want ok %v; stderr:\n%s", err, tc.ok, stderr.String())
			}
			if string(out) != tc.stdout {
				t.Errorf("BENCH_ABSENT = %q, want %q", out, tc.stdout)
			}
			if !strings.Contains(stderr.String(), tc.logs) {
				t.Errorf("stderr %q, want it to hold %q", stderr.String(), tc.logs)
			}
		})
	}
}
