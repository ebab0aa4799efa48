package quote

import (
	"os/exec"
	"testing"
)

func TestShell(t *testing.T) {
	tests := []struct{ in, want string }{
		{"main", "main"},
		{"yoimem/memory", "yoimem/memory"},
		{"description=@-", "description=@-"},
		{"", "''"},
		{"a b", "'a b'"},
		{"it's", `'it'\''s'`},
		{"$(rm -rf /)", "'$(rm -rf /)'"},
		{"`x`", "'`x`'"},
		{"a\nb", "'a\nb'"},
		{"~", "'~'"},
		{"*", "'*'"},
	}
	for _, tt := range tests {
		if got := Shell(tt.in); got != tt.want {
			t.Errorf("Shell(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// The quoted words read back by sh are the words.
func TestShellLineRoundTrip(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh")
	}
	words := []string{"plain", "", "a b", "it's", "$HOME", "`id`", "a\nb", "--x=y", `\`, "é"}
	out, err := exec.Command(sh, "-c", `printf '%s\0' `+ShellLine(words...)).Output()
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	start := 0
	for i, c := range out {
		if c == 0 {
			got = append(got, string(out[start:i]))
			start = i + 1
		}
	}
	if len(got) != len(words) {
		t.Fatalf("sh read %q, want %q", got, words)
	}
	for i := range words {
		if got[i] != words[i] {
			t.Errorf("word %d: sh read %q, want %q", i, got[i], words[i])
		}
	}
}
