package agentcli

import (
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"
)

// TestCheckRunID: the IDs a run directory may be named by.
func TestCheckRunID(t *testing.T) {
	for _, tt := range []struct {
		id string
		ok bool
	}{
		{"0193b2c4-7e1a-7c3d-9f00-123456789abc", true},
		{"a", true},
		{"A._-z", true},
		{strings.Repeat("a", 128), true},
		{strings.Repeat("a", 129), false},
		{"", false},
		{".hidden", false},
		{"-flag", false},
		{"_x", false},
		{"a..b", false},
		{"a/b", false},
		{"a b", false},
		{"a\n", false},
		{"ü", false},
		{"a\x00", false},
	} {
		if err := CheckRunID(tt.id); (err == nil) != tt.ok {
			t.Errorf("CheckRunID(%q) = %v, want ok %v", tt.id, err, tt.ok)
		}
	}
}

// TestCheckRunIDAsPattern: the check accepts exactly what the pattern it
// replaced did (a regexp built at start-up, the costliest init of the
// binary), with ".." refused on top.
func TestCheckRunIDAsPattern(t *testing.T) {
	pattern := regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`)
	const alphabet = "aZ09._-/ \n\xffü"
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		n := r.IntN(132)
		if r.IntN(4) == 0 {
			n = 126 + r.IntN(5)
		}
		var b strings.Builder
		for range n {
			if r.IntN(8) == 0 {
				b.WriteByte(alphabet[r.IntN(len(alphabet))])
			} else {
				b.WriteByte("abcXYZ019"[r.IntN(9)])
			}
		}
		id := b.String()
		want := pattern.MatchString(id) && !strings.Contains(id, "..")
		if got := CheckRunID(id) == nil; got != want {
			t.Fatalf("CheckRunID(%q) ok = %v, the pattern says %v", id, got, want)
		}
	}
}
