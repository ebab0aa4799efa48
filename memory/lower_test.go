package memory

import (
	"bytes"
	"testing"
)

func TestLower(t *testing.T) {
	for _, s := range []string{
		"", "A", "Hello, World! @[`{ AZaz09", "ÄÖÜ Straße ΣΑΣ", "mixed ASCII then Ünïcode",
		"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ@[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\x7f\x00",
	} {
		if got, want := lower([]byte(s)), bytes.ToLower([]byte(s)); !bytes.Equal(got, want) {
			t.Errorf("lower(%q) = %q, want %q", s, got, want)
		}
		if got, want := lowerInPlace([]byte(s)), bytes.ToLower([]byte(s)); !bytes.Equal(got, want) {
			t.Errorf("lowerInPlace(%q) = %q, want %q", s, got, want)
		}
	}
}

// FuzzLower: the fast path agrees with bytes.ToLower on any input.
func FuzzLower(f *testing.F) {
	f.Add([]byte("Hello, World"))
	f.Add([]byte("ÄÖÜ ascii ABC"))
	f.Fuzz(func(t *testing.T, s []byte) {
		want := bytes.ToLower(s)
		if got := lower(s); !bytes.Equal(got, want) {
			t.Errorf("lower(%q) = %q, want %q", s, got, want)
		}
		if got := lowerInPlace(bytes.Clone(s)); !bytes.Equal(got, want) {
			t.Errorf("lowerInPlace(%q) = %q, want %q", s, got, want)
		}
	})
}

func BenchmarkLower(b *testing.B) {
	s := bytes.Repeat([]byte("The Quick Brown Fox Jumps Over The Lazy Dog 0123456789\n"), 20000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		lower(s)
	}
}

func BenchmarkBytesToLower(b *testing.B) {
	s := bytes.Repeat([]byte("The Quick Brown Fox Jumps Over The Lazy Dog 0123456789\n"), 20000)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		bytes.ToLower(s)
	}
}
