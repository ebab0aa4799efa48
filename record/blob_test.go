package record

import (
	"os/exec"
	"strings"
	"testing"
)

func TestBlobIDLikeGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	for _, content := range []string{"", "x", "---\nkind: rule\n---\nbody\n", strings.Repeat("long line\n", 5000)} {
		cmd := exec.Command("git", "hash-object", "--stdin")
		cmd.Stdin = strings.NewReader(content)
		out, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		if got, want := BlobID([]byte(content)), strings.TrimSpace(string(out)); got != want {
			t.Errorf("BlobID(%.20q) = %s, git hash-object says %s", content, got, want)
		}
	}
}
