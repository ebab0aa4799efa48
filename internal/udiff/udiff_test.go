package udiff

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func TestUnified(t *testing.T) {
	tests := []struct {
		name, a, b, want string
	}{
		{"equal", "x\ny\n", "x\ny\n", ""},
		{"one line changed", "a\nb\nc\n", "a\nB\nc\n", "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"},
		{"new file", "", "x\ny\n", "--- a/f\n+++ b/f\n@@ -0,0 +1,2 @@\n+x\n+y\n"},
		{"emptied", "x\n", "", "--- a/f\n+++ b/f\n@@ -1 +0,0 @@\n-x\n"},
		{"no final line break", "a\nb", "a\nc", "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n"},
		{"final line break added", "a", "a\n", "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"},
		{"context cut", "1\n2\n3\n4\n5\n6\n7\n8\n9\n", "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			"--- a/f\n+++ b/f\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n"},
		{"two hunks", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve\n",
			"--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+twelve\n"},
		{"close changes share a hunk", "1\n2\n3\n4\n5\n6\n7\n8\n", "one\n2\n3\n4\n5\n6\n7\neight\n",
			"--- a/f\n+++ b/f\n@@ -1,8 +1,8 @@\n-1\n+one\n 2\n 3\n 4\n 5\n 6\n 7\n-8\n+eight\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Unified("a/f", "b/f", []byte(tt.a), []byte(tt.b), DefaultContext); got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

// TestUnifiedApplies: git apply takes every diff and makes b of a.
func TestUnifiedApplies(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not found")
	}
	var texts []string
	for i := 0; i < 6; i++ {
		var b strings.Builder
		for j := 0; j < 40; j++ {
			if (j*7+i*3)%5 != 0 {
				fmt.Fprintf(&b, "line %d\n", (j*(i+1))%17)
			}
		}
		texts = append(texts, b.String())
	}
	texts = append(texts, "", "no break", "日本語の行\nもう一行\n")
	dir := t.TempDir()
	for i, a := range texts {
		for j, b := range texts {
			if a == "" || a == b {
				continue // git apply creates files from /dev/null only
			}
			f := filepath.Join(dir, "f")
			if err := os.WriteFile(f, []byte(a), 0o644); err != nil {
				t.Fatal(err)
			}
			patch := Unified("a/f", "b/f", []byte(a), []byte(b), DefaultContext)
			cmd := exec.Command("git", "apply", "--unidiff-zero", "-")
			cmd.Dir, cmd.Stdin = dir, strings.NewReader(patch)
			cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null", "HOME="+dir)
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%d -> %d: git apply: %v\n%s\n%s", i, j, err, out, patch)
			}
			got, _ := os.ReadFile(f)
			if !bytes.Equal(got, []byte(b)) {
				t.Fatalf("%d -> %d: applied %q, want %q\n%s", i, j, got, b, patch)
			}
		}
	}
}
