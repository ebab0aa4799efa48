package lint

import (
	"bytes"
	"testing"
)

// naiveFirstControl is the byte loop firstControl replaces.
func naiveFirstControl(b []byte) int {
	for i, c := range b {
		if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f {
			return i
		}
	}
	return -1
}

// TestFirstControlMatchesByteLoop puts every byte value at every offset of
// buffers around the word size, in text with tabs, newlines, CRs and
// UTF-8, and compares the word-at-a-time scan with the byte loop.
func TestFirstControlMatchesByteLoop(t *testing.T) {
	fill := []byte("ab\tc\r\n日本語 x~\x80\xff ")
	for n := 0; n <= 40; n++ {
		base := bytes.Repeat(fill, n/len(fill)+1)[:n]
		if got, want := firstControl(base), naiveFirstControl(base); got != want {
			t.Fatalf("len %d, no byte placed: got %d, want %d", n, got, want)
		}
		for at := 0; at < n; at++ {
			for v := 0; v < 256; v++ {
				b := append([]byte(nil), base...)
				b[at] = byte(v)
				if got, want := firstControl(b), naiveFirstControl(b); got != want {
					t.Fatalf("len %d, byte 0x%02x at %d in %q: got %d, want %d", n, v, at, b, got, want)
				}
			}
		}
	}
}

// BenchmarkFirstControl scans prose of 60-byte lines, as records are, with
// no control byte: the whole text is read.
func BenchmarkFirstControl(b *testing.B) {
	text := bytes.Repeat([]byte("Retry idempotent calls twice, with backoff; see #retry-x.\n\t- a\r\n"), 4096)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if firstControl(text) >= 0 {
			b.Fatal("a control byte in plain text")
		}
	}
}

// TestFirstControlFirstOfMany places two bytes, each any value, in text
// with tabs, newlines and UTF-8: the first control byte is found when a
// word holds more than one.
func TestFirstControlFirstOfMany(t *testing.T) {
	base := bytes.Repeat([]byte("ab\tc\r\n日本語 x~\x80\xff "), 3)[:24]
	for a := 0; a < len(base); a++ {
		for b := a + 1; b < len(base) && b < a+10; b++ {
			for _, va := range []byte{0, 1, '\t', '\n', '\r', 0x1f, 0x20, 0x7f, 0x80, 'a'} {
				for vb := 0; vb < 256; vb++ {
					s := append([]byte(nil), base...)
					s[a], s[b] = va, byte(vb)
					if got, want := firstControl(s), naiveFirstControl(s); got != want {
						t.Fatalf("%q: got %d, want %d", s, got, want)
					}
				}
			}
		}
	}
}

// BenchmarkFirstControlCorpus scans every file of the bench corpus.
func BenchmarkFirstControlCorpus(b *testing.B) {
	files := benchCorpus(b, 10000)
	n := 0
	for _, f := range files {
		n += len(f)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, f := range files {
			firstControl(f)
		}
	}
}
