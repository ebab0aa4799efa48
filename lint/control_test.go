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
