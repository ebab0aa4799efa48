package memory

import (
	"bytes"
	"encoding/binary"
)

// lower returns s lowered for case-insensitive matching. ASCII text, the
// usual record, is lowered eight bytes at a time; anything else goes
// through bytes.ToLower's Unicode rules (whose ASCII loop is a byte at a
// time, and a cold search lowers every record).
func lower(s []byte) []byte {
	out := make([]byte, len(s))
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64(s[i:])
		if w&0x8080808080808080 != 0 {
			return bytes.ToLower(s)
		}
		binary.LittleEndian.PutUint64(out[i:], lowerWord(w))
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return bytes.ToLower(s)
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}

// lowerWord lowers the ASCII letters of eight ASCII bytes: a byte is set
// in the mask when it is at least 'A' and not above 'Z', and 0x20 is
// added to those bytes.
func lowerWord(w uint64) uint64 {
	const ones = 0x0101010101010101
	geA := w + ones*(0x80-'A')   // high bit: byte >= 'A'
	gtZ := w + ones*(0x80-'Z'-1) // high bit: byte > 'Z'
	mask := (geA &^ gtZ) & (ones * 0x80)
	return w | mask>>2
}

// lowerInPlace lowers s in place when it is ASCII and returns it; other
// text is lowered into a new slice (Unicode lowering may change lengths).
func lowerInPlace(s []byte) []byte {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		w := binary.LittleEndian.Uint64(s[i:])
		if w&0x8080808080808080 != 0 {
			return bytes.ToLower(s) // the ASCII lowered so far stays as it is
		}
		binary.LittleEndian.PutUint64(s[i:], lowerWord(w))
	}
	for ; i < len(s); i++ {
		c := s[i]
		if c >= 0x80 {
			return bytes.ToLower(s) // the ASCII lowered so far stays as it is
		}
		if 'A' <= c && c <= 'Z' {
			s[i] = c + 'a' - 'A'
		}
	}
	return s
}
